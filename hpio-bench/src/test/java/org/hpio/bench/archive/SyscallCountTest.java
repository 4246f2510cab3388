package org.hpio.bench.archive;

import org.hpio.bench.suite.BenchOptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** strace's summary read right, and --configs choosing rows per workload. */
class SyscallCountTest {
    @Test
    void readsStracesSummaryTableWithAndWithoutErrors() {
        SyscallCount c = SyscallCount.parse(List.of(
                "% time     seconds  usecs/call     calls    errors syscall",
                "------ ----------- ----------- --------- --------- ----------------",
                " 40.00    0.000400           2       200           read",
                " 30.00    0.000300           3       100        12 openat",
                " 30.00    0.000300           3       100           close",
                "------ ----------- ----------- --------- --------- ----------------",
                "100.00    0.001000           2       400        12 total")).over(100);
        assertEquals(400, c.total());
        assertEquals(List.of("read", "openat", "close"), List.copyOf(c.byName().keySet()));
        assertEquals(4.0, c.perLoad());
        assertEquals("read 2.00, openat 1.00", c.mostFrequentPerLoad(2));
    }

    @Test
    void configsChooseRowsByNameByWorkloadPrefixedNameOrAWholeWorkload() {
        Workload game = Workload.game();
        Workload python = Workload.recorded(options(List.of()));
        assertTrue(game.selects(options(List.of()), "zipfile-stored"));
        assertTrue(game.selects(options(List.of("zipfile-stored")), "zipfile-stored"));
        assertTrue(python.selects(options(List.of("zipfile-stored")), "zipfile-stored"));
        assertTrue(game.selects(options(List.of("game-zipfile-stored")), "zipfile-stored"));
        assertFalse(python.selects(options(List.of("game-zipfile-stored")), "zipfile-stored"));
        assertTrue(game.selects(options(List.of("game")), "loose-hpio"));
        assertFalse(python.selects(options(List.of("game")), "loose-hpio"));
        assertEquals("game-loose-hpio", game.key("loose-hpio"));
        assertEquals("loose-hpio", python.key("loose-hpio"), "the python trace's results keep their names");
    }

    private static BenchOptions options(List<String> configs) {
        return new BenchOptions(Optional.empty(), List.of(1), 1, BenchOptions.CacheMode.BOTH, Path.of("w"), configs,
                Optional.empty(), Optional.empty(), Map.of());
    }
}
