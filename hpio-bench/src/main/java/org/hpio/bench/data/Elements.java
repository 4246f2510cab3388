package org.hpio.bench.data;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The two element types the benchmarks move (long[] for the sort and bulk suites, int[] for 001's shared-file
 * experiment), with each loop written once per type so that no per-element dispatch distorts the per-element
 * configurations.
 */
public enum Elements {
    INT(4), LONG(8);

    private final int size;

    Elements(int size) {
        this.size = size;
    }

    public static Elements of(Object array) {
        return switch (array) {
            case int[] ignored -> INT;
            case long[] ignored -> LONG;
            default -> throw new IllegalArgumentException("int[] or long[] expected: " + array.getClass());
        };
    }

    public int size() {
        return size;
    }

    public Object newArray(int length) {
        return this == INT ? new int[length] : new long[length];
    }

    public ValueLayout layout(ByteOrder order) {
        return (this == INT ? ValueLayout.JAVA_INT_UNALIGNED : ValueLayout.JAVA_LONG_UNALIGNED).withOrder(order);
    }

    /** DataInput's readInt/readLong, once per element (000 Table 1's raf, ds, dsb). */
    public void readEach(DataInput in, Object array, int offset, int count) throws IOException {
        if (array instanceof long[] longs) {
            for (int i = offset; i < offset + count; i++) {
                longs[i] = in.readLong();
            }
        } else {
            int[] ints = (int[]) array;
            for (int i = offset; i < offset + count; i++) {
                ints[i] = in.readInt();
            }
        }
    }

    public void writeEach(DataOutput out, Object array, int offset, int count) throws IOException {
        if (array instanceof long[] longs) {
            for (int i = offset; i < offset + count; i++) {
                out.writeLong(longs[i]);
            }
        } else {
            int[] ints = (int[]) array;
            for (int i = offset; i < offset + count; i++) {
                out.writeInt(ints[i]);
            }
        }
    }

    /** Big-endian bytes to elements with shifts and masks, as 001 §3.2 writes it. */
    public void decodeByShifts(byte[] bytes, Object array, int offset, int count) {
        if (array instanceof long[] longs) {
            for (int i = 0; i < count; i++) {
                int b = 8 * i;
                longs[offset + i] = ((long) (bytes[b] & 255) << 56) | ((long) (bytes[b + 1] & 255) << 48)
                        | ((long) (bytes[b + 2] & 255) << 40) | ((long) (bytes[b + 3] & 255) << 32)
                        | ((long) (bytes[b + 4] & 255) << 24) | ((bytes[b + 5] & 255) << 16)
                        | ((bytes[b + 6] & 255) << 8) | (bytes[b + 7] & 255);
            }
        } else {
            int[] ints = (int[]) array;
            for (int i = 0; i < count; i++) {
                int b = 4 * i;
                ints[offset + i] = ((bytes[b] & 255) << 24) | ((bytes[b + 1] & 255) << 16)
                        | ((bytes[b + 2] & 255) << 8) | (bytes[b + 3] & 255);
            }
        }
    }

    /** Elements to big-endian bytes with shifts, as 001 §3.2 writes it. */
    public void encodeByShifts(Object array, int offset, int count, byte[] bytes) {
        if (array instanceof long[] longs) {
            for (int i = 0; i < count; i++) {
                long v = longs[offset + i];
                int b = 8 * i;
                for (int k = 0; k < 8; k++) {
                    bytes[b + k] = (byte) (v >>> (56 - 8 * k));
                }
            }
        } else {
            int[] ints = (int[]) array;
            for (int i = 0; i < count; i++) {
                int v = ints[offset + i];
                int b = 4 * i;
                bytes[b] = (byte) (v >>> 24);
                bytes[b + 1] = (byte) (v >>> 16);
                bytes[b + 2] = (byte) (v >>> 8);
                bytes[b + 3] = (byte) v;
            }
        }
    }

    /** A ByteBuffer's typed view, as a developer writes it with NIO: {@code asLongBuffer().get(array)}. */
    public void get(ByteBuffer buffer, Object array, int offset, int count) {
        if (array instanceof long[] longs) {
            buffer.asLongBuffer().get(longs, offset, count);
        } else {
            buffer.asIntBuffer().get((int[]) array, offset, count);
        }
    }

    public void put(ByteBuffer buffer, Object array, int offset, int count) {
        if (array instanceof long[] longs) {
            buffer.asLongBuffer().put(longs, offset, count);
        } else {
            buffer.asIntBuffer().put((int[]) array, offset, count);
        }
    }

    /** Copies {@code count} elements between a mapped segment and the array (MemorySegment.copy). */
    public void copyFrom(MemorySegment source, ByteOrder order, Object array, int offset, int count) {
        MemorySegment.copy(source, layout(order), 0, array, offset, count);
    }

    public void copyTo(Object array, int offset, int count, MemorySegment target, ByteOrder order) {
        MemorySegment.copy(array, offset, target, layout(order), 0, count);
    }
}
