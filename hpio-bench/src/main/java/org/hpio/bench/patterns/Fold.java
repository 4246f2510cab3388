package org.hpio.bench.patterns;

import org.hpio.bench.data.TestData;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The checksum a read folds its data into, cheap enough to sit in the timed loop and the same in the C
 * program: an operation of 8 bytes or more (at a multiple of 8) adds {@link TestData#term} of each big-endian
 * long with its index in the file; a smaller one adds {@code (byte & 0xff) * (2 * position + 1)} per byte. It
 * changes when a byte is wrong or read from the wrong place.
 */
final class Fold {
    private static final VarHandle BIG_ENDIAN_LONG = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.BIG_ENDIAN);

    private Fold() {
    }

    /** Folds {@code n} bytes of {@code data} from {@code offset}, which came from file position {@code position}. */
    static long bytes(byte[] data, int offset, int n, long position) {
        long sum = 0;
        if (n >= Long.BYTES) {
            long index = position / Long.BYTES;
            for (int i = 0; i < n; i += Long.BYTES) {
                sum += TestData.term(index++, (long) BIG_ENDIAN_LONG.get(data, offset + i));
            }
        } else {
            for (int i = 0; i < n; i++) {
                sum += one(data[offset + i], position + i);
            }
        }
        return sum;
    }

    /** As {@link #bytes} for {@code buffer[0, n)} (a big-endian buffer). */
    static long buffer(ByteBuffer buffer, int n, long position) {
        long sum = 0;
        if (n >= Long.BYTES) {
            long index = position / Long.BYTES;
            for (int i = 0; i < n; i += Long.BYTES) {
                sum += TestData.term(index++, buffer.getLong(i));
            }
        } else {
            for (int i = 0; i < n; i++) {
                sum += one(buffer.get(i), position + i);
            }
        }
        return sum;
    }

    /** As {@link #bytes} for longs read as longs: {@code longs[0, count)} from long index {@code position / 8}. */
    static long longs(long[] longs, int count, long position) {
        long sum = 0;
        long index = position / Long.BYTES;
        for (int i = 0; i < count; i++) {
            sum += TestData.term(index++, longs[i]);
        }
        return sum;
    }

    static long one(byte b, long position) {
        return (b & 0xff) * (2 * position + 1);
    }
}
