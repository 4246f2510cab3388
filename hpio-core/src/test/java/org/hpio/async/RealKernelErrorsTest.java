package org.hpio.async;

import org.hpio.bulk.BulkRandomAccessFile;
import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.reliability.FaultTable;
import org.hpio.reliability.LazyFsMount;
import org.hpio.reliability.Leaks;
import org.hpio.reliability.LoopExt4;
import org.hpio.reliability.TestEngines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.SyncFailedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real errors from the kernel, on both engines: ENOSPC from /dev/full and from a small loop-mounted ext4 that
 * fills up, and EIO from the lazyfs FUSE file system failing chosen reads, writes and fsyncs (the only way to
 * make io_uring's own paths see an I/O error: no syscall-level injector reaches them). After each: every error
 * reached the caller, the acknowledged-durable records are on the disk (after a remount, or a lazyfs crash),
 * and nothing leaked. Skipped, with the reason printed, where root, loop devices or FUSE are missing.
 */
class RealKernelErrorsTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"uring", "threads"})
    void devFullFailsEveryWriteWithEnospcAndTheCallerSeesEachOne(String engineName) throws Exception {
        Leaks.Snapshot before = Leaks.snapshot();
        TestEngines.Counter counter = new TestEngines.Counter();
        IoEngine engine = TestEngines.open(engineName, EngineConfig.defaults().withFaults(counter));
        int writes = 20;
        int enospc = 0;
        try (AsyncFile full = new AsyncFile(Path.of("/dev/full"), "rw", AsyncFileOptions.defaults(), engine)) {
            List<AsyncFileRequest> requests = new ArrayList<>();
            for (int i = 0; i < writes; i++) {
                requests.add(full.writeArray(0, new byte[1000 + i]));
            }
            for (AsyncFileRequest r : requests) {
                IOException e = assertThrows(IOException.class, r::done);
                assertTrue(e.getMessage().contains("ENOSPC"), e.getMessage());
                r.clearException();
                enospc++;
            }
        } finally {
            engine.close();
        }
        List<String> leaks = Leaks.since(before, engine);
        FaultTable.add(new FaultTable.Row("kernel ENOSPC, /dev/full (" + engineName + ")", counter.operations(),
                enospc, 0, leaks.size()));
        assertEquals(writes, enospc);
        assertEquals(List.of(), leaks);
    }

    @Test
    void bulkRandomAccessFileOnDevFullThrows() throws Exception {
        try (BulkRandomAccessFile full = new BulkRandomAccessFile(Path.of("/dev/full"), "rw")) {
            IOException e = assertThrows(IOException.class, () -> full.writeArray(0L, new long[1000]));
            assertTrue(e.getMessage().contains("ENOSPC") || e.getMessage().contains("No space"), e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"uring", "threads"})
    void anExt4FillingUpReportsEnospcAndKeepsWhatWasAcknowledged(String engineName) throws Exception {
        try (LoopExt4 fs = LoopExt4.create(dir, 8)) {
            Leaks.Snapshot before = Leaks.snapshot();
            TestEngines.Counter counter = new TestEngines.Counter();
            IoEngine engine = TestEngines.open(engineName, EngineConfig.defaults().withFaults(counter));
            DurabilityWorkload workload = new DurabilityWorkload(3000, 11);   // 12 MiB into 8 MiB
            Path file = fs.mountpoint().resolve("fill");
            DurabilityWorkload.Outcome outcome;
            try {
                outcome = workload.run(engine, file);
            } finally {
                engine.close();
            }
            List<String> leaks = Leaks.since(before, engine);
            fs.remount();
            long lost = workload.verify(file);
            FaultTable.add(new FaultTable.Row("kernel ENOSPC, ext4 filling up (" + engineName + ")",
                    counter.operations(), outcome.errorsReported(), lost, leaks.size()));
            assertTrue(outcome.errorsReported() > 0, "the file system never filled up: " + outcome);
            assertTrue(outcome.durable() > 0, "nothing fitted: " + outcome);
            assertTrue(outcome.firstErrors().stream().allMatch(e -> e.contains("ENOSPC")), outcome.toString());
            assertEquals(0, outcome.undecided(), outcome.toString());
            assertEquals(0, outcome.corruptReads(), outcome.toString());
            assertEquals(0, lost, "acknowledged bytes lost after remount: " + outcome);
            assertEquals(List.of(), leaks);
        }
    }

    // ---- EIO from a FUSE file system ----

    @TempDir
    static Path fuseDir;
    private static LazyFsMount fuse;

    private static LazyFsMount fuse() throws Exception {
        if (fuse == null) {
            fuse = LazyFsMount.mount(fuseDir);
        }
        return fuse;
    }

    @AfterAll
    static void unmount() throws IOException {
        if (fuse != null) {
            fuse.close();
        }
    }

    static Stream<Arguments> fuseCases() {
        List<Arguments> cases = new ArrayList<>();
        for (String engine : TestEngines.BOTH) {
            cases.add(Arguments.of(engine, "write", 1, 19));
            cases.add(Arguments.of(engine, "write", -1, 40));
            cases.add(Arguments.of(engine, "fsync", 1, 3));
            cases.add(Arguments.of(engine, "fsync", -1, 20));
            cases.add(Arguments.of(engine, "read", 1, 4));
            cases.add(Arguments.of(engine, "read", -1, 8));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1} fails, count {2} after {3}")
    @MethodSource("fuseCases")
    void fuseEioReachesTheCallerAndAcknowledgedDataSurvivesACrash(String engineName, String op, int count, int skip)
            throws Exception {
        LazyFsMount fs = fuse();
        String name = "f-" + engineName + "-" + op + "-" + (count < 0 ? "from" : "once") + "-" + skip;
        fs.command("fail " + op + " " + name + " " + count + " " + skip);
        long faultsBefore = fs.stats().get("faults_injected");
        Leaks.Snapshot before = Leaks.snapshot();
        TestEngines.Counter counter = new TestEngines.Counter();
        IoEngine engine = TestEngines.open(engineName, EngineConfig.defaults().withFaults(counter));
        DurabilityWorkload workload = new DurabilityWorkload(120, skip * 7L + count);
        DurabilityWorkload.Outcome outcome;
        try {
            outcome = workload.run(engine, fs.mountpoint().resolve(name));
        } finally {
            engine.close();
            fs.command("clear-faults");
        }
        List<String> leaks = Leaks.since(before, engine);
        long faults = fs.stats().get("faults_injected") - faultsBefore;
        fs.crash();
        long lost = workload.verify(fs.backing().resolve(name));
        FaultTable.add(new FaultTable.Row("kernel EIO on " + op + ", FUSE (" + engineName + ")",
                counter.operations(), faults, lost, leaks.size()));
        String what = name + ": " + outcome + "\nlazyfs log:\n" + fs.log();
        assertTrue(faults > 0, "lazyfs never failed an operation: " + what);
        assertEquals(faults, outcome.errorsReported(), "every EIO reaches the caller once: " + what);
        assertTrue(outcome.firstErrors().stream().allMatch(e -> e.contains("EIO")), what);
        assertEquals(0, outcome.undecided(), what);
        assertEquals(0, outcome.corruptReads(), what);
        assertEquals(0, lost, "acknowledged-durable bytes missing on the disk after the crash: " + what);
        assertEquals(List.of(), leaks, what);
    }

    @Test
    void bulkRandomAccessFileSeesFuseErrorsOnWriteReadAndSync() throws Exception {
        LazyFsMount fs = fuse();
        Path file = fs.mountpoint().resolve("bulk-eio");
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw")) {
            f.writeArray(0L, new int[4096]);
            f.getFD().sync();
            fs.command("fail write bulk-eio 1");
            assertThrows(IOException.class, () -> f.writeArray(0L, new int[100]));
            fs.command("fail read bulk-eio 1");
            assertThrows(IOException.class, () -> f.readArray(0L, new int[100]));
            fs.command("fail fsync bulk-eio 1");
            assertThrows(SyncFailedException.class, () -> f.getFD().sync());
        } finally {
            fs.command("clear-faults");
        }
        assertTrue(Files.size(fs.backing().resolve("bulk-eio")) == 4 * 4096, "the synced part is on the disk");
    }

    @AfterAll
    static void printTable() {
        System.out.println("Reliability report so far (" + FaultTable.FILE + "):\n" + FaultTable.render());
    }
}
