package org.hpio.bench.sort;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;

/**
 * A hash of a multiset of longs, the same whatever their order: the count, and two sums (mod 2^64) of each
 * value through two different bijective mixers (splitmix64's finalizer, salted). Changing, losing or
 * duplicating a value changes it except with probability about 2^-128 for data not built to collide; moving
 * values does not. A sort's output must have its input's.
 *
 * @param count how many longs
 * @param sum1  sum of mix(v)
 * @param sum2  sum of mix(v ^ SALT)
 */
public record MultisetHash(long count, long sum1, long sum2) {
    private static final long SALT = 0x5DEECE66DL * 0x9E3779B97F4A7C15L;

    /** The hash of the big-endian longs of {@code file} (its length must be a multiple of 8). */
    public static MultisetHash of(Path file) throws IOException {
        Builder builder = new Builder();
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size % Long.BYTES != 0) {
                throw new IOException(file + " is not a file of longs: " + size + " bytes");
            }
            for (long position = 0; position < size; ) {
                int n = (int) Math.min(buffer.capacity(), size - position);
                buffer.clear().limit(n);
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer, position + buffer.position()) < 0) {
                        throw new IOException(file + " shrank while it was read");
                    }
                }
                buffer.flip();
                while (buffer.hasRemaining()) {
                    builder.add(buffer.getLong());
                }
                position += n;
            }
        }
        return builder.build();
    }

    /** The hash of {@code values[0, count)}. */
    public static MultisetHash of(long[] values, int count) {
        Builder builder = new Builder();
        for (int i = 0; i < count; i++) {
            builder.add(values[i]);
        }
        return builder.build();
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return count + " longs, " + hex.toHexDigits(sum1) + hex.toHexDigits(sum2);
    }

    /** Accumulates a hash value by value; one thread. */
    public static final class Builder {
        private long count;
        private long sum1;
        private long sum2;

        public void add(long value) {
            count++;
            sum1 += mix(value);
            sum2 += mix(value ^ SALT);
        }

        public MultisetHash build() {
            return new MultisetHash(count, sum1, sum2);
        }
    }
}
