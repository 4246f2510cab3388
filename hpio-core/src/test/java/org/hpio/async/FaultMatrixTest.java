package org.hpio.async;

import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.FaultInjector;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;
import org.hpio.reliability.FaultTable;
import org.hpio.reliability.Leaks;
import org.hpio.reliability.TestEngines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Injected faults on both engines: the countdown injector ({@link FaultInjector}) fails the Nth operation once,
 * or every operation from the Nth on, with EIO, ENOSPC, ECANCELED, short transfers, and EAGAIN/EINTR refusing
 * the submission; {@link DurabilityWorkload} runs AsyncFile through it. After each run: every injected fault
 * reached the caller as exactly one exception, the acknowledged-durable records read back bit-exact, every other
 * record was reported lost, no successful read returned wrong bytes, and nothing leaked (descriptors, staging
 * memory, threads, requests in flight).
 */
class FaultMatrixTest {
    private static final int RECORDS = 120;

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (String engine : List.of("uring", "threads")) {
            for (FaultInjector.Kind kind : FaultInjector.Kind.values()) {
                for (int nth : new int[]{1, 9, 40, 75}) {
                    cases.add(Arguments.of(engine, kind, FaultInjector.Mode.ONCE, nth));
                }
                for (int nth : new int[]{1, 35}) {
                    cases.add(Arguments.of(engine, kind, FaultInjector.Mode.FROM_NTH_ON, nth));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1} {2} at {3}")
    @MethodSource("cases")
    void acknowledgedDataReadsBackTheRestIsReportedLostAndNothingLeaks(String engineName, FaultInjector.Kind kind,
                                                                       FaultInjector.Mode mode, int nth) throws Exception {
        Leaks.Snapshot before = Leaks.snapshot();
        FaultInjector injector = FaultInjector.countdown(kind, mode, nth);
        EngineConfig config = EngineConfig.defaults().withMaxInFlight(32).withFaults(injector);
        IoEngine engine = TestEngines.open(engineName, config);
        DurabilityWorkload workload = new DurabilityWorkload(RECORDS, nth * 31L + kind.ordinal());
        Path file = dir.resolve("data");
        DurabilityWorkload.Outcome outcome;
        try {
            outcome = workload.run(engine, file);
        } finally {
            engine.close();
        }
        long acknowledgedBytesLost = workload.verify(file);
        List<String> leaks = Leaks.since(before, engine);
        FaultTable.add(new FaultTable.Row("injected " + kind + " (" + engineName + ")", injector.operations(),
                injector.injected(), acknowledgedBytesLost, leaks.size()));

        String what = injector + " on " + engineName + ": " + outcome;
        assertTrue(injector.injected() > 0, "the fault was never injected: " + what);
        assertEquals(injector.injected(), outcome.errorsReported(), "every injected fault reaches the caller once: " + what);
        assertEquals(0, acknowledgedBytesLost, "acknowledged-durable bytes lost: " + what);
        assertEquals(0, outcome.undecided(), "every record is acknowledged or reported lost: " + what);
        assertEquals(0, outcome.corruptReads(), "a successful read returned wrong bytes: " + what);
        assertEquals(List.of(), leaks, what);
        if (mode == FaultInjector.Mode.FROM_NTH_ON && nth == 1 && kind != FaultInjector.Kind.SHORT) {
            assertEquals(0, outcome.durable(), "nothing can be durable when every operation fails: " + what);
        }
        if (mode == FaultInjector.Mode.ONCE) {
            assertTrue(outcome.lost() <= 8, "one fault loses at most one batch: " + what);
        }
    }

    @Test
    void theCheckerSeesAnAcknowledgedRecordThatDoesNotReadBack() throws Exception {
        DurabilityWorkload workload = new DurabilityWorkload(16, 5);
        Path file = dir.resolve("clean");
        try (IoEngine engine = IoEngines.openThreads(EngineConfig.defaults())) {
            DurabilityWorkload.Outcome outcome = workload.run(engine, file);
            assertEquals(16, outcome.durable(), outcome.toString());
        }
        assertEquals(0, workload.verify(file));
        try (FileChannel channel = FileChannel.open(file,
                StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[]{1}), 5L * DurabilityWorkload.RECORD + 100);
        }
        assertEquals(DurabilityWorkload.RECORD, workload.verify(file), "one flipped byte loses one record");
    }

    @AfterAll
    static void printTable() {
        System.out.println("Reliability report so far (" + FaultTable.FILE + "):\n" + FaultTable.render());
    }
}
