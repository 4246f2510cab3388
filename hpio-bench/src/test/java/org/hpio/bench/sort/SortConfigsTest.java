package org.hpio.bench.sort;

import org.hpio.bench.machine.CProgram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every sort configuration (C ones when gcc is there) sorts each chunk of small files, with chunk counts of 0 to
 * 11, sizes that are not a multiple of the chunk, and many repeated values; O_DIRECT ones on 4 KiB-aligned sizes.
 */
class SortConfigsTest {
    @TempDir
    static Path build;
    @TempDir
    Path dir;

    private static List<SortConfig> configs;

    @BeforeAll
    static void configs() throws Exception {
        Optional<CProgram> c = CProgram.compile(CSort.PROGRAM, build, new ArrayList<>());
        configs = SortConfig.all(c);
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (String name : SortConfig.names()) {
            // longs, chunk longs: odd totals, one chunk, a partial chunk only, two, three, many
            int[][] buffered = {{1000 * 7 + 13, 1000}, {17, 64}, {129, 64}, {3 * 512 + 1, 512}, {11 * 96 + 95, 96}};
            int[][] direct = {{512 * 12, 512}, {512 * 3, 512}, {512 * 2, 1024}, {4096 * 5, 4096}};
            boolean isDirect = name.endsWith("-direct");
            for (int[] c : isDirect ? direct : buffered) {
                cases.add(Arguments.of(name, c[0], c[1], false));
            }
            cases.add(Arguments.of(name, isDirect ? 512 * 8 : 1000, 512, true));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1} longs, chunks of {2}, few distinct values {3}")
    @MethodSource("cases")
    void sortsEveryChunk(String name, int longs, int chunk, boolean few) throws Exception {
        Optional<SortConfig> config = configs.stream().filter(c -> c.name().equals(name)).findFirst();
        assumeTrue(config.isPresent(), name + " is not available here (the C rows need Debian's package gcc)");
        long[] values = SortData.random(longs, longs * 31L + chunk, few);
        Path in = dir.resolve("in");
        Path out = dir.resolve("out");
        SortData.write(in, values);
        SortTimes.Breakdown times = config.get().run(in, out, chunk);
        assertArrayEquals(SortData.chunksSorted(values, chunk), SortData.read(out));
        SortCheck.verify(name, out, MultisetHash.of(in), chunk);
        assertTrue(times.total() > 0 && times.sort() >= 0 && times.read() >= 0 && times.write() >= 0, times.toString());
    }
}
