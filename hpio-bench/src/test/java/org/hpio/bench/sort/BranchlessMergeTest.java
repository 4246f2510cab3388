package org.hpio.bench.sort;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The merge kernel: exact merges equal a sort of the concatenation (random, duplicate-heavy and extreme values,
 * empty sides, sizes around the two-chain threshold, ranges inside larger arrays that must stay untouched
 * outside), co-rank splits that put every long taken at or below every long left, and safe counts that never
 * let a buffered long out before a long still unread.
 */
class BranchlessMergeTest {
    @Provide
    Arbitrary<long[]> sortedRuns() {
        Arbitrary<Long> values = Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.longs().between(-3, 3),
                Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L));
        Arbitrary<Integer> sizes = Arbitraries.oneOf(Arbitraries.integers().between(0, 10),
                Arbitraries.integers().between(0, 300), Arbitraries.of(63, 64, 65, 127, 128, 129, 4097));
        return sizes.flatMap(n -> values.array(long[].class).ofSize(n)).map(a -> {
            long[] s = a.clone();
            Arrays.sort(s);
            return s;
        });
    }

    @Property(tries = 400)
    void mergeExactEqualsTheSortedConcatenation(@ForAll("sortedRuns") long[] a, @ForAll("sortedRuns") long[] b,
                                                @ForAll @IntRange(max = 5) int pad) {
        long[] paddedA = pad(a, pad);
        long[] paddedB = pad(b, pad + 1);
        long[] dst = new long[a.length + b.length + 2 * pad + 3];
        Arrays.fill(dst, 42L);
        BranchlessMerge.mergeExact(paddedA, pad, a.length, paddedB, pad + 1, b.length, dst, pad);
        long[] expected = LongStream.concat(Arrays.stream(a), Arrays.stream(b)).sorted().toArray();
        assertArrayEquals(expected, Arrays.copyOfRange(dst, pad, pad + expected.length));
        for (int i = 0; i < dst.length; i++) {
            if (i < pad || i >= pad + expected.length) {
                assertEquals(42L, dst[i], "long " + i + " outside the output range was written");
            }
        }
    }

    @Property(tries = 300)
    void coRankSplitsAtAnyRank(@ForAll("sortedRuns") long[] a, @ForAll("sortedRuns") long[] b,
                               @ForAll @IntRange(max = 10_000) int rankSeed) {
        int r = (a.length + b.length) == 0 ? 0 : rankSeed % (a.length + b.length + 1);
        int p = BranchlessMerge.coRank(a, 0, a.length, b, 0, b.length, r);
        int q = r - p;
        assertTrue(p >= 0 && p <= a.length && q >= 0 && q <= b.length, "split " + p + "/" + q);
        long maxTaken = Math.max(p > 0 ? a[p - 1] : Long.MIN_VALUE, q > 0 ? b[q - 1] : Long.MIN_VALUE);
        long minLeft = Math.min(p < a.length ? a[p] : Long.MAX_VALUE, q < b.length ? b[q] : Long.MAX_VALUE);
        assertTrue(r == 0 || r == a.length + b.length || maxTaken <= minLeft,
                "rank " + r + ": took up to " + maxTaken + ", left from " + minLeft);
    }

    /** Streams a and b, of which only the first {@code bufA} / {@code bufB} longs are buffered. */
    @Property(tries = 300)
    void safeCountNeverOutrunsAnUnreadLong(@ForAll("sortedRuns") long[] a, @ForAll("sortedRuns") long[] b,
                                           @ForAll @IntRange(min = 1, max = 300) int bufA,
                                           @ForAll @IntRange(min = 1, max = 300) int bufB) {
        if (a.length == 0 || b.length == 0) {
            return;
        }
        int ra = Math.min(bufA, a.length);
        int rb = Math.min(bufB, b.length);
        int safe = BranchlessMerge.safeCount(a, 0, ra, b, 0, rb);
        assertTrue(safe >= Math.min(ra, rb) && safe <= ra + rb, "safe " + safe + " of " + ra + " + " + rb);
        int p = BranchlessMerge.coRank(a, 0, ra, b, 0, rb, safe);
        long[] out = new long[safe];
        BranchlessMerge.mergeExact(a, 0, p, b, 0, safe - p, out, 0);
        long[] whole = LongStream.concat(Arrays.stream(a), Arrays.stream(b)).sorted().toArray();
        assertArrayEquals(Arrays.copyOf(whole, safe), out, "the first " + safe + " longs of the whole merge");
    }

    @Test
    void everyRunInOrderOrReversedInterleavesOrConcatenates() {
        for (List<long[]> pair : List.of(
                List.of(LongStream.range(0, 1000).toArray(), LongStream.range(1000, 3000).toArray()),
                List.of(LongStream.range(1000, 3000).toArray(), LongStream.range(0, 1000).toArray()),
                List.of(LongStream.range(0, 2000).map(i -> 2 * i).toArray(), LongStream.range(0, 2000).map(i -> 2 * i + 1).toArray()),
                List.of(new long[500], new long[777]))) {
            long[] a = pair.get(0);
            long[] b = pair.get(1);
            long[] out = new long[a.length + b.length];
            BranchlessMerge.mergeExact(a, 0, a.length, b, 0, b.length, out, 0);
            assertArrayEquals(LongStream.concat(Arrays.stream(a), Arrays.stream(b)).sorted().toArray(), out);
        }
    }

    private static long[] pad(long[] values, int pad) {
        long[] padded = new long[values.length + 2 * pad];
        Arrays.fill(padded, Long.MIN_VALUE);
        System.arraycopy(values, 0, padded, pad, values.length);
        return padded;
    }
}
