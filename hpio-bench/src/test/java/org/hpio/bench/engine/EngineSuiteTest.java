package org.hpio.bench.engine;

import org.hpio.bench.measure.JitQuiet;
import org.hpio.bench.report.Result;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suites;
import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;
import org.hpio.testing.DirectIo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The engine suite end to end at a tiny size: every configuration it plans yields checked figures. */
class EngineSuiteTest {
    private static final EngineSettings TINY = new EngineSettings(List.of(1, 4), List.of(1, 4), List.of(1, 4), 0.2, 0.05, 2);

    @TempDir
    Path work;

    private SuiteReport run(List<String> configs, BenchOptions.CacheMode cache) throws Exception {
        BenchOptions options = new BenchOptions(Optional.of(16L << 20), List.of(1), 1, cache, work, configs);
        EngineSuite suite = new EngineSuite(TINY);
        SuiteReport report = new SuiteReport(suite.name(), suite.summary());
        suite.run(new BenchContext(options, report));
        return report;
    }

    private static Optional<String> uringUnavailable() {
        try (IoEngine engine = IoEngines.openUring(EngineConfig.defaults().withMaxInFlight(4))) {
            return Optional.empty();
        } catch (Exception | LinkageError e) {
            return Optional.of(String.valueOf(e.getMessage()));
        }
    }

    @Test
    void everyPlannedConfigurationReportsCheckedFigures() throws Exception {
        boolean direct = DirectIo.supportedIn(work);
        if (!direct) {
            System.out.println("skipped: " + work + " does not take O_DIRECT (tmpfs?); set java.io.tmpdir to a disk");
        }
        assumeTrue(direct, "the temporary directory does not take O_DIRECT");
        Optional<String> noUring = uringUnavailable();
        boolean fio = Fio.find().isPresent();
        noUring.ifPresent(why -> System.out.println("io_uring rows may fail here: " + why));
        if (!fio) {
            System.out.println("fio rows left out: not installed");
        }
        SuiteReport report = run(List.of(), BenchOptions.CacheMode.BOTH);
        List<EngineSuiteConfig> planned = EnginePlan.plan(new BenchOptions(Optional.empty(), List.of(1), 1,
                BenchOptions.CacheMode.BOTH, work, List.of()), TINY, 16L << 20);
        Set<String> names = report.results().stream().map(Result::name).collect(Collectors.toSet());
        for (EngineSuiteConfig run : planned) {
            String name = run.configuration();
            boolean excused = (run.mechanism() == Mechanism.URING || run.mechanism() == Mechanism.FIO) && noUring.isPresent()
                    || run.mechanism() == Mechanism.FIO && !fio;
            if (excused && !names.contains(name)) {
                continue;
            }
            for (String metric : metrics(run)) {
                double v = value(report, name, metric);
                // getProcessCpuTime counts clock ticks (10 ms on Linux): a tiny row's timed part can end within one.
                boolean measured = metric.equals("cpu-per-io") ? v >= 0 : v > 0;
                assertTrue(measured && Double.isFinite(v), name + " " + metric + " = " + v);
            }
        }
        assertTrue(planned.stream().filter(run -> names.contains(run.configuration()))
                        .anyMatch(run -> value(report, run.configuration(), "cpu-per-io") > 0),
                "no row measured any CPU time");
        assertTrue(report.failures().stream().allMatch(f -> noUring.isPresent()
                && (f.startsWith("uring") || f.startsWith("fio-uring"))), report.failures().toString());
        assertEquals(!fio, report.notes().stream().anyMatch(n -> n.contains("apt-get install fio")));
        if (noUring.isEmpty()) {
            assertTrue(value(report, "uring-qd4-vs-filechannel-qd1", "iops") > 0);
            assertTrue(value(report, "uring-seq-read-qd1-vs-filechannel-seq-read-qd1", "read") > 0,
                    "the engine's 1 MiB reads (into IoMemory) beside FileChannel's");
            // Reported; 0 or not a number when a tiny row's CPU time fell within one clock tick (see above).
            double cpuRatio = value(report, "uring-qd4-vs-afc-default-qd4", "cpu-per-io");
            assertTrue(cpuRatio >= 0 || Double.isNaN(cpuRatio), "cpu-per-io ratio " + cpuRatio);
            double steadyRatio = value(report, "uring-qd4-vs-afc-default-qd4", "cpu-per-io without JIT");
            assertTrue(steadyRatio >= 0 || Double.isNaN(steadyRatio), "cpu-per-io without JIT ratio " + steadyRatio);
            if (JitQuiet.compilerCpuNanos() >= 0) {
                double jit = value(report, "uring-qd4", "jit-per-io");
                assertTrue(jit >= 0 && Double.isFinite(jit), "uring-qd4 jit-per-io = " + jit);
            }
            if (fio) {
                assertTrue(value(report, "uring-qd4-vs-fio-uring-qd4", "iops") > 0);
                assertTrue(value(report, "uring-seq-read-qd4-vs-fio-uring-seq-read-qd4", "read") > 0);
            }
        }
        assertEquals(Set.of("engine-iops", "engine-cpu", "engine-p99"),
                report.charts().stream().map(c -> c.fileStem()).collect(Collectors.toSet()));
        assertTrue(report.tables().size() >= 3, "random, sequential, warm (and targets when there are ratios)");
        assertTrue(String.valueOf(report.params().get("page-cache")).contains("O_DIRECT"));
        assertTrue(String.valueOf(report.params().get("buffers")).contains("IoMemory"), "each mechanism's buffers said");
        try (var files = Files.list(work.resolve("engine"))) {
            assertFalse(files.anyMatch(f -> f.getFileName().toString().endsWith(".bin")), "data files left behind");
        }
    }

    private static List<String> metrics(EngineSuiteConfig run) {
        List<String> common = List.of("iops", "cpu-per-io", "p50", "p99", "p999");
        return switch (run.workload().kind()) {
            case RANDOM_READ -> common;
            case SEQUENTIAL_READ -> concat(common, "read");
            case SEQUENTIAL_WRITE -> concat(common, "write");
        };
    }

    private static List<String> concat(List<String> list, String more) {
        return Stream.concat(list.stream(), Stream.of(more)).toList();
    }

    private static double value(SuiteReport report, String name, String metric) {
        return report.results().stream().filter(r -> r.name().equals(name) && r.metric().equals(metric))
                .mapToDouble(Result::value).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " " + metric + " in " + report.notes()));
    }

    @Test
    void configsSelectMechanismsWorkloadsAndWholeNames() {
        BenchOptions all = new BenchOptions(Optional.empty(), List.of(1), 1, BenchOptions.CacheMode.BOTH, work, List.of());
        List<EngineSuiteConfig> runs = EnginePlan.plan(all, TINY, 16L << 20);
        assertEquals(List.of("uring-qd1", "uring-qd4"), names(EnginePlan.select(runs, List.of("uring", "random"))));
        assertEquals(List.of("filechannel-qd1", "fio-uring-qd4"),
                names(EnginePlan.select(runs, List.of("filechannel-qd1", "fio-uring-qd4"))));
        assertEquals(List.of("filechannel-seq-write-qd1", "uring-seq-write-qd1", "threads-seq-write-qd1",
                "fio-uring-seq-write-qd1", "uring-seq-write-qd4", "threads-seq-write-qd4", "fio-uring-seq-write-qd4"),
                names(EnginePlan.select(runs, List.of("seq-write"))));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EnginePlan.select(runs, List.of("uringg")));
        assertTrue(e.getMessage().contains("afc-pool"), e.getMessage());
        BenchOptions warmOnly = new BenchOptions(Optional.empty(), List.of(1), 1, BenchOptions.CacheMode.WARM, work, List.of());
        assertTrue(EnginePlan.plan(warmOnly, TINY, 16L << 20).stream().allMatch(r -> !r.workload().direct()));
    }

    private static List<String> names(List<EngineSuiteConfig> runs) {
        return runs.stream().map(EngineSuiteConfig::configuration).toList();
    }

    @Test
    void ofInterleavedRoundsTheMedianRateIsReported() {
        List<Figures> rounds = new ArrayList<>();
        for (long ios : new long[]{300, 100, 200}) {
            rounds.add(new Figures("a", Mechanism.URING, null, 1, ios, 1.0, 1, 0, 1, 1, 1, 1, ios));
            rounds.add(new Figures("b", Mechanism.URING, null, 1, 10 * ios, 1.0, 1, 0, 1, 1, 1, 1, ios));
        }
        List<Figures> medians = EngineSuite.medians(rounds);
        assertEquals(List.of("a", "b"), medians.stream().map(Figures::configuration).toList());
        assertEquals(200, medians.get(0).ios());
        assertEquals(2000, medians.get(1).ios());
    }

    @Test
    void theSuiteIsRegistered() {
        assertTrue(Suites.byName("engine").orElseThrow() instanceof EngineSuite);
    }
}
