package org.hpio.async;

import org.hpio.reliability.FaultTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Process crashes: a child JVM writing through AsyncFile (both engines, alternately) and BulkRandomAccessFile is
 * killed with SIGKILL at random points, many times; every record it was told is durable reads back bit-exact,
 * and no record passes its checksum with wrong bytes.
 */
class ProcessCrashTest {
    private static final int KILLS = 12;

    @TempDir
    Path dir;

    @Test
    void everythingReportedDurableBeforeASigkillReadsBackBitExact() throws Exception {
        Random random = new Random(2024);
        CrashCheck.Report total = CrashCheck.Report.NONE;
        int killed = 0;
        for (int i = 0; i < KILLS; i++) {
            String engine = i % 2 == 0 ? "uring" : "threads";
            Path run = Files.createDirectories(dir.resolve("run" + i));
            long seed = 1000L * i;
            CrashChild.Run r = CrashChild.run(List.of(), engine, run, seed, 20_000, 3, 20 + random.nextInt(400));
            assertTrue(r.output().contains("started"), "the child did not start: " + r);
            killed += r.killed() ? 1 : 0;
            CrashCheck.Report report = CrashCheck.check(run, seed, r.output());
            total = total.plus(report);
            assertEquals(0, report.claimedLost(), engine + " kill " + i + ": " + report);
            assertEquals(0, report.wrongButValid(), engine + " kill " + i + ": " + report);
        }
        FaultTable.add(new FaultTable.Row("process crash, SIGKILL x" + KILLS + " (records checked)",
                total.claimed() + total.unclaimedIntact() + total.unclaimedDetected(), killed,
                total.claimedLost() * DurabilityWorkload.RECORD, 0));
        System.out.println("process crashes: " + killed + " kills, " + total);
        assertTrue(killed >= KILLS / 2, "most children must die mid-write, not finish: " + killed);
        assertTrue(total.claimed() > 0, "nothing was acknowledged: " + total);
    }
}
