package org.hpio.bench.engine;

import org.hpio.bench.measure.Rounds;
import org.hpio.bench.report.JsonTree;
import org.hpio.bench.report.Progress;
import org.hpio.bench.report.SuiteReport;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The small parts of the engine suite: the latency histogram, fio's JSON, the offsets, the accounting. */
class EnginePartsTest {
    @Test
    void histogramQuantilesAreWithinTwoPercent() {
        LatencyHistogram h = new LatencyHistogram();
        for (long v = 1; v <= 100_000; v++) {
            h.record(v * 1000);
        }
        assertEquals(50e6, h.quantile(0.5), 50e6 * 0.02);
        assertEquals(99e6, h.quantile(0.99), 99e6 * 0.02);
        assertEquals(99.9e6, h.quantile(0.999), 99.9e6 * 0.02);
        for (long v : new long[]{0, 1, 127, 128, 129, 1000, 123_456_789, Long.MAX_VALUE}) {
            int i = LatencyHistogram.index(v);
            assertTrue(LatencyHistogram.lowest(i) <= v && v < LatencyHistogram.lowest(i + 1) * (1 + 1e-12), "" + v);
        }
        assertTrue(Double.isNaN(new LatencyHistogram().quantile(0.5)));
    }

    private static final String FIO_JSON = """
            {"fio version": "fio-3.33", "jobs": [{"jobname": "uring-qd32", "error": 0, "job_runtime": 3000,
              "usr_cpu": 10.0, "sys_cpu": 30.0, "ctx": 1500,
              "read": {"io_bytes": 4096000, "total_ios": 1000, "runtime": 3000, "iops": 333.3,
                       "lat_ns": {"min": 1, "percentile": {"50.000000": 51968, "99.000000": 749568, "99.900000": 4046848}}},
              "write": {"io_bytes": 0, "total_ios": 0, "runtime": 0}}]}
            """;

    @Test
    void theCpuTargetsLeaveTheJitsPartOut() {
        Figures f = new Figures("uring-qd32", Mechanism.URING, null, 32, 1000, 1.0, 10.0, 4.0, 1, 1, 1, 1, 4096000);
        assertEquals(6.0, f.cpuWithoutJitMicrosPerIo(), 1e-9);
        Figures unknown = new Figures("uring-qd32", Mechanism.URING, null, 32, 1000, 1.0, 10.0, Double.NaN, 1, 1, 1, 1,
                4096000);
        assertEquals(10.0, unknown.cpuWithoutJitMicrosPerIo(), 1e-9, "the whole where /proc cannot tell");
        Usage used = new Usage(5_000_000, 2_000_000, 10).minus(new Usage(1_000_000, 500_000, 4));
        assertEquals(new Usage(4_000_000, 1_500_000, 6), used);
        assertEquals(-1, new Usage(5, -1, 1).minus(new Usage(1, 0, 0)).jitNanos());
    }

    @Test
    void fioFiguresComeFromItsJson() throws IOException {
        Workload w = Workload.random(1 << 20);
        Figures f = Fio.figures("fio-uring-qd32", w, 32, JsonTree.parse(FIO_JSON));
        assertEquals(1000, f.ios());
        assertEquals(1000 / 3.0, f.iops(), 1e-9);
        assertEquals(3000 * 1e3 * 0.4 / 1000, f.cpuMicrosPerIo(), 1e-9);
        assertEquals(0, f.jitMicrosPerIo(), "fio has no JIT");
        assertEquals(f.cpuMicrosPerIo(), f.cpuWithoutJitMicrosPerIo(), 1e-9);
        assertEquals(1.5, f.switchesPerIo(), 1e-9);
        assertEquals(51.968, f.p50(), 1e-9);
        assertEquals(4046.848, f.p999(), 1e-9);
        IOException e = assertThrows(IOException.class,
                () -> Fio.figures("fio-uring-seq-write-qd1", Workload.sequentialWrite(1 << 20), 1, JsonTree.parse(FIO_JSON)));
        assertTrue(e.getMessage().contains("0 I/Os"), e.getMessage());
        assertThrows(IOException.class, () -> Fio.figures("x", w, 32, JsonTree.parse(FIO_JSON.replace("\"error\": 0", "\"error\": 5"))));
    }

    @Test
    void fioCommandAsksForWhatTheSuiteReads() {
        Fio.find().ifPresent(fio -> {
            List<String> c = fio.command("fio-uring-qd32", Path.of("/x"), Workload.random(1 << 30), 32, 3, 0.5);
            assertTrue(c.containsAll(List.of("--rw=randread", "--bs=4096", "--direct=1", "--ioengine=io_uring",
                    "--iodepth=32", "--runtime=3000ms", "--ramp_time=500ms", "--readonly", "--output-format=json")), c.toString());
        });
    }

    @Test
    void offsetsAreAlignedAndSequentialOnesWrap() {
        Workload.Offsets random = Workload.random(64 << 20).offsets(42);
        for (int i = 0; i < 10_000; i++) {
            long o = random.next();
            assertTrue(o >= 0 && o < 64 << 20 && o % 4096 == 0, "" + o);
        }
        Workload.Offsets seq = Workload.sequentialRead(2 << 20).offsets(0);
        assertEquals(List.of(0L, 1L << 20), List.of(seq.next(), seq.next()));
        assertEquals(2 << 20, seq.extent());
        assertEquals(0, seq.next());
        assertEquals("uring-seq-read-qd8", Workload.sequentialRead(1 << 20).configuration("uring", 8));
        assertEquals("afc-pool-qd32", Workload.random(1 << 20).configuration("afc-pool", 32));
        assertEquals("threads-warm-qd1", Workload.warm(1 << 20).configuration("threads", 1));
    }

    @Test
    void everyOtherRoundRunsInReverse() throws InterruptedException {
        List<EngineSuiteConfig> runs = List.of(new EngineSuiteConfig(Workload.random(1 << 30), Mechanism.URING, 32),
                new EngineSuiteConfig(Workload.random(1 << 30), Mechanism.FIO, 32),
                new EngineSuiteConfig(Workload.random(1 << 30), Mechanism.THREADS, 32));
        List<EngineSuiteConfig> ran = new ArrayList<>();
        Rounds.of(3, EngineSuiteConfig::configuration).alternating().run(runs, (run, warmUp) -> ran.add(run),
                new SuiteReport("engine", ""), Progress.silent());
        assertEquals(runs, ran.subList(0, 3));
        assertEquals(List.of(runs.get(2), runs.get(1), runs.get(0)), ran.subList(3, 6));
        assertEquals(runs, ran.subList(6, 9));
    }

    @Test
    void usageCountsThisProcess() {
        Usage before = Usage.now();
        long x = 0;
        for (int i = 0; i < 50_000_000; i++) {
            x += i * 31L;
        }
        Usage used = Usage.now().minus(before);
        assertTrue(x != 1 && used.cpuNanos() >= 0 && used.contextSwitches() >= 0, used.toString());
    }
}
