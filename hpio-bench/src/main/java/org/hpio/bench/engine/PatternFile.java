package org.hpio.bench.engine;

import org.hpio.bench.report.Progress;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Creates the suite's data files (the {@link BlockPattern}, written sequentially and forced) and checks them. */
final class PatternFile {
    private static final int CHUNK = 1 << 20;

    private PatternFile() {
    }

    /** Writes {@code size} bytes (a multiple of 1 MiB) of the pattern to {@code file}, replacing it, and forces it. */
    static void create(Path file, long size, Progress progress) throws IOException {
        requireChunks(size);
        ByteBuffer buffer = ByteBuffer.allocateDirect(CHUNK);
        MemorySegment segment = MemorySegment.ofBuffer(buffer);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long position = 0; position < size; position += CHUNK) {
                BlockPattern.fill(segment, position);
                buffer.clear();
                while (buffer.hasRemaining()) {
                    out.write(buffer, position + buffer.position());
                }
                progress.stepBy(CHUNK);
            }
            out.force(true);
        }
    }

    /**
     * Forces {@code file} and reads back its first {@code extent} bytes (through the page cache, with the JDK
     * alone); throws naming the first wrong block when any block does not hold the pattern.
     */
    static void verify(String configuration, Path file, long extent) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(CHUNK);
        MemorySegment segment = MemorySegment.ofBuffer(buffer);
        long wrong = 0;
        long first = -1;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            in.force(true);
            for (long position = 0; position < extent; position += CHUNK) {
                buffer.clear().limit((int) Math.min(CHUNK, extent - position));
                while (buffer.hasRemaining()) {
                    if (in.read(buffer, position + buffer.position()) < 0) {
                        throw new IOException(configuration + ": " + file + " ends at " + (position + buffer.position())
                                + ", before the " + extent + " bytes written");
                    }
                }
                int bad = BlockPattern.mismatches(segment.asSlice(0, buffer.limit()), position);
                if (bad > 0 && first < 0) {
                    first = position;
                }
                wrong += bad;
            }
        }
        if (wrong > 0) {
            throw new IOException(configuration + " wrote wrong data: " + wrong + " blocks of " + extent / BlockPattern.BLOCK
                    + " read back do not hold the pattern (first in the MiB at offset " + first + ")");
        }
    }

    static void requireChunks(long size) {
        if (size < CHUNK || size % CHUNK != 0) {
            throw new IllegalArgumentException("the engine suite's file must be a positive multiple of 1 MiB: " + size);
        }
    }
}
