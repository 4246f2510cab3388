package org.hpio.bench.sort;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Checks a sort's output with the JDK alone (so no configuration is verified by the code it measures): the file
 * holds as many longs as the input, each chunk is ascending (signed order, as {@code Arrays.sort}), and the
 * longs are the input's as a multiset ({@link MultisetHash}). A wrong output is an IOException that says what
 * is wrong and where.
 */
public final class SortCheck {
    private SortCheck() {
    }

    /**
     * Throws unless {@code out} is {@code expected}'s multiset with every {@code chunkLongs}-long chunk sorted
     * ({@link Long#MAX_VALUE}: the whole file sorted). {@code what} names the run in the message.
     */
    public static void verify(String what, Path out, MultisetHash expected, long chunkLongs) throws IOException {
        MultisetHash.Builder actual = new MultisetHash.Builder();
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        long index = 0;
        long previous = 0;
        try (FileChannel channel = FileChannel.open(out, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size != expected.count() * Long.BYTES) {
                throw new IOException(what + ": " + out + " has " + size + " bytes; the input has "
                        + expected.count() * Long.BYTES);
            }
            for (long position = 0; position < size; ) {
                int n = (int) Math.min(buffer.capacity(), size - position);
                buffer.clear().limit(n);
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer, position + buffer.position()) < 0) {
                        throw new IOException(what + ": " + out + " shrank while it was checked");
                    }
                }
                buffer.flip();
                while (buffer.hasRemaining()) {
                    long v = buffer.getLong();
                    if (index % chunkLongs != 0 && v < previous) {
                        throw unsorted(what, out, chunkLongs, index, v, previous);
                    }
                    actual.add(v);
                    previous = v;
                    index++;
                }
                position += n;
            }
        }
        MultisetHash got = actual.build();
        if (!got.equals(expected)) {
            throw new IOException(what + ": " + out + " is not a permutation of the input (longs changed, lost or "
                    + "duplicated): multiset hash " + got + ", the input's " + expected);
        }
    }

    private static IOException unsorted(String what, Path out, long chunkLongs, long index, long value, long previous) {
        long chunk = index / chunkLongs;
        String where = chunkLongs == Long.MAX_VALUE ? "the file" : "chunk " + chunk + " (longs " + chunk * chunkLongs
                + " to " + ((chunk + 1) * chunkLongs - 1) + ")";
        return new IOException(what + ": " + where + " of " + out + " is not sorted: long " + index + " (byte "
                + index * Long.BYTES + ") is " + value + ", after " + previous);
    }
}
