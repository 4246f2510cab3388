package org.hpio.bench.bulk;

import org.hpio.bench.report.Result;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bulk and approaches suites end to end at tiny sizes: every figure they promise is there. */
class BulkSuitesTest {
    @TempDir
    Path work;

    private SuiteReport run(Suite suite, long size, List<Integer> threads, List<String> configs) throws Exception {
        BenchOptions options = new BenchOptions(Optional.of(size), threads, 1, BenchOptions.CacheMode.BOTH, work, configs);
        SuiteReport report = new SuiteReport(suite.name(), suite.summary());
        suite.run(new BenchContext(options, report));
        return report;
    }

    private static double value(SuiteReport report, String name, String metric) {
        return report.results().stream().filter(r -> r.name().equals(name) && r.metric().equals(metric))
                .mapToDouble(Result::value).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " " + metric + " in " + report.results()));
    }

    @Test
    void bulkReportsReadColdReadAndWriteForEveryConfigurationAndTheRatios() throws Exception {
        List<String> configs = List.of("raf", "dsb", "bulkraf", "bulk-native", "mmap", "c", "c-native");
        SuiteReport report = run(new BulkSuite(), 1 << 20, List.of(1), configs);
        for (String name : configs) {
            for (String metric : List.of("read", "read-cold", "write")) {
                assertTrue(value(report, name, metric) > 0, name + " " + metric);
            }
        }
        assertTrue(value(report, "bulkraf-vs-dsb", "read") > 0);
        assertTrue(value(report, "bulkraf-vs-c", "write") > 0);
        assertEquals(2, report.charts().size());
        assertTrue(String.valueOf(report.params().get("page-cache")).contains("cold"));
        try (var files = Files.list(work.resolve("bulk"))) {
            assertFalse(files.anyMatch(f -> f.getFileName().toString().endsWith(".bin")), "data files left behind");
        }
    }

    @Test
    void approachesReportsThreadsAndProcessesForEachWorkerCount() throws Exception {
        SuiteReport report = run(new ApproachesSuite(), 256 << 10, List.of(1, 2), List.of("bulkraf", "c"));
        for (String name : List.of("bulkraf", "c")) {
            for (String suffix : List.of("-t1", "-t2", "-p1", "-p2")) {
                assertTrue(value(report, name + suffix, "read") > 0, name + suffix);
                assertTrue(value(report, name + suffix, "write") > 0, name + suffix);
            }
        }
        assertEquals(4, report.charts().size());
    }

    @Test
    void aQuickRunStartsProcessesOnlyAtTheLargestWorkerCount() {
        assertEquals(List.of(4), ApproachesSuite.counts(BulkConfig.Workers.PROCESSES, List.of(1, 2, 4), true));
        assertEquals(List.of(1, 2, 4), ApproachesSuite.counts(BulkConfig.Workers.THREADS, List.of(1, 2, 4), true));
        assertEquals(List.of(1, 2, 4), ApproachesSuite.counts(BulkConfig.Workers.PROCESSES, List.of(1, 2, 4), false));
    }

    @Test
    void anUnknownConfigurationIsAnErrorNamingTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> run(new BulkSuite(), 1 << 20, List.of(1), List.of("bulkraff")));
        assertTrue(e.getMessage().contains("bulkraf"), e.getMessage());
    }
}
