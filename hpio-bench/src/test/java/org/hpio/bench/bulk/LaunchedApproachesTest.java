package org.hpio.bench.bulk;

import org.hpio.bench.ranks.RankFailedException;
import org.hpio.bench.report.Result;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bulk.LaunchRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The approaches suite as the ranks of a launch, simulated by threads that each run the whole suite as one
 * rank (as N processes started by mpirun would), sharing one work directory.
 */
class LaunchedApproachesTest {
    private static final List<String> CONFIGS = List.of("bulkraf", "bulk-native", "nio", "dsb");

    @TempDir
    Path work;

    /** Runs ranks 0 .. size - 1, rank r with {@code configs.get(r)}; each rank's report, or its failure. */
    private List<Future<SuiteReport>> launch(int size, List<List<String>> configs) throws InterruptedException {
        List<Future<SuiteReport>> reports = new ArrayList<>();
        try (ExecutorService pool = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory())) {
            for (int rank = 0; rank < size; rank++) {
                LaunchRank me = new LaunchRank(rank, size, "test");
                BenchOptions options = new BenchOptions(Optional.of(256L << 10), List.of(1), 1,
                        BenchOptions.CacheMode.WARM, work, configs.get(rank));
                reports.add(pool.submit(() -> {
                    ApproachesSuite suite = new ApproachesSuite(Optional.of(me));
                    SuiteReport report = new SuiteReport(suite.name(), suite.summary());
                    suite.run(new BenchContext(options, report));
                    return report;
                }));
            }
        }
        return reports;
    }

    @Test
    void threeRanksReportReadAndWriteForEveryApproachAndLeaveNothingBehind() throws Exception {
        SuiteReport first = launch(3, List.of(CONFIGS, CONFIGS, CONFIGS)).getFirst().get();
        for (String name : CONFIGS) {
            for (String metric : List.of("read", "write")) {
                double value = first.results().stream()
                        .filter(r -> r.name().equals(name + "-r3") && r.metric().equals(metric))
                        .mapToDouble(Result::value).findFirst()
                        .orElseThrow(() -> new AssertionError("no " + name + "-r3 " + metric));
                assertTrue(value > 0, name + " " + metric);
            }
        }
        assertEquals(3, first.params().get("ranks"));
        assertTrue(first.tables().getFirst().title().contains("3 ranks"), first.tables().getFirst().title());
        var spread = first.tables().get(1);
        assertTrue(spread.title().startsWith("Each rank's own MB/s"), spread.title());
        assertEquals(Set.copyOf(CONFIGS), spread.rows().stream().map(List::getFirst).collect(Collectors.toSet()));
        assertTrue(spread.rows().getFirst().get(1).matches("\\d+ \\(rank [0-2], .+\\)"), spread.rows().getFirst().toString());
        try (var left = Files.list(work.resolve("approaches"))) {
            assertEquals(List.of(), left.toList(), "inputs, outputs and meeting files are removed");
        }
    }

    @Test
    void aRankThatFailsStopsTheOthersWithAnErrorNamingIt() throws Exception {
        List<Future<SuiteReport>> reports = launch(3, List.of(CONFIGS, CONFIGS, List.of("no-such-approach")));
        Throwable own = cause(reports.get(2));
        assertTrue(own.getMessage().contains("no-such-approach"), own.getMessage());
        for (int rank : List.of(0, 1)) {
            Throwable t = cause(reports.get(rank));
            assertEquals(2, assertInstanceOf(RankFailedException.class, t).rank());
            assertTrue(t.getMessage().contains("rank 2 failed") && t.getMessage().contains("no-such-approach"),
                    t.getMessage());
        }
    }

    private static Throwable cause(Future<SuiteReport> report) {
        return assertThrows(ExecutionException.class, report::get).getCause();
    }
}
