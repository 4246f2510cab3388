package org.hpio.bench.sort;

import org.hpio.bench.report.Result;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** hpio bench sort end to end at tiny sizes: every figure, table, chart and target row it promises is there. */
class SortSuiteTest {
    @TempDir
    Path work;

    private SuiteReport run(List<String> configs, Map<String, String> given) throws Exception {
        BenchOptions options = new BenchOptions(Optional.empty(), List.of(1), 1, BenchOptions.CacheMode.BOTH, work,
                configs, given);
        SuiteReport report = new SuiteReport("sort", "test");
        new SortSuite().run(new BenchContext(options, report));
        return report;
    }

    private static boolean has(SuiteReport report, String name, String metric) {
        return report.results().stream().map(Result::name).anyMatch(name::equals)
                && report.results().stream().anyMatch(r -> r.name().equals(name) && r.metric().equals(metric));
    }

    @Test
    void everyConfigurationIsMeasuredCheckedAndReported() throws Exception {
        System.setProperty(SortSettings.UNBUFFERED_PROPERTY, "64k");
        try {
            SuiteReport report = run(List.of(), Map.of("sizes", "64k,256k", "chunks", "8k,32k", "full", "true",
                    "memory", "96k"));
            assertTrue(report.failures().isEmpty(), report.failures().toString());
            for (String config : List.of("dsb", "bulkraf", "bulkds", "async", "nio", "mmap", "async-direct", "bulk-direct")) {
                for (String key : List.of("-8k-64k", "-32k-64k", "-8k-256k", "-32k-256k")) {
                    assertTrue(has(report, config + key, "total"), config + key);
                    assertTrue(has(report, config + key, "throughput"), config + key);
                }
            }
            assertTrue(has(report, "raf-8k-64k", "read"));
            assertFalse(has(report, "raf-8k-256k", "read"), "raf runs only up to the cap");
            Table breakdown = report.tables().getFirst();
            assertTrue(breakdown.title().startsWith("Table 2"), breakdown.title());
            assertTrue(breakdown.rows().stream().anyMatch(r -> r.get(1).startsWith("not run: one system call per long")));
            assertEquals(2, report.charts().size());
            assertTrue(has(report, "full-256k", "vs-lower-bound"));
            Table targets = report.tables().getLast();
            assertEquals("Targets, same run", targets.title());
            assertTrue(targets.rows().stream().allMatch(r -> r.get(3).equals("yes") || r.get(3).equals("no")));
            assertTrue(targets.rows().stream().anyMatch(r -> r.getFirst().startsWith("whole sort / lower bound")));
            try (var files = Files.list(work.resolve("sort"))) {
                assertFalse(files.anyMatch(f -> f.getFileName().toString().endsWith(".bin")), "data files left behind");
            }
        } finally {
            System.clearProperty(SortSettings.UNBUFFERED_PROPERTY);
        }
    }

    @Test
    void anUnknownConfigurationIsAnErrorNamingTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> run(List.of("bulkrafx"), Map.of("sizes", "64k")));
        assertTrue(e.getMessage().contains("bulkrafx") && e.getMessage().contains("bulkraf,"), e.getMessage());
    }

    @Test
    void oDirectRowsSayWhyTheyDoNotRunOnUnalignedSizes() throws Exception {
        SuiteReport report = run(List.of("async-direct", "bulkraf"), Map.of("sizes", "12k", "chunks", "1000"));
        assertTrue(report.failures().isEmpty(), report.failures().toString());
        assertTrue(report.tables().getFirst().rows().stream()
                .anyMatch(r -> r.get(0).equals("async-direct") && r.get(1).contains("O_DIRECT needs sizes")));
        assertTrue(has(report, "bulkraf-1000b-12k", "total"));
    }
}
