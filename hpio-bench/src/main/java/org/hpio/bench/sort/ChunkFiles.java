package org.hpio.bench.sort;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The input and output of a single-buffered, blocking initial pass (000 §5: "re-implemented to use
 * single-buffered, blocking I/O"): chunks are read in order from the input and written in order to the output,
 * both files of big-endian longs. The caller owns the arrays; they are only used during the call.
 */
interface ChunkFiles extends Closeable {
    /** Reads the next {@code count} longs of the input into {@code chunk[0, count)}. */
    void read(long[] chunk, int count) throws IOException;

    /** Writes {@code chunk[0, count)} as the next longs of the output. */
    void write(long[] chunk, int count) throws IOException;

    /** Flushes what the output still holds and closes both files. */
    @Override
    void close() throws IOException;

    /** Opens a configuration's files: the input exists, the output does not yet. */
    @FunctionalInterface
    interface Opener {
        ChunkFiles open(Path in, Path out) throws IOException;
    }
}
