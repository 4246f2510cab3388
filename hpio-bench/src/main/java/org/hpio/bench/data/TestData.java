package org.hpio.bench.data;

/**
 * The data every benchmark writes and checks, the same in Java and in the C programs: element i of a file is
 * {@code splitmix64(i)} (truncated to 32 bits for ints), and a block's checksum is the sum over its elements of
 * {@code value * (2 * i + 1)} with i the element's index in the whole file, modulo 2^64. The checksum is
 * additive, so blocks done by different threads or processes add up to the file's, and it changes when a value
 * is wrong, swapped, or in the wrong place.
 */
public final class TestData {
    private TestData() {
    }

    public static long value(long index) {
        long z = index + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public static long term(long index, long value) {
        return value * (2 * index + 1);
    }

    /** Fills {@code array[offset, offset + count)} (a long[] or int[]) with the values of elements first ... */
    public static void fill(Object array, int offset, int count, long first) {
        switch (array) {
            case long[] longs -> {
                for (int i = 0; i < count; i++) {
                    longs[offset + i] = value(first + i);
                }
            }
            case int[] ints -> {
                for (int i = 0; i < count; i++) {
                    ints[offset + i] = (int) value(first + i);
                }
            }
            default -> throw new IllegalArgumentException("long[] or int[] expected: " + array.getClass());
        }
    }

    /** The checksum of {@code array[offset, offset + count)} holding elements first ... of the file. */
    public static long checksum(Object array, int offset, int count, long first) {
        long sum = 0;
        switch (array) {
            case long[] longs -> {
                for (int i = 0; i < count; i++) {
                    sum += term(first + i, longs[offset + i]);
                }
            }
            case int[] ints -> {
                for (int i = 0; i < count; i++) {
                    sum += term(first + i, ints[offset + i]);
                }
            }
            default -> throw new IllegalArgumentException("long[] or int[] expected: " + array.getClass());
        }
        return sum;
    }

    /** The checksum the elements first ... first + count - 1 must have, from the generator. */
    public static long expectedChecksum(long first, long count, int elementSize) {
        long sum = 0;
        for (long i = first; i < first + count; i++) {
            long v = value(i);
            sum += term(i, elementSize == 4 ? (long) (int) v : v);
        }
        return sum;
    }
}
