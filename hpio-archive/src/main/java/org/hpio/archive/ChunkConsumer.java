package org.hpio.archive;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Receives a streamed file piece by piece (see {@link Archive#stream(String, ChunkConsumer)}). */
@FunctionalInterface
public interface ChunkConsumer {
    /**
     * The next bytes of the file, in order, as a read-only buffer that is valid only during this call (its
     * memory is reused for the next chunk). Throwing stops the stream.
     */
    void accept(ByteBuffer chunk) throws IOException;
}
