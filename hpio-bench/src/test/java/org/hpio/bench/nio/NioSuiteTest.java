package org.hpio.bench.nio;

import com.sun.nio.file.ExtendedOpenOption;
import org.hpio.bench.measure.BlockQueue;
import org.hpio.bench.report.Result;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The nio suite end to end at a tiny size: every row, each in a JVM of its own, reports checked figures. */
class NioSuiteTest {
    private static final NioSettings TINY = new NioSettings(16L << 20, 0.2, 0.05, 1, 1, List.of(1, 4), List.of(50), 8,
            1 << 20, "64m");

    @TempDir
    Path work;

    @Test
    void everyRowReportsCheckedFiguresAndTheTargetsTableSaysMetOrNot() throws Exception {
        boolean direct = takesDirect(work);
        if (!direct) {
            System.out.println("skipped: " + work + " does not take O_DIRECT (tmpfs?); set java.io.tmpdir to a disk");
        }
        assumeTrue(direct, "the temporary directory does not take O_DIRECT");
        BenchOptions options = new BenchOptions(Optional.empty(), List.of(1), 1, BenchOptions.CacheMode.BOTH, work,
                List.of());
        NioSuite suite = new NioSuite(TINY);
        SuiteReport report = new SuiteReport(suite.name(), suite.summary());
        suite.run(new BenchContext(options, report));
        assertEquals(List.of(), report.failures());
        boolean sqPoll = NioSuite.sqPollRefusal().isEmpty();   // else those rows are left out, with a note
        for (NioConfig config : Stream.concat(NioSuite.readConfigs(TINY).stream(), NioSuite.floodConfigs().stream())
                .filter(c -> sqPoll || !c.sqPoll()).toList()) {
            String metric = config.kind().equals(NioConfig.FLOOD) ? "checked"
                    : config.firstCall() ? "first-call-ms" : "iops";
            double v = value(report, config.configuration(), metric);
            assertTrue(v > 0, config.configuration() + " " + metric + " = " + v);
            if (config.firstCall()) {   // the JVM's first path, where the default provider is made
                double path = value(report, config.configuration(), "first-path-ms");
                assertTrue(path > 0, config.configuration() + " first-path-ms = " + path);
            }
        }
        assertTrue(value(report, "jdk-vt50", "peak-os-threads") > 0);
        for (String row : List.of("jdk-vt50", "hpio-vt50")) {   // how the reads were shared among the threads
            double p10 = value(report, row, "reader-reads-p10");
            double p50 = value(report, row, "reader-reads-p50");
            double p90 = value(report, row, "reader-reads-p90");
            assertTrue(0 <= p10 && p10 <= p50 && p50 <= p90 && p90 > 0, row + ": " + p10 + " / " + p50 + " / " + p90);
        }
        if (BlockQueue.of(work).isPresent()) {   // the virtual-thread rows give the block layer's account of the device
            for (String row : List.of("jdk-vt50", "hpio-vt50")) {
                assertTrue(value(report, row, "block-read-us") > 0, row + ": time per read in the block layer");
                assertTrue(value(report, row, "block-queue") > 0, row + ": requests held in the block layer");
            }
        }
        assertEquals(8, value(report, "hpio-flood", "acknowledged"), "every hpio write acknowledged and checked");
        Table targets = report.tables().stream().filter(t -> t.title().startsWith("Targets")).findFirst().orElseThrow();
        int met = targets.columns().indexOf("met");
        assertTrue(targets.rows().stream().anyMatch(r -> r.get(0).equals("hpio-vt50 / jdk-vt50")
                && r.get(1).equals("peak-os-threads") && !r.get(met).isEmpty()), "the thread target is judged");
        assertTrue(targets.rows().stream().anyMatch(r -> r.get(0).equals("hpio-flood") && !r.get(met).isEmpty()));
        assertTrue(targets.rows().stream().anyMatch(r -> r.get(0).equals("hpio-vt50 / uring-qd256")
                && r.get(1).equals("iops")), "the virtual-thread rows are compared with the engine at the same depth");
        assertTrue(!sqPoll || targets.rows().stream().anyMatch(r -> r.get(0).equals("hpio-sqpoll-vt50 / jdk-vt50")
                && r.get(1).equals("iops")), "the SQPOLL row is compared with the JDK's");
        assertTrue(targets.rows().stream().anyMatch(r -> r.get(0).equals("hpio-1ring-vt50 / jdk-vt50")
                && r.get(1).equals("iops")), "the deeper bound's row is compared with the JDK's");
        assertTrue(targets.rows().stream().anyMatch(r -> r.get(0).equals("hpio-readall-1k / jdk-readall-1k")),
                "the small files' rows are compared");
        assertTrue(targets.rows().stream().anyMatch(r -> r.get(0).equals("hpio-readall-1k-vt / jdk-readall-1k-vt")),
                "and so are the virtual thread's");
        assertTrue(targets.rows().stream().anyMatch(
                r -> r.get(0).equals("hpio-readall-1k-vt-each / jdk-readall-1k-vt-each")),
                "and a virtual thread's each");
        Table small = report.tables().stream().filter(t -> t.title().startsWith("(d)")).findFirst().orElseThrow();
        int thread = small.columns().indexOf("thread");
        int channel = small.columns().indexOf("channel");
        Map<String, String> served = small.rows().stream().collect(Collectors.toMap(r -> r.get(0),
                r -> r.get(thread) + " " + r.get(channel)));
        assertEquals(Map.of("jdk-readall-1k", "platform the JDK's", "hpio-readall-1k", "platform the JDK's",
                "jdk-readall-1k-vt", "virtual the JDK's", "hpio-readall-1k-vt", "virtual hpio's",
                "jdk-readall-1k-vt-each", "virtual-per-call the JDK's", "hpio-readall-1k-vt-each",
                "virtual-per-call hpio's"), served,
                "hpio's provider leaves a platform thread's plain read to the JDK's channel, not a virtual thread's");
        int firstCall = small.columns().indexOf("first call ms");
        assertTrue(small.rows().stream().allMatch(r -> Double.parseDouble(r.get(firstCall)) > 0),
                "every small-file row times its JVM's first call");
        Table first = report.tables().stream().filter(t -> t.title().startsWith("(f)")).findFirst().orElseThrow();
        int firstChannel = first.columns().indexOf("channel");
        Map<String, String> firstRows = new TreeMap<>();
        for (String kind : List.of("read", "write", "read-vt", "write-vt", "async-read", "async-write")) {
            for (String pause : List.of("", "-after-250ms")) {
                firstRows.put("jdk-first-" + kind + pause, "the JDK's");
                firstRows.put("hpio-first-" + kind + pause, "hpio's");
            }
        }
        assertEquals(firstRows, new TreeMap<>(first.rows().stream().collect(Collectors.toMap(r -> r.get(0),
                r -> r.get(firstChannel)))), "every first-call row, each on its provider's channel");
        assertTrue(targets.rows().stream().anyMatch(r -> r.get(0).equals("hpio-first-write / jdk-first-write")),
                "the first calls are compared");
        assertTrue(targets.rows().stream().anyMatch(r -> r.get(0).equals(
                "hpio-first-async-read-after-250ms / jdk-first-async-read-after-250ms")), "the asynchronous ones too");
        assertTrue(targets.rows().stream().anyMatch(r -> r.get(0).equals("hpio-heap64k-vt2000 / jdk-heap64k-vt2000")),
                "the heap buffers' rows are compared");
        assertTrue(sqPoll || report.notes().stream().anyMatch(n -> n.contains("left out")), "the SQPOLL rows' absence is said");
        try (Stream<Path> left = Files.list(work.resolve("nio"))) {
            assertEquals(List.of(), left.toList(), "the suite deletes its files");
        }
    }

    @Test
    void configsChooseRowsByNameKindOrProvider() {
        NioSettings s = new NioSettings(16L << 20, 1, 0, 1, 1, List.of(1, 4, 32), List.of(1000, 10_000), 8, 1 << 20, "64m");
        List<NioConfig> all = NioSuite.readConfigs(s);
        assertEquals(List.of("jdk-afc-qd32", "hpio-afc-qd32"), names(NioSuite.select(all, List.of("jdk-afc-qd32", "hpio-afc-qd32"))));
        assertEquals(List.of("jdk-afc-qd1", "hpio-afc-qd1", "jdk-afc-qd4", "hpio-afc-qd4", "jdk-afc-qd32", "hpio-afc-qd32",
                "uring-qd32"), names(NioSuite.select(all, List.of("afc"))));
        assertEquals(List.of("hpio-vt1000", "hpio-sqpoll-vt1000", "hpio-1ring-vt1000", "hpio-vt10000",
                "hpio-sqpoll-vt10000", "hpio-1ring-vt10000"), names(NioSuite.select(all, List.of("vthreads", "hpio"))
                .stream().filter(r -> r.hpio() && r.kind().equals(NioConfig.VTHREADS)).toList()));
        assertEquals(List.of("hpio-sqpoll-vt1000", "hpio-sqpoll-vt10000"), names(NioSuite.select(all, List.of("hpio-sqpoll"))));
        assertEquals(List.of("hpio-1ring-vt1000", "hpio-1ring-vt10000"),
                names(NioSuite.select(all, List.of("hpio-1ring"))));
        assertEquals(List.of("jdk-vt1000", "hpio-vt1000", "hpio-sqpoll-vt1000", "hpio-1ring-vt1000", "jdk-vt10000",
                "hpio-vt10000", "hpio-sqpoll-vt10000", "hpio-1ring-vt10000", "uring-qd256"),
                names(NioSuite.select(all, List.of("vthreads"))));
        assertEquals(List.of("jdk-vt1000", "uring-qd256"), names(NioSuite.select(all, List.of("jdk-vt1000", "uring-qd256"))));
        assertEquals(List.of(), names(NioSuite.select(all, List.of("flood"))));
        assertEquals(List.of("jdk-readall-1k", "hpio-readall-1k", "jdk-readall-1k-vt", "hpio-readall-1k-vt",
                "jdk-readall-1k-vt-each", "hpio-readall-1k-vt-each"), names(NioSuite.select(all, List.of("small"))));
        assertEquals(List.of("jdk-readall-1k-vt", "hpio-readall-1k-vt"), names(NioSuite.select(all, List.of("small-vt"))));
        assertEquals(List.of("jdk-readall-1k-vt-each", "hpio-readall-1k-vt-each"),
                names(NioSuite.select(all, List.of("small-vt-each"))));
        assertEquals(List.of("jdk-heap64k-vt2000", "hpio-heap64k-vt2000"), names(NioSuite.select(all, List.of("heap"))));
        assertEquals(List.of("jdk-first-read", "hpio-first-read", "jdk-first-read-after-250ms",
                "hpio-first-read-after-250ms", "jdk-first-write", "hpio-first-write", "jdk-first-write-after-250ms",
                "hpio-first-write-after-250ms", "jdk-first-read-vt", "hpio-first-read-vt",
                "jdk-first-read-vt-after-250ms", "hpio-first-read-vt-after-250ms", "jdk-first-write-vt",
                "hpio-first-write-vt", "jdk-first-write-vt-after-250ms", "hpio-first-write-vt-after-250ms",
                "jdk-first-async-read", "hpio-first-async-read",
                "jdk-first-async-read-after-250ms", "hpio-first-async-read-after-250ms", "jdk-first-async-write",
                "hpio-first-async-write", "jdk-first-async-write-after-250ms", "hpio-first-async-write-after-250ms"),
                names(NioSuite.select(all, List.of("first"))));
        assertEquals(List.of("jdk-first-async-read", "hpio-first-async-read", "jdk-first-async-read-after-250ms",
                "hpio-first-async-read-after-250ms"), names(NioSuite.select(all, List.of("first-async-read"))));
        assertEquals(List.of("jdk-first-write", "hpio-first-write", "jdk-first-write-after-250ms",
                "hpio-first-write-after-250ms"), names(NioSuite.select(all, List.of("first-write"))));
        assertEquals(List.of("jdk-first-read-vt", "hpio-first-read-vt", "jdk-first-read-vt-after-250ms",
                "hpio-first-read-vt-after-250ms"), names(NioSuite.select(all, List.of("first-read-vt"))));
        assertEquals(List.of("jdk-flood", "hpio-flood"), names(NioSuite.select(NioSuite.floodConfigs(), List.of("flood"))));
        assertThrows(IllegalArgumentException.class, () -> NioSuite.select(all, List.of("afc-qd32")));
        assertTrue(Suites.byName("nio").isPresent(), "registered with the other suites");
    }

    @Test
    void hpioRowsGetTheHpioSettingsThisJvmWasGivenAndTheirOwnWin() {
        List<String> given = List.of("hpio.engine", "hpio.engine.maxInFlight", "hpio.uring.kernelWorkers",
                "hpio.memory.hugePages", "hpio.bench.nio.seconds");
        assumeTrue(given.stream().noneMatch(name -> System.getProperty(name) != null), "set for the whole test JVM");
        List<String> before = ChildJvm.hpioSettings();   // whatever else the test JVM was given (mvn -Dhpio.x)
        try {
            System.setProperty("hpio.engine.maxInFlight", "128");
            System.setProperty("hpio.uring.kernelWorkers", "4");
            System.setProperty("hpio.engine", "uring");
            System.setProperty("hpio.memory.hugePages", "false");
            System.setProperty("hpio.bench.nio.seconds", "1");   // the suite's own: not hpio's
            List<String> settings = ChildJvm.hpioSettings();
            assertEquals(List.of("-Dhpio.engine=uring", "-Dhpio.engine.maxInFlight=128",
                    "-Dhpio.memory.hugePages=false", "-Dhpio.uring.kernelWorkers=4"),
                    settings.stream().filter(option -> !before.contains(option)).toList());
            assertEquals(before.size() + 4, settings.size(), "nothing else, and not the bench's own: " + settings);
            List<String> options = ChildJvm.jvmOptions(true, List.of("-Dhpio.engine.rings=1"));
            assertEquals(ChildJvm.HPIO_PROVIDER, options.getFirst());
            assertEquals(settings, options.subList(1, options.size() - 1));
            assertEquals("-Dhpio.engine.rings=1", options.getLast(), "the row's own come last, so they win");
            assertEquals(List.of("-Xmx64m"), ChildJvm.jvmOptions(false, List.of("-Xmx64m")), "the JDK's rows: none");
        } finally {
            given.forEach(System::clearProperty);
        }
        assertEquals(before, ChildJvm.hpioSettings());
    }

    /** Whether {@code dir}'s file system takes O_DIRECT (tmpfs does not). */
    private static boolean takesDirect(Path dir) {
        Path probe = dir.resolve("direct-probe");
        try {
            Files.write(probe, new byte[4096]);
            try (FileChannel ignored = FileChannel.open(probe,
                    StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
                return true;
            } finally {
                Files.delete(probe);
            }
        } catch (Exception e) {
            return false;
        }
    }

    private static List<String> names(List<NioConfig> runs) {
        return runs.stream().map(NioConfig::configuration).toList();
    }

    private static double value(SuiteReport report, String name, String metric) {
        return report.results().stream().filter(r -> r.name().equals(name) && r.metric().equals(metric))
                .mapToDouble(Result::value).findFirst().orElse(Double.NaN);
    }
}
