package org.hpio.internal.io;

import org.hpio.internal.sys.Errno;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;
import org.hpio.internal.sys.UringLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The contract on io_uring, plus what only io_uring can show: a blocked read really cancelled. */
class UringEngineTest extends EngineContractTest {
    private final List<NativeFile> fifos = new ArrayList<>();

    @Override
    IoEngine open(EngineConfig config) throws IOException {
        return IoEngines.openUring(config);
    }

    /** Reads of an empty FIFO (opened read-write, so nobody's end closes): in flight until cancelled. */
    @Override
    List<IoRequest> blockers(IoEngine on, int n) throws Exception {
        List<IoRequest> requests = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            requests.add(on.submit(stuck()));
        }
        Thread.sleep(50);
        for (IoRequest r : requests) {
            assertFalse(r.isDone(), "a read of an empty FIFO completed: " + r);
        }
        return requests;
    }

    /** A read of an empty FIFO of its own. */
    @Override
    IoOperation stuck() throws Exception {
        Path fifo = dir.resolve("fifo-" + fifos.size());
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertEquals(0, mk.waitFor());
        NativeFile file = NativeFile.open(fifo, Syscalls.O_RDWR);
        fifos.add(file);
        return IoOperation.read(file, arena.allocate(64), 0);
    }

    @AfterEach
    void closeFifos() throws IOException {
        for (NativeFile f : fifos) {
            f.close();
        }
    }

    @Test
    void aBlockedReadIsCancelledWithEcanceled() throws Exception {
        List<IoRequest> blocked = blockers(engine, 3);
        for (IoRequest r : blocked) {
            assertTrue(engine.cancel(r));
        }
        for (IoRequest r : blocked) {
            assertTrue(r.await(10, TimeUnit.SECONDS), "cancel did not complete " + r);
            assertEquals(Errno.ECANCELED, r.errno());
            assertTrue(r.isCancelled());
        }
    }

    @Test
    void onlyLargeBufferedTransfersWhoseCallerAllowsItGoToAKernelWorker() throws Exception {
        assumeTrue(UringEngine.OFFLOAD_BYTES > 0, "one core: nothing is offloaded");
        Path path = dir.resolve("offload");
        Files.write(path, new byte[1]);
        try (NativeFile buffered = NativeFile.open(path, Syscalls.O_RDWR)) {
            IoOperation large = IoOperation.read(buffered, arena.allocate(UringEngine.OFFLOAD_BYTES), 0);
            IoOperation small = IoOperation.read(buffered, arena.allocate(UringEngine.OFFLOAD_BYTES - 1), 0);
            IoOperation write = IoOperation.write(buffered, arena.allocate(UringEngine.OFFLOAD_BYTES), 0);
            assertEquals(UringLayout.IOSQE_ASYNC, UringEngine.offload(large));
            assertEquals(UringLayout.IOSQE_ASYNC, UringEngine.offload(write));
            assertEquals(0, UringEngine.offload(small));
            assertEquals(0, UringEngine.offload(large.withoutCopyOffload()));
            assertEquals(0, UringEngine.offload(write.withoutCopyOffload()));
            assertFalse(large.withoutCopyOffload().shortenedTo(16).offloadCopy(), "a shortened part keeps it");
        }
    }

    @Test
    void theEngineIsTheKernelsAndNamedSo() {
        assertEquals("uring", engine.name());
    }

    /**
     * Close waits for the requests the kernel holds, not for a job made live whose own thread has not published it
     * yet: that thread may not run again soon (a virtual thread on a single carrier that the other readers keep,
     * going on through the JDK's channel once the engine closed; the JVM's exit then hung in the engines'
     * shutdown hook, a reader harness with {@code -Djdk.virtualThreadScheduler.parallelism=1}). When the thread
     * goes on, its job is not published to the closed ring: it completes ECANCELED.
     */
    @Test
    void closeDoesNotWaitForAJobWhoseThreadHasNotPublishedItAndThatJobIsThenCancelled() throws Exception {
        Path path = dir.resolve("unpublished");
        Files.write(path, new byte[4096]);
        NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY);
        UringEngine own = (UringEngine) open(EngineConfig.defaults());
        try {
            IoRequest held = own.submit(stuck());   // one the kernel holds: close cancels it and waits for it
            UringEngine.UringJob job = own.admit(IoOperation.read(file, arena.allocate(4096, 4096), 0));
            UringEngine.UringJob fsync = own.admit(IoOperation.fsync(file, true));
            assertEquals(3, own.inFlight(), "the jobs are live, between their admission and their publication");
            CompletableFuture.runAsync(() -> {
                try {
                    own.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).get(30, TimeUnit.SECONDS);
            assertTrue(held.isCancelled(), "the published one was cancelled and waited for: " + held);
            assertFalse(job.request.isDone(), "the unpublished ones wait for their threads");
            own.enqueue(job);   // their threads go on
            own.enqueue(fsync);
            assertTrue(job.request.isCancelled(), job.request.toString());
            assertTrue(fsync.request.isCancelled(), "an fsync that never ran is no success: " + fsync.request);
            assertEquals(0, own.inFlight());
        } finally {
            own.close();
            file.close();
        }
    }
}
