package org.hpio.bench.sort;

/**
 * A run already in memory, handed to the merge tree in blocks of a given size, as {@link RunReader} hands over a
 * run read from a file: for measuring the merge alone ({@link MergeBenchmark}) and for testing it. Reads the
 * caller's array, which must stay unchanged while the merge runs; its blocks are slices copied into its own block.
 */
final class ArrayRun extends MergeInput {
    private final long[] values;
    private int next;

    /** {@code values} (ascending) in blocks of {@code blockLongs} (at least 1). */
    ArrayRun(long[] values, int blockLongs) {
        if (blockLongs < 1) {
            throw new IllegalArgumentException("block of " + blockLongs + " longs");
        }
        this.values = values;
        this.block = new long[Math.min(blockLongs, Math.max(1, values.length))];
    }

    @Override
    boolean refill() {
        int n = Math.min(block.length, values.length - next);
        System.arraycopy(values, next, block, 0, n);
        next += n;
        position = 0;
        limit = n;
        return n > 0;
    }

    @Override
    int fillPastBlock(long[] dst, int from, int to) {
        int n = Math.min(to - from, values.length - next);
        System.arraycopy(values, next, dst, from, n);
        next += n;
        return from + n;
    }
}
