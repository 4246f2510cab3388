package org.hpio.bench.patterns;

import org.hpio.bench.data.TestData;

import java.nio.ByteBuffer;

/**
 * The file's contents in memory, as bytes and as longs: element i is the generator's {@code splitmix64(i)},
 * big-endian (what {@code DataFiles.create} writes and the C program generates). Writes copy from here, and the
 * expected checksums are computed from here. Read-only once made.
 */
final class Source {
    final byte[] bytes;
    final long[] longs;

    private Source(byte[] bytes, long[] longs) {
        this.bytes = bytes;
        this.longs = longs;
    }

    /** The first {@code size} bytes (a multiple of 8, below 2 GiB) of the generator's file. */
    static Source of(long size) {
        if (size % Long.BYTES != 0 || size >= Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("patterns file size must be a multiple of 8 below 2 GiB: " + size);
        }
        long[] longs = new long[(int) (size / Long.BYTES)];
        ByteBuffer bytes = ByteBuffer.allocate((int) size);
        for (int i = 0; i < longs.length; i++) {
            longs[i] = TestData.value(i);
            bytes.putLong(longs[i]);
        }
        return new Source(bytes.array(), longs);
    }
}
