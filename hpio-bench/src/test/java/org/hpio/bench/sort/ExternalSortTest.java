package org.hpio.bench.sort;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The whole external sort: one sorted file, the input's multiset, for several run counts and merge passes. */
class ExternalSortTest {
    /** 48 KiB of memory: runs of 16 KiB (2048 longs), merges of 2 runs at a time. */
    static final long SMALL_MEMORY = 48 << 10;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} longs in {1} bytes, O_DIRECT {2}, few values {3}")
    @CsvSource({
            "2048, 49152, false, false",      // one run: no merge
            "2049, 49152, false, false",      // two runs, the second of one long
            "6145, 49152, false, true",       // four runs, two merge passes, repeats
            "20000, 49152, false, false",     // ten runs, four passes
            "20000, 1048576, false, false",   // one run (memory / 3 > input)
            "100000, 1048576, false, false",  // 2 runs of 43690 longs in 1 MiB
            "51200, 196608, true, false",     // O_DIRECT: 400 KiB in 192 KiB, 7 runs of 64 KiB, fan-in 2
            "131072, 3145728, true, true"})   // O_DIRECT: 1 MiB in 3 MiB, one run
    void sortsTheWholeFile(int longs, long memory, boolean direct, boolean few) throws Exception {
        long[] values = SortData.random(longs, longs + memory, few);
        Path in = dir.resolve("in");
        Path out = dir.resolve("out");
        SortData.write(in, values);
        ExternalSort.Result result = ExternalSort.sort(in, out, memory, direct);
        long[] expected = values.clone();
        Arrays.sort(expected);
        assertArrayEquals(expected, SortData.read(out));
        SortCheck.verify("whole sort", out, MultisetHash.of(in), Long.MAX_VALUE);
        int runLongs = ExternalSort.runLongs(memory);
        assertEquals((longs + runLongs - 1) / runLongs, result.runs());
        assertEquals(direct, result.direct());
        assertTrue(result.passes() >= (result.runs() > 1 ? 2 : 1), result.toString());
        try (var files = Files.list(dir)) {
            assertEquals(2, files.count(), "scratch files left behind");
        }
    }

    @Test
    void mergesManyRunsInOnePassWhenTheMemoryAllows() throws Exception {
        long[] values = SortData.random(700_000, 3, false);
        Path in = dir.resolve("in");
        Path out = dir.resolve("out");
        SortData.write(in, values);
        ExternalSort.Result result = ExternalSort.sort(in, out, 2 << 20, false);
        assertEquals(2, result.passes());
        assertTrue(result.runs() >= 7, result.toString());
        SortCheck.verify("whole sort", out, MultisetHash.of(in), Long.MAX_VALUE);
    }

    @Test
    void extremeValuesMergeLikeAnyOther() throws Exception {
        long[] values = new long[7000];
        for (int i = 0; i < values.length; i++) {
            values[i] = switch (i % 4) {
                case 0 -> Long.MAX_VALUE;
                case 1 -> Long.MIN_VALUE;
                case 2 -> i;
                default -> -i;
            };
        }
        Path in = dir.resolve("in");
        Path out = dir.resolve("out");
        SortData.write(in, values);
        ExternalSort.sort(in, out, SMALL_MEMORY, false);
        long[] expected = values.clone();
        Arrays.sort(expected);
        assertArrayEquals(expected, SortData.read(out));
    }

    @Test
    void fanInAndBlocksFollowTheMemory() {
        assertEquals(2, ExternalSort.fanIn(SMALL_MEMORY));
        assertEquals(408, ExternalSort.fanIn(64L << 20));
        assertEquals(0, ExternalSort.blockLongs(64L << 20, 12) * 8 % ExternalSort.ALIGN);
        assertTrue(ExternalSort.blockLongs(64L << 20, 12) * 8L * 27 + KWayMerge.treeBytes(12) <= 64L << 20);
        assertFalse(ExternalSort.runs(10, 3).isEmpty());
        assertEquals(4, ExternalSort.runs(10, 3).size());
    }
}
