package org.hpio.internal.io;

import org.hpio.internal.sys.Errno;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntPredicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who retires completions on the io_uring engine: waiting platform threads poll the ring themselves (one at a
 * time, the others stand by), and the completion thread serves listeners and parked (virtual) threads. Each
 * test gates a read on a FIFO that only completes when the test writes to it, so the order is the test's.
 */
class UringWaitingTest {
    @TempDir
    Path dir;
    private Arena arena;
    private IoEngine engine;
    private final List<NativeFile> fifos = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        arena = Arena.ofShared();
        engine = open(EngineConfig.defaults().withMaxInFlight(8));
    }

    /** The engine under test with {@code config} (a subclass runs every case with a kernel submission thread). */
    IoEngine open(EngineConfig config) throws IOException {
        return IoEngines.openUring(config);
    }

    @AfterEach
    void stop() throws IOException {
        if (engine != null) {   // null when start() was skipped (an engine this kernel refuses)
            engine.close();
        }
        for (NativeFile f : fifos) {
            f.close();
        }
        arena.close();
    }

    /** A read of an empty FIFO: in flight until {@link #release} writes to that FIFO. */
    private IoRequest gatedRead(String name) throws Exception {
        Path fifo = dir.resolve(name);
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
        NativeFile file = NativeFile.open(fifo, Syscalls.O_RDWR);
        fifos.add(file);
        IoRequest request = engine.submit(IoOperation.read(file, arena.allocate(64), 0));
        assertFalse(request.await(20, TimeUnit.MILLISECONDS), "a read of an empty FIFO completed: " + request);
        return request;
    }

    private void release(String name, int bytes) throws IOException {
        try (FileOutputStream out = new FileOutputStream(dir.resolve(name).toFile())) {
            out.write(new byte[bytes]);
        }
    }

    private static Thread waitIn(Thread.Builder builder, IoRequest request, AtomicReference<Throwable> failure) {
        return builder.start(() -> {
            try {
                assertTrue(request.await(30, TimeUnit.SECONDS), "not done: " + request);
            } catch (Throwable t) {
                failure.set(t);
            }
        });
    }

    @Test
    void anyReturnsWhenOneIsDoneAndAllWaitsForEvery() throws Exception {
        IoRequest gated = gatedRead("a");
        IoRequest nop = engine.submit(IoOperation.nop());
        assertTrue(IoRequests.awaitAny(List.of(gated, nop), TimeUnit.SECONDS.toNanos(30)));
        assertTrue(nop.isDone());
        assertFalse(IoRequests.awaitAll(List.of(gated, nop), TimeUnit.MILLISECONDS.toNanos(30)));
        assertFalse(IoRequests.awaitAll(List.of(gated, nop), 0), "a timeout of 0 polls");
        release("a", 5);
        assertTrue(IoRequests.awaitAll(List.of(gated, nop), TimeUnit.SECONDS.toNanos(30)));
        assertEquals(5, gated.resultOrThrow());
        assertFalse(IoRequests.awaitAny(List.of(), 0), "nothing to wait for is never satisfied");
    }

    @Test
    void aVirtualThreadParksAndTheCompletionThreadServesIt() throws Exception {
        IoRequest gated = gatedRead("v");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread waiter = waitIn(Thread.ofVirtual(), gated, failure);
        Thread.sleep(30);
        release("v", 3);
        waiter.join(30_000);
        assertFalse(waiter.isAlive());
        assertNull(failure.get());
        assertEquals(3, gated.resultOrThrow());
    }

    @Test
    void aVirtualThreadWaitsWithoutATimeoutAndTheCompletionItselfWakesIt() throws Exception {
        IoRequest gated = gatedRead("u");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                gated.await();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        awaitState(waiter, Thread.State.WAITING);   // an untimed park: no timer task per wait
        release("u", 4);
        waiter.join(30_000);
        assertFalse(waiter.isAlive());
        assertNull(failure.get());
        assertEquals(4, gated.resultOrThrow());
    }

    @Test
    void aVirtualThreadWaitingForRoomInFlightParksWithoutATimeout() throws Exception {
        List<IoRequest> gated = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            gated.add(gatedRead("r" + i));   // the engine's bound: 8 in flight
        }
        AtomicReference<IoRequest> nop = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread submitter = Thread.ofVirtual().start(() -> {
            try {
                nop.set(engine.submit(IoOperation.nop()));
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        awaitState(submitter, Thread.State.WAITING);
        release("r3", 1);
        submitter.join(30_000);
        assertFalse(submitter.isAlive());
        assertNull(failure.get());
        assertTrue(nop.get().await(30, TimeUnit.SECONDS));
        for (int i = 0; i < 8; i++) {
            if (i != 3) {
                release("r" + i, 1);
            }
        }
        assertTrue(IoRequests.awaitAll(gated, TimeUnit.SECONDS.toNanos(30)));
    }

    @Test
    void whileAPollerIsPresentItsNextPollRetiresTheCompletionsAndRunsTheirListeners() throws Exception {
        IoRequest gated = gatedRead("q");
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        engine.pollerPresent(true);   // the completion thread stays out of the way meanwhile
        try {
            gated.whenDone(() -> ranOn.set(Thread.currentThread()));
            release("q", 2);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ranOn.get() == null && System.nanoTime() < deadline) {
                assertTrue(engine.pollCompletions(() -> ranOn.get() != null, TimeUnit.MILLISECONDS.toNanos(50), () -> { }));
            }
        } finally {
            engine.pollerPresent(false);
        }
        assertEquals(Thread.currentThread(), ranOn.get(), "the listener ran on the polling thread");
        assertEquals(2, gated.resultOrThrow());
    }

    @Test
    void virtualThreadsUnderLoadLeaveTheirEntriesToTheCompletionThreadAndEveryReadIsRight() throws Exception {
        Path data = dir.resolve("data");
        byte[] bytes = EngineContractTest.writeRandomFile(data, 7, 1 << 20);
        System.setProperty(UringEngine.DEFER_PROPERTY, "2");   // defer with more than 2 in flight
        IoEngine deferring;
        try {
            deferring = open(EngineConfig.defaults().withMaxInFlight(16));
        } finally {
            System.clearProperty(UringEngine.DEFER_PROPERTY);
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (deferring; NativeFile file = NativeFile.open(data, Syscalls.O_RDONLY)) {
            List<Thread> readers = startCheckedReaders(64, 512, file, bytes, deferring::submit, i -> i < 200, failure);
            awaitReaders(readers, System.nanoTime() + TimeUnit.SECONDS.toNanos(60), deferring);
        }
        assertNull(failure.get());
    }

    /**
     * Ten thousand virtual threads queue for the shared engine's 256 places (submitToWait, as a blocking channel
     * read does) with reads that go to the device (O_DIRECT), for a few seconds, while a platform thread keeps
     * cancelling everything of another file (as closing a channel does; the JDK itself reads /proc files through
     * the default provider). Every reader must finish, every block right. This is how {@code bench nio}'s
     * 10,000-reader row hung: the cancelling thread held up admission while it looked through the queue, every
     * place drained and every reader parked with nothing live, so the completion thread slept; the cancelling
     * thread then admitted 256 queued jobs and waited for none of them. Checked: with neither
     * {@link EngineBase#cancelAll}'s scan without holding up admission nor {@link Completions#queuedJobsAdmitted},
     * 3 of 4 runs here stuck (both ring kinds); with either, or both, none in 14.
     */
    @Test
    void tenThousandVirtualThreadsQueuedForThePlacesAllFinish() throws Exception {
        Path data = dir.resolve("queued-data");
        byte[] bytes = EngineContractTest.writeRandomFile(data, 11, 64 << 20);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        NativeFile file;
        try {
            file = NativeFile.open(data, Syscalls.O_RDONLY | Syscalls.O_DIRECT);
        } catch (IOException e) {
            Assumptions.abort("O_DIRECT refused in " + dir + ": " + e.getMessage());
            return;
        }
        long stop = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
        try (IoEngine shared = open(EngineConfig.defaults()); file) {
            List<Thread> readers = startCheckedReaders(10_000, 4096, file, bytes, shared::submitToWait,
                    i -> System.nanoTime() < stop, failure);
            // Meanwhile a platform thread cancels everything of another file, as closing a channel does (the JDK
            // reads /proc files through the default provider): it must not hold up the queue.
            try (NativeFile other = NativeFile.open(data, Syscalls.O_RDONLY)) {
                while (System.nanoTime() < stop) {
                    shared.cancelAll(other);
                    Thread.sleep(1);
                }
            }
            awaitReaders(readers, stop + TimeUnit.SECONDS.toNanos(60), shared);
        }
        assertNull(failure.get());
    }

    /** How a reader hands its read to the engine ({@code submit} or {@code submitToWait}). */
    @FunctionalInterface
    private interface Submission {
        IoRequest of(IoOperation read) throws IOException;
    }

    /**
     * {@code threads} virtual threads, each reading {@code block}-sized blocks at random aligned offsets of
     * {@code file} (whose contents are {@code bytes}) through {@code submission} while {@code more} holds for the
     * count of its reads so far, and checking every block; the first failure goes to {@code failure}.
     */
    private static List<Thread> startCheckedReaders(int threads, int block, NativeFile file, byte[] bytes,
                                                    Submission submission, IntPredicate more,
                                                    AtomicReference<Throwable> failure) {
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int seed = t;
            readers.add(Thread.ofVirtual().start(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                try (Arena mine = Arena.ofConfined()) {
                    var buffer = mine.allocate(block, block);
                    for (int i = 0; more.test(i); i++) {
                        int at = random.nextInt(bytes.length / block) * block;
                        IoRequest r = submission.of(IoOperation.read(file, buffer, at));
                        r.await();
                        if (r.resultOrThrow() != block || !Arrays.equals(buffer.toArray(
                                ValueLayout.JAVA_BYTE), Arrays.copyOfRange(bytes, at, at + block))) {
                            throw new AssertionError("read at " + at + " is wrong");
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        return readers;
    }

    /** Waits until every reader ended, by {@code deadlineNanos} (System.nanoTime) at the latest; fails if one is stuck. */
    private static void awaitReaders(List<Thread> readers, long deadlineNanos, IoEngine on) throws InterruptedException {
        for (Thread r : readers) {
            r.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())));
            assertFalse(r.isAlive(), "a reader is stuck: " + on.inFlight() + " in flight");
        }
    }

    /** Waits (up to 30 s) until {@code thread} is in {@code state}; fails naming the state it is in otherwise. */
    private static void awaitState(Thread thread, Thread.State state) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (thread.getState() != state && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(state, thread.getState());
    }

    @Test
    void aListenerRunsThoughNobodyWaits() throws Exception {
        IoRequest gated = gatedRead("l");
        CountDownLatch ran = new CountDownLatch(1);
        gated.whenDone(ran::countDown);
        release("l", 1);
        assertTrue(ran.await(30, TimeUnit.SECONDS), "the completion thread did not run the listener");
    }

    @Test
    void aStandbyWaiterTakesOverWhenThePollerLeaves() throws Exception {
        IoRequest first = gatedRead("p1");
        IoRequest second = gatedRead("p2");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread a = waitIn(Thread.ofPlatform(), first, failure);
        Thread b = waitIn(Thread.ofPlatform(), second, failure);
        Thread.sleep(30);
        release("p1", 1);
        a.join(30_000);
        assertFalse(a.isAlive());
        release("p2", 2);
        b.join(30_000);
        assertFalse(b.isAlive());
        assertNull(failure.get());
        assertEquals(2, second.resultOrThrow());
    }

    /**
     * A platform thread waiting for a request queued for a place waits in the kernel; when another thread cancels
     * that request (no completion is posted: it never reached the ring), a wake-up ends the wait, not its time
     * slice. Each round counts the poller's kernel waits that ran out: before the wake-up every round had one (the
     * wait ran its 50 ms); a round can also have one when this thread was held up for the slice, hence rounds.
     */
    @Test
    void aPollerInTheKernelIsWokenWhenTheRequestItWaitsForIsCancelledInTheQueue() throws Exception {
        for (int i = 0; i < 8; i++) {
            gatedRead("c" + i);   // the engine's bound: the next request queues for a place
        }
        UringEngine uring = (UringEngine) engine;
        NativeFile fifo = fifos.get(0);
        assertTrue(anyRoundWokenWithoutTimeout(uring, () -> {
            IoRequest queued = engine.submitToWait(IoOperation.read(fifo, arena.allocate(64), 0));
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread waiter = Thread.ofPlatform().start(() -> {
                try {
                    assertTrue(queued.await(30, TimeUnit.SECONDS));
                    assertEquals(Errno.ECANCELED, queued.errno());
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            return new Round(waiter, failure, () -> assertTrue(engine.cancel(queued)));
        }));
    }

    /** As above, for a platform thread waiting for staging bytes that another thread gives back. */
    @Test
    void aPollerInTheKernelIsWokenWhenTheStagingItWaitsForIsGivenBack() throws Exception {
        gatedRead("s");   // something in flight, as when staging runs out
        UringEngine uring = (UringEngine) engine;
        StagingBudget staging = engine.staging();
        assertTrue(anyRoundWokenWithoutTimeout(uring, () -> {
            long all = staging.limit();
            staging.acquire(all);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread waiter = Thread.ofPlatform().start(() -> {
                try {
                    staging.acquire(4096);
                    staging.release(4096);
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            return new Round(waiter, failure, () -> staging.release(all));
        }));
    }

    /** A waiting platform thread, what it failed with, and what ends its wait. */
    private record Round(Thread waiter, AtomicReference<Throwable> failure, Step end) {
    }

    private interface Step {
        void run() throws Exception;
    }

    private interface RoundStart {
        Round start() throws Exception;
    }

    /**
     * Up to five rounds: each starts a waiter, and once it waits in the kernel ends its wait by the round's step;
     * true as soon as a round's waiter returned with none of the kernel waits in between running out.
     */
    private static boolean anyRoundWokenWithoutTimeout(UringEngine uring, RoundStart rounds) throws Exception {
        for (int round = 0; round < 5; round++) {
            Round r = rounds.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!uring.pollerInKernel() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(uring.pollerInKernel(), "the waiter never waited in the kernel");
            long emptyBefore = uring.emptyPolls();
            r.end().run();
            r.waiter().join(30_000);
            assertFalse(r.waiter().isAlive(), "the waiter is stuck");
            assertNull(r.failure().get());
            if (uring.emptyPolls() == emptyBefore) {
                return true;
            }
        }
        return false;
    }

    @Test
    void anInterruptedWaitThrowsInterruptedException() throws Exception {
        IoRequest gated = gatedRead("i");
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                gated.await();
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        Thread.sleep(30);
        waiter.interrupt();
        waiter.join(30_000);
        assertFalse(waiter.isAlive());
        assertInstanceOf(InterruptedException.class, thrown.get());
        assertFalse(gated.isDone());
        release("i", 1);
        assertTrue(gated.await(30, TimeUnit.SECONDS));
    }

    @Test
    void submittersThatNeverWaitStillGetRoomAtTheBound() throws Exception {
        for (Thread.Builder builder : List.of(Thread.ofPlatform(), Thread.ofVirtual())) {
            List<IoRequest> all = new ArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread submitter = builder.start(() -> {
                try {
                    for (int i = 0; i < 500; i++) {
                        all.add(engine.submit(IoOperation.nop()));   // 8 in flight at most: admission must reap
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            submitter.join(60_000);
            assertFalse(submitter.isAlive());
            assertNull(failure.get());
            assertTrue(IoRequests.awaitAll(all, TimeUnit.SECONDS.toNanos(30)));
        }
    }
}
