package org.hpio.internal.io;

import org.hpio.testing.NativeCalls;
import org.hpio.internal.sys.Errno;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The contract every {@link IoEngine} keeps; one subclass per engine. */
abstract class EngineContractTest {
    @TempDir
    Path dir;
    Arena arena;
    IoEngine engine;

    abstract IoEngine open(EngineConfig config) throws IOException;

    @BeforeEach
    void start() throws IOException {
        arena = Arena.ofShared();
        engine = open(EngineConfig.defaults().withMaxInFlight(64));
    }

    @AfterEach
    void stop() throws IOException {
        if (engine != null) {   // null when start() was skipped (an engine this kernel refuses)
            engine.close();
            assertEquals(0, engine.inFlight());
        }
        arena.close();
    }

    static byte[] randomBytes(Random random, int n) {
        byte[] bytes = new byte[n];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Writes {@code n} random bytes (from {@code seed}) to {@code path}, replacing it; returns them. */
    static byte[] writeRandomFile(Path path, long seed, int n) throws IOException {
        byte[] contents = randomBytes(new Random(seed), n);
        Files.write(path, contents);
        return contents;
    }

    MemorySegment buffer(byte[] contents) {
        MemorySegment segment = arena.allocate(Math.max(1, contents.length), 4096).asSlice(0, contents.length);
        MemorySegment.copy(contents, 0, segment, JAVA_BYTE, 0, contents.length);
        return segment;
    }

    static long await(IoRequest request) throws Exception {
        assertTrue(request.await(30, TimeUnit.SECONDS), "request did not complete: " + request);
        return request.resultOrThrow();
    }

    @Test
    void roundTripsAtOddSizesAndOffsets() throws Exception {
        Path path = dir.resolve("odd");
        Random random = new Random(42);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDWR | Syscalls.O_CREAT)) {
            for (int i = 0; i < 40; i++) {
                int size = 1 + random.nextInt(200_000);
                long offset = random.nextInt(3_000_000);
                byte[] data = randomBytes(random, size);
                assertEquals(size, await(engine.submit(IoOperation.write(file, buffer(data), offset))));
                MemorySegment back = arena.allocate(size);
                assertEquals(size, await(engine.submit(IoOperation.read(file, back, offset))));
                assertArrayEquals(data, back.toArray(JAVA_BYTE), "size " + size + " at " + offset);
            }
        }
    }

    @Test
    void shortReadsAtTheEndOfTheFileAreReportedAsSuch() throws Exception {
        Path path = dir.resolve("short");
        Files.write(path, new byte[1000]);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY)) {
            assertEquals(100, await(engine.submit(IoOperation.read(file, arena.allocate(4096), 900))));
            assertEquals(0, await(engine.submit(IoOperation.read(file, arena.allocate(4096), 1000))));
            assertEquals(0, await(engine.submit(IoOperation.read(file, arena.allocate(4096), 5000))));
        }
    }

    @Test
    void zeroLengthTransfersAndNopsComplete() throws Exception {
        Path path = dir.resolve("zero");
        Files.write(path, new byte[10]);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDWR)) {
            assertEquals(0, await(engine.submit(IoOperation.read(file, arena.allocate(0), 0))));
            assertEquals(0, await(engine.submit(IoOperation.write(file, arena.allocate(0), 0))));
            assertEquals(0, await(engine.submit(IoOperation.nop())));
            assertEquals(0, await(engine.submit(IoOperation.fsync(file, true))));
            assertEquals(0, await(engine.submit(IoOperation.fsync(file, false))));
        }
        assertEquals(10, Files.size(path));
    }

    @Test
    void offsetsPastFourGibibytesOnASparseFile() throws Exception {
        Path path = dir.resolve("sparse");
        long far = (5L << 30) + 123;
        byte[] data = randomBytes(new Random(7), 5000);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDWR | Syscalls.O_CREAT)) {
            assertEquals(data.length, await(engine.submit(IoOperation.write(file, buffer(data), far))));
            MemorySegment back = arena.allocate(data.length);
            assertEquals(data.length, await(engine.submit(IoOperation.read(file, back, far))));
            assertArrayEquals(data, back.toArray(JAVA_BYTE));
        }
        assertEquals(far + data.length, Files.size(path));
        try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "r")) {
            byte[] jdk = new byte[data.length];
            raf.seek(far);
            raf.readFully(jdk);
            assertArrayEquals(data, jdk, "the JDK reads what the engine wrote");
        }
    }

    @Test
    void manyThreadsSubmitAtOnceAndEachCompletionReachesItsOwnRequest() throws Exception {
        Path path = dir.resolve("shared");
        int threads = 8;
        int perThread = 200;
        int block = 512;
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDWR | Syscalls.O_CREAT)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                futures.add(pool.submit(() -> {
                    try (Arena mine = Arena.ofConfined()) {
                        List<IoRequest> requests = new ArrayList<>();
                        for (int i = 0; i < perThread; i++) {
                            MemorySegment data = mine.allocate(block);
                            data.fill((byte) (id * perThread + i));
                            requests.add(engine.submit(IoOperation.write(file, data, (long) (id * perThread + i) * block)));
                        }
                        for (IoRequest r : requests) {
                            assertEquals(block, await(r));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
            // Batched reads: one submission for many.
            List<IoOperation> reads = new ArrayList<>();
            List<MemorySegment> buffers = new ArrayList<>();
            for (int i = 0; i < threads * perThread; i += 37) {
                MemorySegment b = arena.allocate(block);
                buffers.add(b);
                reads.add(IoOperation.read(file, b, (long) i * block));
            }
            List<IoRequest> done = engine.submitAll(reads);
            for (int k = 0; k < done.size(); k++) {
                assertEquals(block, await(done.get(k)));
                byte expected = (byte) (k * 37);
                MemorySegment b = buffers.get(k);
                for (long j = 0; j < block; j++) {
                    assertEquals(expected, b.get(JAVA_BYTE, j), "block " + k * 37);
                }
            }
        }
    }

    @Test
    void writeThenFsyncWritesEverythingAndReportsIt() throws Exception {
        Path path = dir.resolve("durable");
        byte[] data = randomBytes(new Random(3), 3 << 20);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDWR | Syscalls.O_CREAT)) {
            assertEquals(data.length, await(engine.submit(IoOperation.writeThenFsync(file, buffer(data), 4096, false))));
            assertEquals(data.length, await(engine.submit(IoOperation.writeThenFsync(file, buffer(data), 4096, true))));
        }
        byte[] back = Files.readAllBytes(path);
        assertEquals(4096 + data.length, back.length);
        assertArrayEquals(data, Arrays.copyOfRange(back, 4096, back.length));
    }

    @Test
    void errorsComeBackAsErrnoNamingTheOperation() throws Exception {
        Path path = dir.resolve("ro");
        Files.write(path, new byte[100]);
        try (NativeFile readOnly = NativeFile.open(path, Syscalls.O_RDONLY)) {
            IoRequest r = engine.submit(IoOperation.write(readOnly, buffer(new byte[10]), 0));
            assertTrue(r.await(10, TimeUnit.SECONDS));
            assertEquals(Errno.EBADF, r.errno());
            IOException e = assertThrows(IOException.class, r::resultOrThrow);
            assertTrue(e.getMessage().contains("EBADF") && e.getMessage().contains(path.toString()), e.getMessage());
        }
        try (NativeFile full = NativeFile.open(Path.of("/dev/full"), Syscalls.O_WRONLY)) {
            IoRequest r = engine.submit(IoOperation.write(full, buffer(new byte[4096]), 0));
            assertTrue(r.await(10, TimeUnit.SECONDS));
            assertEquals(Errno.ENOSPC, r.errno(), r.toString());
        }
    }

    @Test
    void unalignedDirectRequestsAreRefusedAtSubmissionWithAClearError() throws Exception {
        NativeCalls.assumeOn("O_DIRECT");
        Path path = dir.resolve("direct");
        Files.write(path, new byte[1 << 16]);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY | Syscalls.O_DIRECT)) {
            int align = file.directAlignment().offsetAlignment();
            MemorySegment aligned = arena.allocate(4096, 4096);
            assertEquals(4096, await(engine.submit(IoOperation.read(file, aligned, 0))));
            IOException offset = assertThrows(IOException.class,
                    () -> engine.submit(IoOperation.read(file, aligned, align / 2 + 1)));
            assertTrue(offset.getMessage().contains("offset"), offset.getMessage());
            IOException address = assertThrows(IOException.class,
                    () -> engine.submit(IoOperation.read(file, arena.allocate(8192, 4096).asSlice(1, 4096), 0)));
            assertTrue(address.getMessage().contains("address"), address.getMessage());
            assertEquals(0, engine.inFlight(), "nothing was submitted");
        }
    }

    @Test
    void cancelledRequestsCompleteAndCancelOfADoneRequestIsFalse() throws Exception {
        Path path = dir.resolve("cancel");
        Files.write(path, new byte[1 << 20]);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY)) {
            List<IoRequest> requests = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                requests.add(engine.submit(IoOperation.read(file, arena.allocate(4096), 4096L * i)));
            }
            requests.forEach(engine::cancel);
            for (IoRequest r : requests) {
                assertTrue(r.await(10, TimeUnit.SECONDS));
                assertTrue(r.errno() == 0 || r.errno() == Errno.ECANCELED, r.toString());
                assertEquals(r.errno() == Errno.ECANCELED, r.isCancelled());
                assertFalse(engine.cancel(r), "cancel of a done request");
            }
        }
    }

    @Test
    void aFailFastEngineRefusesBeyondItsBound() throws Exception {
        try (IoEngine small = open(EngineConfig.defaults().withMaxInFlight(2).withFailFast(true))) {
            // Fill the engine with requests that cannot finish until cancelled, then one more is refused.
            List<IoRequest> blockers = blockers(small, 2);
            assertThrows(EngineSaturatedException.class, () -> small.submit(IoOperation.nop()));
            blockers.forEach(small::cancel);
            for (IoRequest r : blockers) {
                assertTrue(r.await(10, TimeUnit.SECONDS));
            }
            assertEquals(0, await(small.submit(IoOperation.nop())));
        }
    }

    /**
     * A small bound under many virtual threads: each of an engine's few places (and io_uring's entry slots,
     * given back by completions and taken again by submitters without a common lock) is reused thousands of
     * times, while completions and submissions overlap; every read must still land its own block.
     */
    @Test
    void placesReusedThousandsOfTimesUnderConcurrentReadersEachReadGetsItsOwnBlock() throws Exception {
        Path path = dir.resolve("reused");
        int blocks = 256;
        byte[] data = writeRandomFile(path, 77, blocks * 512);
        try (IoEngine small = open(EngineConfig.defaults().withMaxInFlight(4));
             NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY);
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> readers = new ArrayList<>();
            for (int t = 0; t < 32; t++) {
                long seed = t;
                readers.add(threads.submit(() -> {
                    Random random = new Random(seed);
                    try (Arena mine = Arena.ofConfined()) {
                        MemorySegment into = mine.allocate(512);
                        for (int i = 0; i < 300; i++) {
                            int block = random.nextInt(blocks);
                            into.fill((byte) 0);
                            IoRequest read = small.submitToWait(IoOperation.read(file, into, block * 512L));
                            assertEquals(512, await(read), "block " + block);
                            assertArrayEquals(Arrays.copyOfRange(data, block * 512, (block + 1) * 512),
                                    into.toArray(JAVA_BYTE), "block " + block);
                        }
                    }
                    return 300;
                }));
            }
            int total = 0;
            for (Future<Integer> reader : readers) {
                total += reader.get(60, TimeUnit.SECONDS);
            }
            assertEquals(32 * 300, total);
            assertEquals(0, small.inFlight());
        }
    }

    @Test
    void submitToWaitBeyondTheBoundQueuesTheRequestsAndRunsEachInOrderAsPlacesFree() throws Exception {
        Path path = dir.resolve("queued");
        byte[] data = writeRandomFile(path, 33, 64 * 4096);
        try (IoEngine small = open(EngineConfig.defaults().withMaxInFlight(2));
             NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY);
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<byte[]>> reads = new ArrayList<>();
            int[] mostInFlight = new int[1];
            for (int i = 0; i < 64; i++) {
                int block = i;
                reads.add(threads.submit(() -> {
                    try (Arena mine = Arena.ofConfined()) {
                        MemorySegment into = mine.allocate(4096, 4096);
                        IoRequest read = small.submitToWait(IoOperation.read(file, into, block * 4096L));
                        synchronized (mostInFlight) {
                            mostInFlight[0] = Math.max(mostInFlight[0], small.inFlight());
                        }
                        assertEquals(4096, await(read));
                        return into.toArray(JAVA_BYTE);
                    }
                }));
            }
            for (int i = 0; i < 64; i++) {
                assertArrayEquals(Arrays.copyOfRange(data, i * 4096, (i + 1) * 4096), reads.get(i).get(30, TimeUnit.SECONDS),
                        "block " + i);
            }
            assertTrue(mostInFlight[0] <= 2, "at most the bound in flight, saw " + mostInFlight[0]);
            assertEquals(0, small.inFlight());
        }
    }

    @Test
    void aRequestQueuedForAPlaceCanBeCancelledAndCloseCancelsTheOthers() throws Exception {
        Blocked blocked = blocked(EngineConfig.defaults().withMaxInFlight(1), 1);
        IoEngine small = blocked.engine();
        try {
            List<IoRequest> blockers = blocked.requests();
            IoRequest queued = small.submitToWait(IoOperation.nop());
            IoRequest another = small.submitToWait(IoOperation.nop());
            assertFalse(queued.isDone(), "no place for it yet");
            assertEquals(1, small.inFlight(), "a queued request takes no place");
            assertTrue(small.cancel(queued));
            assertTrue(queued.await(10, TimeUnit.SECONDS));
            assertEquals(Errno.ECANCELED, queued.errno());
            assertFalse(another.isDone(), "the other stays queued");
            small.close();
            assertTrue(another.isDone(), "close completed the queued request");
            assertEquals(Errno.ECANCELED, another.errno());
            for (IoRequest r : blockers) {
                assertTrue(r.isDone());
            }
            assertThrows(IOException.class, () -> small.submitToWait(IoOperation.nop()));
        } finally {
            small.close();
        }
    }

    @Test
    void aWaitingCallersReadThatCannotBeDoneAtOnceTakesItsTurnInTheQueueInsteadOfWaitingForRoom() throws Exception {
        Path path = dir.resolve("uncached");
        writeRandomFile(path, 11, 8192);
        try (NativeFile f = NativeFile.open(path, Syscalls.O_RDONLY)) {
            f.force(false);
            f.advise(Syscalls.POSIX_FADV_DONTNEED);   // so that the read cannot be done at once (RWF_NOWAIT)
        }
        Blocked blocked = blocked(EngineConfig.defaults().withMaxInFlight(1), 1);
        try (IoEngine small = blocked.engine(); NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY)) {
            IoRequest first = small.submitToWait(IoOperation.nop());
            MemorySegment into = arena.allocate(4096);
            // The engine is full and a request is queued: the call must queue this one behind it, not wait here.
            IoRequest read = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> small.readNowOrSubmitToWait(IoOperation.read(file, into, 4096)));
            if (read.isDone()) {   // the page came back into the cache (readahead of another test?): nothing queued
                assertEquals(4096, read.resultOrThrow());
                return;
            }
            assertEquals(1, small.inFlight(), "queued requests take no place");
            assertFalse(first.isDone());
            assertTrue(small.cancel(read), "still queued, so cancelled at once");
            assertTrue(read.await(10, TimeUnit.SECONDS));
            assertEquals(Errno.ECANCELED, read.errno());
            assertFalse(first.isDone(), "the request queued before it stays queued");
        }
    }

    /** Cancels {@code request} (which must still be cancellable) and waits until it completed. */
    static void cancelAndAwait(IoEngine on, IoRequest request) throws InterruptedException {
        assertTrue(on.cancel(request), "not cancellable: " + request);
        assertTrue(request.await(30, TimeUnit.SECONDS), "cancelled but not completed: " + request);
    }

    /** A thread of {@code kind} calling {@code submit}, started now; returns once its call queues for a place. */
    static FutureTask<IoRequest> startQueued(Thread.Builder kind, IoEngine on, Callable<IoRequest> submit,
                                             int queuedWithIt) throws InterruptedException {
        FutureTask<IoRequest> call = new FutureTask<>(submit);
        kind.start(call);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (((EngineBase<?>) on).queuedForPlace() < queuedWithIt && !call.isDone()) {
            assertTrue(System.nanoTime() < deadline, "the call did not queue for a place");
            Thread.sleep(1);
        }
        assertFalse(call.isDone(), "the call did not wait for a place");
        return call;
    }

    @Test
    void aThreadWaitingForAPlaceTakesItsTurnWithTheQueuedRequests() throws Exception {
        for (Thread.Builder kind : List.of(Thread.ofVirtual(), Thread.ofPlatform().daemon())) {
            Blocked blocked = blocked(EngineConfig.defaults().withMaxInFlight(1), 1);
            try (IoEngine small = blocked.engine()) {
                IoRequest before = small.submitToWait(stuck());
                IoOperation op = stuck();
                FutureTask<IoRequest> waiting = startQueued(kind, small, () -> small.submit(op), 2);
                IoRequest after = small.submitToWait(stuck());
                for (IoRequest r : blocked.requests()) {
                    cancelAndAwait(small, r);
                }
                assertFalse(before.isDone(), "the first in line took the place freed");
                cancelAndAwait(small, before);
                // The next place freed is the waiting thread's: before this change the request queued after it
                // took every one, and the thread waited for as long as requests kept coming.
                IoRequest mine = waiting.get(30, TimeUnit.SECONDS);
                assertFalse(mine.isDone());
                assertFalse(after.isDone(), "the request queued after the thread must still wait");
                assertEquals(1, small.inFlight());
                cancelAndAwait(small, mine);
                assertEquals(Errno.ECANCELED, mine.errno());
                cancelAndAwait(small, after);
            }
        }
    }

    @Test
    void aThreadInterruptedWhileWaitingForAPlaceGivesUpItsTurnAndHoldsNothing() throws Exception {
        Blocked blocked = blocked(EngineConfig.defaults().withMaxInFlight(1), 1);
        try (IoEngine small = blocked.engine()) {
            IoOperation op = stuck();
            boolean[] stillInterrupted = new boolean[1];
            Thread[] waiter = new Thread[1];
            FutureTask<IoRequest> waiting = startQueued(Thread.ofVirtual(), small, () -> {
                waiter[0] = Thread.currentThread();
                try {
                    return small.submit(op);
                } finally {
                    stillInterrupted[0] = Thread.currentThread().isInterrupted();
                }
            }, 1);
            IoRequest after = small.submitToWait(stuck());
            waiter[0].interrupt();
            ExecutionException failed = assertThrows(ExecutionException.class, () -> waiting.get(30, TimeUnit.SECONDS));
            assertInstanceOf(InterruptedIOException.class, failed.getCause());
            assertTrue(failed.getCause().getMessage().contains("waiting for room"), failed.getCause().getMessage());
            assertTrue(stillInterrupted[0], "the interrupt status is kept");
            assertEquals(1, ((EngineBase<?>) small).queuedForPlace(), "the thread left the queue");
            for (IoRequest r : blocked.requests()) {
                cancelAndAwait(small, r);
            }
            assertEquals(1, small.inFlight(), "the place went to the request queued after the thread");
            assertFalse(after.isDone());
            cancelAndAwait(small, after);
            assertEquals(0, small.inFlight());
        }
    }

    @Test
    void closeRefusesTheThreadsWaitingForAPlace() throws Exception {
        Blocked blocked = blocked(EngineConfig.defaults().withMaxInFlight(1), 1);
        IoEngine small = blocked.engine();
        try {
            IoOperation op = stuck();
            FutureTask<IoRequest> waiting = startQueued(Thread.ofPlatform().daemon(), small, () -> small.submit(op), 1);
            small.close();
            ExecutionException failed = assertThrows(ExecutionException.class, () -> waiting.get(30, TimeUnit.SECONDS));
            assertInstanceOf(IOException.class, failed.getCause());
            assertTrue(failed.getCause().getMessage().contains("closed"), failed.getCause().getMessage());
            assertEquals(0, small.inFlight());
            assertEquals(0, ((EngineBase<?>) small).queuedForPlace());
        } finally {
            small.close();
        }
    }

    @Test
    void cancelAllCancelsTheFilesRequestsInFlightAndQueuedAndNoOther() throws Exception {
        Blocked blocked = blocked(EngineConfig.defaults().withMaxInFlight(2), 1);
        try (IoEngine small = blocked.engine()) {
            IoOperation first = stuck();
            NativeFile file = first.file();
            IoRequest inFlight = small.submit(first);
            IoRequest queued = small.submitToWait(IoOperation.read(file, arena.allocate(64), 0));
            IoRequest another = small.submitToWait(stuck());
            assertFalse(queued.isDone(), "no place for it yet");
            assertEquals(2, small.cancelAll(file));
            for (IoRequest r : List.of(inFlight, queued)) {
                assertTrue(r.await(30, TimeUnit.SECONDS), r.toString());
                assertEquals(Errno.ECANCELED, r.errno(), r.toString());
            }
            assertFalse(another.isDone(), "another file's request is left alone (it took the place freed)");
            assertEquals(2, small.inFlight());
            assertEquals(0, small.cancelAll(file), "nothing of the file is left");
            for (IoRequest r : blocked.requests()) {
                assertFalse(r.isDone());
                assertTrue(small.cancel(r));
            }
            cancelAndAwait(small, another);
        }
    }

    @Test
    void aQueuedRequestTakesTheFirstPlaceFreed() throws Exception {
        Blocked blocked = blocked(EngineConfig.defaults().withMaxInFlight(1), 1);
        try (IoEngine small = blocked.engine()) {
            List<IoRequest> blockers = blocked.requests();
            IoRequest queued = small.submitToWait(IoOperation.nop());
            assertFalse(queued.isDone());
            blockers.forEach(small::cancel);
            for (IoRequest r : blockers) {
                assertTrue(r.await(10, TimeUnit.SECONDS));
            }
            // It took the freed place: it is in flight now (a gated pool's workers never run it) or already done.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!queued.isDone() && small.inFlight() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertTrue(queued.isDone() || small.inFlight() == 1, "the queued request did not take the freed place");
        }
    }

    @Test
    void closeWithRequestsInFlightCancelsAndWaitsForThem() throws Exception {
        IoEngine other = open(EngineConfig.defaults().withMaxInFlight(8));
        List<IoRequest> blockers = blockers(other, 4);
        other.close();
        for (IoRequest r : blockers) {
            assertTrue(r.isDone(), "close returned before " + r + " completed");
        }
        assertEquals(0, other.inFlight());
        assertThrows(IOException.class, () -> other.submit(IoOperation.nop()));
    }

    /**
     * {@code n} requests that stay in flight until cancelled or their engine closes: each engine's subclass
     * knows how to make them.
     */
    abstract List<IoRequest> blockers(IoEngine on, int n) throws Exception;

    /** An operation that stays in flight until cancelled, on the engine of {@link #blocked}. */
    abstract IoOperation stuck() throws Exception;

    /** An engine opened with {@code config} and {@code n} of its requests that stay in flight until cancelled. */
    record Blocked(IoEngine engine, List<IoRequest> requests) {
    }

    Blocked blocked(EngineConfig config, int n) throws Exception {
        IoEngine on = open(config);
        return new Blocked(on, blockers(on, n));
    }

    @Test
    void closingEnginesLeaksNoDescriptors() throws Exception {
        long before = openDescriptors();
        for (int i = 0; i < 20; i++) {
            try (IoEngine e = open(EngineConfig.defaults())) {
                assertNotNull(e.name());
                assertEquals(0, await(e.submit(IoOperation.nop())));
            }
        }
        assertEquals(before, openDescriptors());
    }

    static long openDescriptors() throws IOException {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    @Test
    void performDoesTheOperationOnTheCallingThreadAndReturnsItDone() throws Exception {
        Path path = dir.resolve("perform");
        byte[] data = randomBytes(new Random(21), 4096);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDWR | Syscalls.O_CREAT)) {
            IoRequest write = engine.perform(IoOperation.write(file, buffer(data), 100));
            assertTrue(write.isDone(), "done when perform returns");
            assertEquals(4096, write.resultOrThrow());
            assertEquals(0, engine.inFlight(), "its place in flight is back");
            boolean[] ran = new boolean[1];
            write.whenDone(() -> ran[0] = true);
            assertTrue(ran[0], "a listener set afterwards runs at once");
            MemorySegment back = arena.allocate(4096);
            assertEquals(4096, engine.perform(IoOperation.read(file, back, 100)).resultOrThrow());
            assertArrayEquals(data, back.toArray(JAVA_BYTE));
            assertEquals(0, engine.perform(IoOperation.fsync(file, false)).resultOrThrow());
        }
        assertEquals(4196, Files.size(path));
    }

    @Test
    void performPassesTheFaultHookOnceAndSurfacesWhatItDecides() throws Exception {
        Path path = dir.resolve("perform-faults");
        FaultInjector eio = FaultInjector.countdown(FaultInjector.Kind.EIO, FaultInjector.Mode.ONCE, 1);
        FaultInjector shortOne = FaultInjector.countdown(FaultInjector.Kind.SHORT, FaultInjector.Mode.ONCE, 1);
        FaultInjector refuse = FaultInjector.countdown(FaultInjector.Kind.EINTR_ON_SUBMIT, FaultInjector.Mode.ONCE, 1);
        try (IoEngine failing = open(EngineConfig.defaults().withFaults(eio));
             IoEngine shortening = open(EngineConfig.defaults().withFaults(shortOne));
             IoEngine refusing = open(EngineConfig.defaults().withFaults(refuse));
             NativeFile file = NativeFile.open(path, Syscalls.O_RDWR | Syscalls.O_CREAT)) {
            IoRequest failed = failing.perform(IoOperation.write(file, buffer(new byte[4096]), 0));
            assertEquals(Errno.EIO, failed.errno());
            assertEquals(0, Files.size(path), "an injected failure does no I/O");
            IoRequest shortened = shortening.perform(IoOperation.write(file, buffer(new byte[4096]), 0));
            assertEquals(2048, shortened.resultOrThrow(), "reported short, as the kernel would");
            assertThrows(IOException.class, () -> refusing.perform(IoOperation.write(file, buffer(new byte[4096]), 0)));
            assertEquals(0, refusing.inFlight(), "a refused operation holds nothing");
            assertEquals(1, eio.operations());
            assertEquals(1, shortOne.operations());
            assertEquals(1, refuse.operations());
        }
    }

    @Test
    void performOfARealFailureCompletesWithTheErrno() throws Exception {
        try (NativeFile full = NativeFile.open(Path.of("/dev/full"), Syscalls.O_RDWR)) {
            IoRequest r = engine.perform(IoOperation.write(full, buffer(new byte[4096]), 0));
            assertEquals(Errno.ENOSPC, r.errno());
            assertEquals(0, engine.inFlight());
        }
    }

    @Test
    void readNowOrSubmitReadsCachedDataAtOnceAndHandsTheRestToTheEngine() throws Exception {
        NativeCalls.assumeOn("a read without waiting (preadv2 RWF_NOWAIT)");
        Path path = dir.resolve("read-now");
        byte[] data = writeRandomFile(path, 23, 8192);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY)) {
            MemorySegment back = arena.allocate(4096);
            IoRequest cached = engine.readNowOrSubmit(IoOperation.read(file, back, 4096));
            assertTrue(cached.isDone(), "cached: done when the call returns");
            assertEquals(4096, cached.resultOrThrow());
            assertArrayEquals(Arrays.copyOfRange(data, 4096, 8192), back.toArray(JAVA_BYTE));
            IoRequest atTheEnd = engine.readNowOrSubmit(IoOperation.read(file, arena.allocate(4096), 8092));
            assertEquals(100, await(atTheEnd), "short at the end of the file, reported as such");
            assertThrows(IllegalArgumentException.class,
                    () -> engine.readNowOrSubmit(IoOperation.write(file, buffer(new byte[1]), 0)));
            assertEquals(0, engine.inFlight());
        }
    }
    /**
     * A cached read done at once takes no place in flight: with every place taken by requests that do not
     * finish, it still completes in the call instead of waiting for a place behind them.
     */
    @Test
    void aCachedReadDoneAtOnceDoesNotWaitBehindAFullEngine() throws Exception {
        NativeCalls.assumeOn("a read without waiting (preadv2 RWF_NOWAIT)");
        Path path = dir.resolve("read-now-full");
        byte[] data = writeRandomFile(path, 29, 8192);
        Blocked blocked = blocked(EngineConfig.defaults().withMaxInFlight(1), 1);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (IoEngine full = blocked.engine(); NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY)) {
            MemorySegment back = arena.allocate(4096);
            Future<IoRequest> read = thread.submit(() -> full.readNowOrSubmit(IoOperation.read(file, back, 4096)));
            IoRequest done = read.get(30, TimeUnit.SECONDS);   // a hang guard, not a timing: it never waits
            assertTrue(done.isDone(), "done when the call returns");
            assertEquals(4096, done.resultOrThrow());
            assertArrayEquals(Arrays.copyOfRange(data, 4096, 8192), back.toArray(JAVA_BYTE));
            assertEquals(1, full.inFlight(), "it took no place");
            blocked.requests().forEach(full::cancel);
        } finally {
            thread.shutdownNow();
        }
    }

    @Test
    void aBatchOfMoreOperationsThanPlacesIsSubmittedInTurn() throws Exception {
        try (IoEngine onePlace = open(EngineConfig.defaults().withMaxInFlight(1))) {
            List<IoRequest> requests = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> onePlace.submitAll(List.of(IoOperation.nop(), IoOperation.nop(), IoOperation.nop())));
            assertEquals(3, requests.size());
            assertTrue(IoRequests.awaitAll(requests, TimeUnit.SECONDS.toNanos(30)));
            for (IoRequest r : requests) {
                assertEquals(0, r.errno());
            }
            assertEquals(0, onePlace.inFlight());
        }
    }
}
