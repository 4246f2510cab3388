package org.hpio.bench.sort;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The merge tree of the whole sort over runs in memory ({@link ArrayRun} leaves, as {@link RunReader} leaves
 * come from the file): any number of runs (1, odd, a power of two and not), empty runs, runs of one long,
 * duplicates, blocks of one long up to larger than a run, drained into output blocks of odd sizes; the output is
 * the sorted concatenation, and it ends exactly when the runs do.
 */
class MergeTreeTest {
    @Provide
    Arbitrary<List<long[]>> runs() {
        Arbitrary<Long> values = Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.longs().between(0, 5),
                Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE));
        Arbitrary<long[]> run = Arbitraries.oneOf(Arbitraries.integers().between(0, 3),
                        Arbitraries.integers().between(0, 2000))
                .flatMap(n -> values.array(long[].class).ofSize(n))
                .map(a -> {
                    long[] s = a.clone();
                    Arrays.sort(s);
                    return s;
                });
        return run.list().ofMinSize(1).ofMaxSize(17);
    }

    @Property(tries = 250)
    void mergesAnyRunsIntoTheirSortedConcatenation(@ForAll("runs") List<long[]> runs,
                                                   @ForAll @IntRange(min = 1, max = 700) int blockLongs,
                                                   @ForAll @IntRange(min = 1, max = 5000) int outLongs) throws IOException {
        assertArrayEquals(sortedConcatenation(runs), mergeAll(runs, blockLongs, outLongs));
    }

    @Test
    void thirteenRunsOfRandomLongsAsInTheWholeSort() throws IOException {
        List<long[]> runs = new ArrayList<>();
        for (int r = 0; r < 13; r++) {
            long[] run = SortData.random(r == 12 ? 12_345 : 40_000, r, false);
            Arrays.sort(run);
            runs.add(run);
        }
        assertArrayEquals(sortedConcatenation(runs), mergeAll(runs, 4096, 10_000));
    }

    @Test
    void oneRunIsCopiedThrough() throws IOException {
        long[] run = {-4, -4, 0, 9};
        assertArrayEquals(run, mergeAll(List.of(run), 3, 2));
        assertEquals(0, mergeAll(List.of(new long[0], new long[0], new long[0]), 5, 5).length);
    }

    static long[] sortedConcatenation(List<long[]> runs) {
        return runs.stream().flatMapToLong(Arrays::stream).sorted().toArray();
    }

    /** Drains the tree in blocks of {@code outLongs}, as KWayMerge drains it into WriteBehind's block. */
    static long[] mergeAll(List<long[]> runs, int blockLongs, int outLongs) throws IOException {
        List<MergeInput> leaves = new ArrayList<>();
        for (long[] run : runs) {
            leaves.add(new ArrayRun(run, blockLongs));
        }
        MergeInput root = KWayMerge.tree(leaves);
        long[] out = new long[outLongs];
        long[] all = new long[0];
        int n;
        do {
            n = root.fill(out, 0, out.length);
            long[] grown = Arrays.copyOf(all, all.length + n);
            System.arraycopy(out, 0, grown, all.length, n);
            all = grown;
        } while (n == out.length);
        assertEquals(0, root.fill(out, 0, out.length), "the tree goes on after it ended");
        return all;
    }
}
