package org.hpio.bench.sort;

/**
 * The inner loops of the merge passes: a 2-way merge of two sorted ranges of long arrays whose lengths are known
 * in advance, so the loop needs no end test per element and no branch on the data.
 *
 * <p>Design note. A merge step takes the smaller head: {@code t = x <= y ? 1 : 0}, {@code out = t ? x : y},
 * {@code i += t, j += 1 - t}; HotSpot turns the selects into conditional moves, so random data costs no branch
 * mispredictions. What is left is a dependency chain: the next load waits for the comparison. Two independent
 * merges interleaved in one loop hide half of that latency: {@link #coRank} splits the output in two at its
 * middle (the "merge path" split of Odeh, Green, Mwassi, Shmueli and Birk, "Merge Path - Parallel Merging Made
 * Simple", IPDPS 2012, used here for instruction-level rather than thread parallelism), and each half is merged
 * by its own chain. A step count {@code min(remaining of each input)} is run without any test; the rest is one
 * checked loop and two copies. {@link #safeCount} says how much of two buffers of streams can be merged before
 * either stream must be read further (the block-wise "merge up to the smaller last element"). Measured on this
 * project's 2-core Xeon: one chain about 4.2 ns per output long, two interleaved chains 3.2 ns; a loser tree over
 * 13 runs 55-100 ns per long (all within one JVM, flock'd, other work on the machine).
 *
 * <p>Stateless; the caller owns every array. Ties take {@code a} first.
 */
final class BranchlessMerge {
    /** Below this many output longs one chain is used (splitting costs a binary search). */
    static final int TWO_CHAINS_MIN = 64;
    /** Below this many steps without a test the checked loop finishes a chain. */
    private static final int UNCHECKED_MIN = 8;

    private BranchlessMerge() {
    }

    /**
     * How many longs at the front of {@code a[i .. i+ra)} and {@code b[j .. j+rb)} (both ascending, both non-empty,
     * each the buffered part of a stream that goes on with values no smaller than its last one) are, merged, the
     * next longs of the merge of the two streams: all of the buffer whose last value is smaller, plus the other's
     * values up to that last value. At least {@code min(ra, rb)}.
     */
    static int safeCount(long[] a, int i, int ra, long[] b, int j, int rb) {
        long lastA = a[i + ra - 1];
        long lastB = b[j + rb - 1];
        return lastA <= lastB ? ra + countAtMost(b, j, rb, lastA) : rb + countAtMost(a, i, ra, lastB);
    }

    /** How many of the ascending {@code x[from .. from+n)} are {@code <= value}. */
    static int countAtMost(long[] x, int from, int n, long value) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (x[from + mid] <= value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * How many of {@code a[i .. i+p)} are among the first {@code r} longs of the merge of {@code a[i .. i+p)} and
     * {@code b[j .. j+q)} ({@code 0 <= r <= p + q}): the smallest count c with {@code a[i+c] > b[j+r-c-1]}, so
     * that every long taken is at most every long left.
     */
    static int coRank(long[] a, int i, int p, long[] b, int j, int q, int r) {
        int lo = Math.max(0, r - q);
        int hi = Math.min(r, p);
        while (lo < hi) {
            int c = (lo + hi) >>> 1;
            if (a[i + c] <= b[j + r - c - 1]) {
                lo = c + 1;
            } else {
                hi = c;
            }
        }
        return lo;
    }

    /**
     * Merges all of {@code a[i .. i+p)} and {@code b[j .. j+q)} (ascending each) into {@code dst[o .. o+p+q)}, which
     * must not overlap them.
     */
    static void mergeExact(long[] a, int i, int p, long[] b, int j, int q, long[] dst, int o) {
        int n = p + q;
        if (n < TWO_CHAINS_MIN || p == 0 || q == 0) {
            mergeOneChain(a, i, i + p, b, j, j + q, dst, o);
            return;
        }
        int half = n >>> 1;
        int p1 = coRank(a, i, p, b, j, q, half);
        int i1 = i;
        int iEnd1 = i + p1;
        int j1 = j;
        int jEnd1 = j + half - p1;
        int o1 = o;
        int i2 = iEnd1;
        int iEnd2 = i + p;
        int j2 = jEnd1;
        int jEnd2 = j + q;
        int o2 = o + half;
        int steps;
        while ((steps = Math.min(Math.min(iEnd1 - i1, jEnd1 - j1), Math.min(iEnd2 - i2, jEnd2 - j2))) >= UNCHECKED_MIN) {
            for (int s = 0; s < steps; s++) {
                long x1 = a[i1];
                long y1 = b[j1];
                int t1 = x1 <= y1 ? 1 : 0;
                dst[o1 + s] = t1 != 0 ? x1 : y1;
                i1 += t1;
                j1 += 1 - t1;
                long x2 = a[i2];
                long y2 = b[j2];
                int t2 = x2 <= y2 ? 1 : 0;
                dst[o2 + s] = t2 != 0 ? x2 : y2;
                i2 += t2;
                j2 += 1 - t2;
            }
            o1 += steps;
            o2 += steps;
        }
        mergeOneChain(a, i1, iEnd1, b, j1, jEnd1, dst, o1);
        mergeOneChain(a, i2, iEnd2, b, j2, jEnd2, dst, o2);
    }

    /** Merges all of {@code a[i .. iEnd)} and {@code b[j .. jEnd)} into {@code dst} from {@code o}, one chain. */
    private static void mergeOneChain(long[] a, int i, int iEnd, long[] b, int j, int jEnd, long[] dst, int o) {
        int steps;
        while ((steps = Math.min(iEnd - i, jEnd - j)) >= UNCHECKED_MIN) {
            for (int s = 0; s < steps; s++) {
                long x = a[i];
                long y = b[j];
                int t = x <= y ? 1 : 0;
                dst[o + s] = t != 0 ? x : y;
                i += t;
                j += 1 - t;
            }
            o += steps;
        }
        while (i < iEnd && j < jEnd) {
            long x = a[i];
            long y = b[j];
            int t = x <= y ? 1 : 0;
            dst[o++] = t != 0 ? x : y;
            i += t;
            j += 1 - t;
        }
        System.arraycopy(a, i, dst, o, iEnd - i);
        o += iEnd - i;
        System.arraycopy(b, j, dst, o, jEnd - j);
    }
}
