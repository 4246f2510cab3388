package org.hpio.bench.sort;

import java.util.Arrays;

/**
 * The one in-memory sort every Java configuration uses, so that sort time is the same "black box" CPU workload
 * in each (000 §5.3): {@link Arrays#sort(long[], int, int)}, the JDK's dual-pivot quicksort (the paper used "a
 * standard O(n log n) quicksort").
 */
public final class ChunkSort {
    private ChunkSort() {
    }

    /** Sorts {@code chunk[0, count)} ascending. */
    public static void sort(long[] chunk, int count) {
        Arrays.sort(chunk, 0, count);
    }
}
