package org.hpio.bench.archive;

import org.hpio.bench.machine.PageCache;
import org.hpio.bench.measure.JitQuiet;
import org.hpio.bench.report.Result;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suites;
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

/** The archive suite end to end on a small trace: every figure it promises is there, and wrong bytes fail. */
class ArchiveSuiteTest {
    /** The small trace's bytes: all of it, and the game workload's first loads. */
    private static final long TRACE_BYTES = 308_000;

    @TempDir
    Path work;

    private Path smallTrace() throws Exception {
        Path root = work.resolve("root");
        Files.createDirectories(root.resolve("lib"));
        Files.writeString(root.resolve("lib/a.py"), "import os\n".repeat(5000));
        Files.writeString(root.resolve("lib/b.py"), "def f(x):\n    return x\n".repeat(3000));
        Path trace = work.resolve("t.trace");
        Files.writeString(trace, """
                000.100000: L "lib/a.py" 50000
                000.200000: L "lib/b.py" 69000
                000.300000: L "lib/c.bin" 70000
                000.050000: L "lib/b.py" 69000
                000.060000: L "lib/a.py" 50000
                """);
        return trace;
    }

    @Test
    void aQuickRunLeavesOutTheSweepPointsButNotTheDefaultOrTheTargetsRows() {
        for (String point : List.of("archive-deflate-bs4k-qd4", "archive-deflate-bs128k-qd4", "archive-deflate-bs32k-qd1",
                "archive-deflate-bs32k-qd16", "archive-deflate-bs32k-qd32")) {
            assertTrue(ArchivePlan.isSweepPoint(point), point);
        }
        for (String kept : List.of("archive-deflate-bs32k-qd4", "archive-stored-bs32k-qd4-direct",
                "archive-deflate-bs32k-qd4-cached", "archive-deflate-lookahead", "loose-hpio", "zipfile-deflate")) {
            assertFalse(ArchivePlan.isSweepPoint(kept), kept);
        }
    }

    @Test
    void reportsEveryConfigurationColdAndWarmTheTargetsAndTheOpeningTime() throws Exception {
        Path trace = smallTrace();
        BenchOptions options = new BenchOptions(Optional.of(TRACE_BYTES), List.of(1), 1, BenchOptions.CacheMode.BOTH,
                work.resolve("w"), List.of(), Optional.of(trace), Optional.of(work.resolve("root")),
                Map.of("cold", "files", // "machine" would drop the whole machine's cache per replay
                        "jit-wait", "false")); // tiny replays: waiting for the JIT would take most of the test
        ArchiveSuite suite = new ArchiveSuite();
        SuiteReport report = new SuiteReport(suite.name(), suite.summary());
        suite.run(new BenchContext(options, report));
        assertEquals(List.of(), report.failures());
        for (String config : ArchivePlan.recordedTraceConfigs(TraceData.none()).stream().map(ArchiveConfig::name).toList()) {
            for (String state : List.of("-cold", "-warm")) {
                Result r = find(report, config + state, "effective-read");
                assertTrue(r.value() > 0, r.toString());
                assertEquals(5, find(report, config + state, "loads").value());
                assertTrue(find(report, config + state, "time-per-load").value() > 0);
                if (JitQuiet.compilerCpuNanos() >= 0) { // each replay says how much the JIT ran meanwhile
                    assertTrue(find(report, config + state, "jit-cpu").value() >= 0);
                }
            }
        }
        assertTrue(report.tables().stream().filter(t -> t.title().startsWith("Trace replay"))
                .allMatch(t -> t.columns().contains("JIT ms")), "the replay tables show the JIT's CPU time");
        double gameLoads = find(report, "game-loose-readallbytes-warm", "loads").value();
        assertTrue(gameLoads > 50, "the game workload's loads that fit " + TRACE_BYTES + " bytes: " + gameLoads);
        for (String config : ArchivePlan.coreConfigs(TraceData.none()).stream().map(ArchiveConfig::name).toList()) {
            for (String state : List.of("-cold", "-warm")) {
                assertTrue(find(report, "game-" + config + state, "effective-read").value() > 0);
                assertEquals(gameLoads, find(report, "game-" + config + state, "loads").value());
            }
        }
        assertTrue(report.results().stream().noneMatch(r -> r.name().startsWith("game-archive-deflate-bs64k")),
                "the game workload has no sweeps");
        if (StraceCounter.unavailable().isEmpty()) { // open, read and close at least
            assertTrue(find(report, "game-loose-readallbytes-warm", "syscalls-per-load").value() >= 3);
            assertTrue(find(report, "loose-readallbytes-cold", "syscalls-per-load").value() >= 3);
        }
        assertEquals(find(report, "zipfile-stored-warm", "seeks").value(),
                find(report, "archive-stored-bs32k-qd4-warm", "seeks").value(),
                "the loader's seeks on stored entries are 002 §4.3's model's on the same layout");
        find(report, "archive-deflate-bs32k-qd4-vs-loose-readallbytes-cold", "effective-read-ratio");
        for (String workload : List.of("", "game-")) {
            for (String state : List.of("-cold", "-warm")) {
                find(report, workload + "archive-deflate-bs32k-qd4-vs-zipfile-deflate" + state, "effective-read-ratio");
                find(report, workload + "archive-stored-bs32k-qd4-vs-zipfile-stored" + state, "effective-read-ratio");
                find(report, workload + "loose-hpio-vs-loose-readallbytes" + state, "effective-read-ratio");
                find(report, workload + "archive-stored-lookahead-vs-zipfile-stored" + state, "effective-read-ratio");
            }
        }
        assertTrue(find(report, "archive-open-50000", "open-time").value() > 0);
        assertTrue(report.params().get("cpu").toString().length() > 0);
        assertTrue(report.params().get("stand-ins").toString().startsWith("1 of 3"),
                "lib/c.bin is not under the root: one stand-in");
        assertTrue(report.tables().stream().anyMatch(t -> t.title().startsWith("Targets") && t.title().contains("CPU")));
        assertEquals(List.of("archive-block-size", "archive-queue-depth", "archive-approaches", "archive-game-approaches"),
                report.charts().stream().map(c -> c.fileStem()).toList());
        assertTrue(Suites.byName("archive").isPresent());
        assertFalse(Files.exists(work.resolve("w/archive/python")), "the suite deletes its data");
        assertFalse(Files.exists(work.resolve("w/archive/game")), "the suite deletes its data");
    }

    @Test
    void aWayThatLoadsWrongBytesFailsItsReplay() throws Exception {
        Path trace = smallTrace();
        TraceData data = TraceData.prepare(work.resolve("d"), trace, work.resolve("root"), Long.MAX_VALUE);
        Files.writeString(data.tree().resolve("lib/a.py"), "changed\n".repeat(6250)); // same size, other bytes
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Replays.replay(Workload.game(), ArchiveConfig.readAllBytes(data), data, null));
        assertTrue(e.getMessage().contains("lib/a.py"), e.getMessage());
        data.delete();
    }

    @Test
    void aColdStartIsMachineOrFilesAndAnythingElseIsRefusedByName() {
        assertEquals(ColdStart.FILES, ColdStart.choose(Optional.of("files")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ColdStart.choose(Optional.of("reboot")));
        assertTrue(e.getMessage().contains("'reboot'"), e.getMessage());
        ColdStart byDefault = ColdStart.choose(Optional.empty());
        assertEquals(PageCache.canDropEverything() ? ColdStart.MACHINE
                : ColdStart.FILES, byDefault);
    }


    private static Result find(SuiteReport report, String name, String metric) {
        return report.results().stream().filter(r -> r.name().equals(name) && r.metric().equals(metric)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " " + metric));
    }
}
