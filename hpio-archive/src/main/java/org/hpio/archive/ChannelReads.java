package org.hpio.archive;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/** Positional reads of a whole range (thread-safe: the channel's position is never used). */
final class ChannelReads {
    private ChannelReads() {
    }

    /** Reads {@code length} bytes at {@code offset} into a new little-endian buffer, flipped for reading. */
    static ByteBuffer read(FileChannel channel, long offset, int length, String archive, String what)
            throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        readFully(channel, buffer, offset, archive, what);
        return buffer.flip();
    }

    /** Fills {@code buffer}'s remaining space from {@code offset}; the end of the file is an error. */
    static void readFully(FileChannel channel, ByteBuffer buffer, long offset, String archive, String what)
            throws IOException {
        long position = offset;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, position);
            if (n < 0) {
                throw new ArchiveFormatException(archive, what + " at offset " + offset
                        + " runs past the end of the file");
            }
            position += n;
        }
    }
}
