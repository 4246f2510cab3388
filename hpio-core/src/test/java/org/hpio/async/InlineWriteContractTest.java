package org.hpio.async;

import org.hpio.testing.NativeCalls;
import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.FaultInjector;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoOperation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small buffered write done on the initiating thread ({@link InlineWrites}) keeps AsyncFile's contract, on
 * each engine (one subclass per engine): it is a request like any other, done when initiation returns, its
 * failure thrown by every Done method until cleared (exactly one fault, seen by the fault hook), a refused
 * admission thrown by the initiating call with nothing left behind, its place among the file's requests in
 * flight given back, and a force initiated after it sees it completed. Likewise a small read done at once
 * ({@link InlineReads}): its data in the array, a failure its own, an end of file found short its EOF.
 */
abstract class InlineWriteContractTest {
    @TempDir
    Path dir;
    private final List<IoEngine> engines = new ArrayList<>();

    abstract IoEngine openEngine(EngineConfig config) throws IOException;

    private IoEngine engine(EngineConfig config) throws IOException {
        IoEngine engine = openEngine(config);
        engines.add(engine);
        return engine;
    }

    @BeforeEach
    void inlineWritesOn() {
        assertTrue(InlineWrites.DEFAULT_MAX_BYTES >= 4096, "these tests write 4 KiB inline");
    }

    @AfterEach
    void stop() throws IOException {
        for (IoEngine engine : engines) {
            engine.close();
        }
    }

    private AsyncFile open(String name, EngineConfig config) throws IOException {
        return open(name, AsyncFileOptions.defaults(), config);
    }

    private AsyncFile open(String name, AsyncFileOptions options, EngineConfig config) throws IOException {
        return new AsyncFile(dir.resolve(name), "rw", options, engine(config));
    }

    private static byte[] filled(int bytes, int value) {
        byte[] data = new byte[bytes];
        Arrays.fill(data, (byte) value);
        return data;
    }

    @Test
    void aSmallBufferedWriteIsCompletedWhenInitiationReturns() throws Exception {
        try (AsyncFile f = open("done", EngineConfig.defaults())) {
            AsyncFileRequest w = f.writeArray(0, filled(4096, 3));
            assertEquals(AsyncFileRequest.State.COMPLETED, w.state(), "done inline, before writeArray returned");
            assertEquals(4096, w.transferred());
            assertTrue(w.done(0));
            assertTrue(f.allDone(0));
            assertTrue(w.toCompletableFuture().join() == 4096);
        }
        assertArrayEquals(filled(4096, 3), Files.readAllBytes(dir.resolve("done")));
    }

    @Test
    void anInjectedFailureIsThrownByEveryDoneMethodUntilClearedAndCountsOnce() throws Exception {
        FaultInjector eio = FaultInjector.countdown(FaultInjector.Kind.EIO, FaultInjector.Mode.ONCE, 1);
        try (AsyncFile f = open("eio", EngineConfig.defaults().withFaults(eio))) {
            AsyncFileRequest w = f.writeArray(0, filled(4096, 1));
            assertEquals(AsyncFileRequest.State.IO_ERROR, w.state(), "failed inline: initiation itself did not throw");
            IOException first = assertThrows(IOException.class, w::done);
            assertTrue(first.getMessage().contains("EIO"), first.getMessage());
            assertThrows(IOException.class, () -> w.done(0), "each time, until cleared");
            assertThrows(IOException.class, () -> f.allDone(0));
            assertSame(first.getClass(), w.exception().getClass());
            w.clearException();
            assertEquals(AsyncFileRequest.State.ERROR_CLEARED, w.state());
            assertTrue(f.allDone(0));
            assertEquals(1, eio.injected());
            AsyncFileRequest next = f.writeArray(0, filled(4096, 2));   // the fault was once: this one lands
            assertTrue(next.done(0));
        }
        assertArrayEquals(filled(4096, 2), Files.readAllBytes(dir.resolve("eio")));
    }

    @Test
    void anInjectedShortWriteIsAnIoErrorSayingHowFarItGot() throws Exception {
        FaultInjector shortOne = FaultInjector.countdown(FaultInjector.Kind.SHORT, FaultInjector.Mode.ONCE, 1);
        try (AsyncFile f = open("short", EngineConfig.defaults().withFaults(shortOne))) {
            AsyncFileRequest w = f.writeArray(0, filled(4096, 4));
            IOException e = assertThrows(IOException.class, w::done);
            assertTrue(e.getMessage().contains("only 2048 of 4096 bytes written"), e.getMessage());
            assertEquals(1, shortOne.injected());
        }
    }

    @Test
    void aRefusedAdmissionIsThrownByTheInitiationAndLeavesNothingInFlight() throws Exception {
        FaultInjector refuse = FaultInjector.countdown(FaultInjector.Kind.EAGAIN_ON_SUBMIT, FaultInjector.Mode.ONCE, 1);
        AsyncFileOptions oneAtATime = AsyncFileOptions.defaults().withMaxInFlight(1).withFailFast(true);
        try (AsyncFile f = open("refused", oneAtATime, EngineConfig.defaults().withFaults(refuse))) {
            assertThrows(IOException.class, () -> f.writeArray(filled(4096, 5)));
            assertEquals(0, f.getFilePointer(), "a refused request leaves the pointer");
            assertTrue(f.allDone(0), "nothing was started");
            assertTrue(f.writeArray(filled(4096, 6)).done(0), "its place in flight was given back");
            assertEquals(1, refuse.injected());
        }
    }

    @Test
    void itTakesAndGivesBackAPlaceAmongTheFilesRequestsInFlight() throws Exception {
        AsyncFileOptions oneAtATime = AsyncFileOptions.defaults().withMaxInFlight(1).withFailFast(true);
        EngineConfig config = EngineConfig.defaults().withMaxInFlight(1).withFailFast(true);
        try (AsyncFile f = open("bound", oneAtATime, config)) {
            // Fail-fast at a bound of one: each write must have given its place back. (done(), not done(0): after
            // a slow inline write the next writes go to the engine for a while, InlineWrites' back-off.)
            for (int i = 0; i < 100; i++) {
                assertTrue(f.writeArray((long) i * 4096, filled(4096, i)).done());
            }
            assertEquals(0, engines.getFirst().inFlight());
            assertEquals(0, engines.getFirst().staging().held(), "staging bytes given back");
        }
    }

    @Test
    void cancellingACompletedInlineWriteChangesNothing() throws Exception {
        try (AsyncFile f = open("cancel", EngineConfig.defaults())) {
            AsyncFileRequest w = f.writeArray(0, filled(4096, 7));
            w.cancel();
            f.cancel();
            assertEquals(AsyncFileRequest.State.COMPLETED, w.state());
            w.clearException();
            assertEquals(AsyncFileRequest.State.COMPLETED, w.state(), "nothing to clear");
            assertTrue(w.done(0));
        }
        assertArrayEquals(filled(4096, 7), Files.readAllBytes(dir.resolve("cancel")));
    }

    @Test
    void aForceInitiatedAfterItFindsItCompletedAndIsAskedOfTheKernelAfterIt() throws Exception {
        List<IoOperation.Kind> kinds = Collections.synchronizedList(new ArrayList<>());
        try (AsyncFile f = open("force", EngineConfig.defaults().withFaults(op -> {
            kinds.add(op.kind());
            return 0;
        }))) {
            AsyncFileRequest w = f.writeArray(0, filled(4096, 8));
            assertEquals(AsyncFileRequest.State.COMPLETED, w.state(),
                    "completed before the force is initiated: covered");
            assertTrue(f.force(false).done());
        }
        assertEquals(List.of(IoOperation.Kind.WRITE, IoOperation.Kind.FSYNC), kinds);
    }

    @Test
    void aSmallReadOfCachedDataIsDoneWhenInitiationReturns() throws Exception {
        NativeCalls.assumeOn("a read without waiting (preadv2 RWF_NOWAIT)");
        Files.write(dir.resolve("read"), filled(8192, 11));
        try (AsyncFile f = open("read", EngineConfig.defaults())) {
            byte[] back = new byte[4096];
            AsyncFileRequest r = f.readArray(4096, back);
            assertEquals(AsyncFileRequest.State.COMPLETED, r.state(), "the data was cached: read at once");
            assertArrayEquals(filled(4096, 11), back);
            assertEquals(0, engines.getFirst().staging().held(), "staging bytes given back");
        }
    }

    @Test
    void anInjectedFailureOfASmallReadIsItsIoErrorAndLeavesTheArrayAlone() throws Exception {
        Files.write(dir.resolve("read-eio"), filled(4096, 12));
        FaultInjector eio = new FaultInjector(FaultInjector.Kind.EIO, FaultInjector.Mode.ONCE, 1,
                EnumSet.of(IoOperation.Kind.READ));
        try (AsyncFile f = open("read-eio", EngineConfig.defaults().withFaults(eio))) {
            byte[] back = filled(4096, 1);
            AsyncFileRequest r = f.readArray(0, back);
            assertThrows(IOException.class, r::done);
            assertThrows(IOException.class, () -> r.done(0), "each time, until cleared");
            assertArrayEquals(filled(4096, 1), back, "a failed read leaves the array as it was");
            r.clearException();
            assertTrue(f.readArray(0, back).done());
            assertArrayEquals(filled(4096, 12), back);
            assertEquals(1, eio.injected());
            assertEquals(2, eio.operations(), "the hook was asked once per read");
        }
    }

    @Test
    void aReadPastWhatTheFileHoldsNowIsAnEofOfTheRequest() throws Exception {
        Path path = dir.resolve("shrunk");
        Files.write(path, filled(8192, 13));
        try (AsyncFile f = open("shrunk", EngineConfig.defaults())) {
            assertEquals(8192, f.length());
            try (var channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
                channel.truncate(6000);                                    // through another handle
            }
            AsyncFileRequest r = f.readArray(4096, new byte[4096]);        // passes the check on the size last seen
            assertThrows(EOFException.class, r::done, "ended short: the request's EOFException");
        }
    }
}
