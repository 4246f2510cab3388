package org.hpio.async;

import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;
import org.hpio.reliability.FaultTable;
import org.hpio.reliability.LazyFsMount;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Power loss, simulated by the lazyfs FUSE file system (unsynced writes and names live in its memory; "crash"
 * drops them): a child JVM writing through AsyncFile (both engines) and BulkRandomAccessFile is killed, then the
 * machine "loses power". Everything acknowledged durable is on the disk bit-exact; the rest is missing or
 * detected by its checksum, never returned as valid. And the proof that the test can fail: with force made a
 * no-op (lazyfs ignoring fsync, or eatmydata on the portable engine), the same checker finds acknowledged
 * records lost.
 */
class PowerLossTest {
    @TempDir
    Path dir;

    @Test
    void acknowledgedDurableDataSurvivesAPowerCutAndTheRestIsDetected() throws Exception {
        try (LazyFsMount fs = LazyFsMount.mount(dir)) {
            Random random = new Random(77);
            CrashCheck.Report total = CrashCheck.Report.NONE;
            int crashes = 0;
            for (int i = 0; i < 8; i++) {
                String engine = i % 2 == 0 ? "uring" : "threads";
                CrashCheck.Report report = crashOnce(fs, List.of(), engine, "run" + i, 500L * i, 150 + random.nextInt(700));
                crashes++;
                total = total.plus(report);
                assertEquals(0, report.claimedLost(), engine + " run " + i + ": " + report + "\n" + fs.log());
                assertEquals(0, report.wrongButValid(), engine + " run " + i + ": " + report);
            }
            long dropped = fs.stats().get("dropped_bytes");
            FaultTable.add(new FaultTable.Row("power loss, lazyfs crash x" + crashes + " (records checked)",
                    total.claimed() + total.unclaimedIntact() + total.unclaimedDetected(), crashes,
                    total.claimedLost() * DurabilityWorkload.RECORD, 0));
            System.out.println("power cuts: " + crashes + ", " + dropped + " unsynced bytes dropped, " + total);
            assertTrue(total.claimed() > 0, "nothing was acknowledged: " + total);
            assertTrue(dropped > 0, "no crash dropped anything: the test would prove nothing");
            assertTrue(total.unclaimedDetected() > 0, "written, unacknowledged records lost are detected: " + total);
        }
    }

    @Test
    void withForceMadeANoOpTheCheckerFindsAcknowledgedDataLost() throws Exception {
        try (LazyFsMount fs = LazyFsMount.mount(dir)) {
            fs.command("ignore-fsync on");
            for (String engine : List.of("uring", "threads")) {
                CrashCheck.Report report = crashOnce(fs, List.of(), engine, "nofsync-" + engine, 9, 600);
                System.out.println("fsync ignored (" + engine + "): " + report);
                assertTrue(report.claimed() > 0, "nothing was acknowledged: " + report);
                assertTrue(report.claimedLost() > 0,
                        "the checker must catch a force that persists nothing (" + engine + "): " + report);
                assertEquals(0, report.wrongButValid(), report.toString());
            }
        }
    }

    /**
     * A file AsyncFile created survives a power cut once a force of it completed, on both engines: the first
     * force makes the new name durable (fsyncdir), not only the data. The control (the same file, never forced)
     * shows that lazyfs does undo an unsynced create, so this test can fail.
     */
    @Test
    void aForcedNewFileKeepsItsNameThroughAPowerCut() throws Exception {
        try (LazyFsMount fs = LazyFsMount.mount(dir)) {
            byte[] data = "durable, name and all".getBytes(StandardCharsets.US_ASCII);
            for (String engine : List.of("uring", "threads")) {
                Path names = Files.createDirectories(fs.mountpoint().resolve("names-" + engine));
                try (IoEngine e = engine.equals("uring")
                        ? IoEngines.openUring(EngineConfig.defaults())
                        : IoEngines.openThreads(EngineConfig.defaults())) {
                    for (String file : List.of("forced.dat", "never-forced.dat")) {
                        try (AsyncFile f = new AsyncFile(names.resolve(file), "rw", AsyncFileOptions.defaults(), e)) {
                            f.write(0, MemorySegment.ofArray(data)).done();
                            if (file.equals("forced.dat")) {
                                f.force(false).done();
                            }
                        }
                    }
                }
            }
            fs.crash();
            for (String engine : List.of("uring", "threads")) {
                Path names = fs.backing().resolve("names-" + engine);
                assertTrue(Files.exists(names.resolve("forced.dat")), engine + ": a forced new file lost its name");
                assertArrayEquals(data, Files.readAllBytes(names.resolve("forced.dat")), engine);
                assertTrue(Files.notExists(names.resolve("never-forced.dat")),
                        engine + ": lazyfs kept an unsynced create, so this test proves nothing");
            }
        }
    }

    /**
     * eatmydata turns libc's fsync into a no-op by LD_PRELOAD: the JDK's force under BulkRandomAccessFile goes
     * through it and persists nothing, which the checker catches. hpio's own forces do not: its FFM calls bind
     * libc's fsync directly (not through the preload), and io_uring's fsync never calls libc, so AsyncFile's
     * acknowledged records survive even here (which is why the lazyfs option is the way to neuter them).
     */
    @Test
    void underEatmydataTheJdksForceIsANoOpAndTheCheckerSaysSo() throws Exception {
        boolean present = Files.isExecutable(Path.of("/usr/bin/eatmydata"));
        if (!present) {
            System.out.println("SKIPPED (eatmydata): /usr/bin/eatmydata is missing: install Debian's eatmydata");
        }
        Assumptions.assumeTrue(present, "eatmydata is missing: install Debian's eatmydata");
        try (LazyFsMount fs = LazyFsMount.mount(dir)) {
            Path run = Files.createDirectories(fs.mountpoint().resolve("eatmydata"));
            CrashChild.Run r = CrashChild.run(List.of("/usr/bin/eatmydata"), "threads", run, 13, 20_000, 40, 600);
            fs.crash();
            var each = CrashCheck.checkEach(fs.backing().resolve("eatmydata"), 13, r.output());
            System.out.println("eatmydata (threads engine): " + each);
            CrashCheck.Report bulk = each.get(CrashWriter.BULK);
            CrashCheck.Report async = each.get(CrashWriter.ASYNC);
            assertTrue(bulk.claimed() > 0 && async.claimed() > 0, "nothing was acknowledged: " + each);
            assertTrue(bulk.claimedLost() > 0, "eatmydata's no-op fsync under the JDK's force must be caught: " + bulk);
            assertEquals(0, async.claimedLost(), "hpio's own fsync is not interposed by LD_PRELOAD: " + async);
        }
    }

    /** One child killed after {@code millis}, then the power cut; the disk checked against what it printed. */
    private static CrashCheck.Report crashOnce(LazyFsMount fs, List<String> wrapper, String engine, String name,
                                               long seed, long millis) throws Exception {
        Path run = Files.createDirectories(fs.mountpoint().resolve(name));
        CrashChild.Run r = CrashChild.run(wrapper, engine, run, seed, 20_000, 40, millis);
        assertTrue(r.output().contains("started"), "the child did not start: " + r);
        fs.crash();
        return CrashCheck.check(fs.backing().resolve(name), seed, r.output());
    }
}
