package org.hpio.internal.io;

import org.hpio.internal.sys.Errno;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The contract on the portable engine. */
class ThreadPoolEngineTest extends EngineContractTest {
    private final List<CountDownLatch> gates = new ArrayList<>();
    private final List<NativeFile> files = new ArrayList<>();

    @Override
    IoEngine open(EngineConfig config) throws IOException {
        return IoEngines.openThreads(config);
    }

    /**
     * An engine whose worker threads wait at a gate before taking work, so its requests stay queued (and so
     * cancellable) until the test opens the gate.
     */
    @Override
    List<IoRequest> blockers(IoEngine on, int n) throws Exception {
        throw new UnsupportedOperationException("see gatedEngine");
    }

    /** Requests of an engine whose workers wait at a gate that opens after the test: they stay queued. */
    @Override
    Blocked blocked(EngineConfig config, int n) throws Exception {
        ThreadPoolEngine gated = gatedEngine(config);
        List<IoRequest> requests = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            requests.add(gated.submit(IoOperation.nop()));
        }
        return new Blocked(gated, requests);
    }

    /** A read of a file of its own: on the engine of {@link #blocked} its workers never take it. */
    @Override
    IoOperation stuck() throws IOException {
        Path path = dir.resolve("stuck-" + files.size());
        Files.write(path, new byte[64]);
        NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY);
        files.add(file);
        return IoOperation.read(file, arena.allocate(64), 0);
    }

    private ThreadPoolEngine gatedEngine(EngineConfig config) {
        CountDownLatch gate = new CountDownLatch(1);
        gates.add(gate);
        return ThreadPoolEngine.open(config, r -> Thread.ofPlatform().daemon().unstarted(() -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                return;
            }
            r.run();
        }));
    }

    @AfterEach
    void openGates() throws IOException {
        gates.forEach(CountDownLatch::countDown);
        for (NativeFile f : files) {
            f.close();
        }
    }

    @Override
    @Test
    void aFailFastEngineRefusesBeyondItsBound() throws Exception {
        try (ThreadPoolEngine small = gatedEngine(EngineConfig.defaults().withMaxInFlight(2).withFailFast(true))) {
            List<IoRequest> queued = List.of(small.submit(IoOperation.nop()), small.submit(IoOperation.nop()));
            Assertions.assertThrows(EngineSaturatedException.class, () -> small.submit(IoOperation.nop()));
            queued.forEach(small::cancel);
            for (IoRequest r : queued) {
                assertTrue(r.await(10, TimeUnit.SECONDS));
                assertEquals(Errno.ECANCELED, r.errno());
            }
        }
    }

    @Override
    @Test
    void closeWithRequestsInFlightCancelsAndWaitsForThem() throws Exception {
        ThreadPoolEngine other = gatedEngine(EngineConfig.defaults().withMaxInFlight(8));
        List<IoRequest> queued = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            queued.add(other.submit(IoOperation.nop()));
        }
        other.close();
        for (IoRequest r : queued) {
            assertTrue(r.isDone());
            assertEquals(Errno.ECANCELED, r.errno());
        }
        assertEquals(0, other.inFlight());
    }

    @Test
    void queuedRequestsAreCancelledWithEcanceled() throws Exception {
        try (ThreadPoolEngine gated = gatedEngine(EngineConfig.defaults().withThreads(1))) {
            IoRequest r = gated.submit(IoOperation.nop());
            assertTrue(gated.cancel(r));
            assertTrue(r.await(10, TimeUnit.SECONDS));
            assertTrue(r.isCancelled());
        }
    }

    /**
     * A job made live whose thread hands it to the pool only after close (a virtual thread kept off its carrier):
     * close cancelled it, and the hand-off to the shut-down pool is no failure of the caller's (before, the
     * pool's RejectedExecutionException reached it).
     */
    @Test
    void aJobHandedToThePoolOnlyAfterCloseStaysCancelledAndThrowsNothing() throws Exception {
        ThreadPoolEngine own = (ThreadPoolEngine) open(EngineConfig.defaults());
        ThreadPoolEngine.PoolJob job = own.admit(stuck());   // live, not yet handed to the pool
        own.close();
        assertTrue(job.request.isCancelled(), "cancelled by close: " + job.request);
        own.enqueue(job);   // its thread goes on
        assertTrue(job.request.isCancelled(), job.request.toString());
        assertEquals(0, own.inFlight());
    }

    @Test
    void aCancelLeavesAJobItsSubmitterRunsToFinish() throws Exception {
        try (IoEngine engine = open(EngineConfig.defaults());
             NativeFile zero = NativeFile.open(Path.of("/dev/zero"), Syscalls.O_RDONLY)) {
            MemorySegment big = arena.allocate(512L << 20);
            AtomicReference<IoRequest> performed = new AtomicReference<>();
            Thread submitter = Thread.ofPlatform().start(() -> {
                try {
                    performed.set(engine.perform(IoOperation.read(zero, big, 0)));   // a long pread on this thread
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (engine.inFlight() == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            engine.cancelAll(zero);   // the channel's close: must not end a job a thread is running
            submitter.join(30_000);
            IoRequest request = performed.get();
            assertEquals(0, request.errno(), "the pread ran to its end: not reported cancelled");
            assertEquals(512L << 20, request.result());
            assertEquals(0, engine.inFlight());
        }
    }
}
