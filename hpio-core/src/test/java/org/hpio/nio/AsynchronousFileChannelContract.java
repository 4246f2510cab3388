package org.hpio.nio;

import org.hpio.internal.io.EngineConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.ShutdownChannelGroupException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.nio.file.StandardOpenOption.APPEND;
import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.DSYNC;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.SYNC;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * AsynchronousFileChannel's Javadoc as tests, run on the JDK's channel and on hpio's on each engine (one
 * subclass each): any difference from the JDK fails here.
 */
abstract class AsynchronousFileChannelContract {
    @TempDir
    Path dir;
    Path file;
    Implementation.Running running;
    ExecutorService handlers;

    abstract Implementation implementation();

    @BeforeEach
    void start() throws Exception {
        running = implementation().start(EngineConfig.defaults());
        handlers = Executors.newFixedThreadPool(2, r -> Thread.ofPlatform().daemon().name("test-handler").unstarted(r));
        file = dir.resolve("data.bin");
        Files.write(file, FileChannelContract.bytes(0, 10_000));
    }

    @AfterEach
    void stop() throws Exception {
        running.close();
        handlers.shutdownNow();
    }

    AsynchronousFileChannel open(Path path, OpenOption... options) throws Exception {
        return open(running, path, options);
    }

    AsynchronousFileChannel open(Implementation.Running on, Path path, OpenOption... options) throws Exception {
        AsynchronousFileChannel channel = on.opener().openAsync(path, Set.of(options), handlers);
        if (implementation() != Implementation.JDK) {
            assertTrue(HpioChannels.isHpio(channel), "served by hpio: " + channel);
        }
        return channel;
    }

    /** A handler completing a future with the result, the failure and the thread it ran on. */
    static final class Recorder<A> implements CompletionHandler<Integer, A> {
        final CompletableFuture<Integer> result = new CompletableFuture<>();
        volatile Thread thread;
        volatile A attachment;

        @Override
        public void completed(Integer value, A a) {
            thread = Thread.currentThread();
            attachment = a;
            result.complete(value);
        }

        @Override
        public void failed(Throwable exc, A a) {
            thread = Thread.currentThread();
            attachment = a;
            result.completeExceptionally(exc);
        }

        Throwable failure() throws InterruptedException {
            try {
                result.get(30, TimeUnit.SECONDS);
                return null;
            } catch (ExecutionException e) {
                return e.getCause();
            } catch (TimeoutException e) {
                throw new AssertionError("the handler never ran", e);
            }
        }
    }

    static Throwable causeOf(Future<?> future) throws Exception {
        try {
            future.get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    // ---- Future forms ----

    @Test
    void futureReadFillsHeapAndDirectBuffersUpdatingOnlyTheirPositions() throws Exception {
        try (AsynchronousFileChannel ch = open(file, READ)) {
            for (ByteBuffer dst : new ByteBuffer[] {ByteBuffer.allocate(100), ByteBuffer.allocateDirect(100)}) {
                dst.position(10).limit(60);
                assertEquals(50, ch.read(dst, 1000).get());
                assertEquals(60, dst.position());
                assertEquals(60, dst.limit());
                byte[] got = new byte[50];
                dst.position(10);
                dst.get(got);
                assertArrayEquals(FileChannelContract.bytes(1000, 50), got);
            }
        }
    }

    /** 003's polling loop: a future only ever asked isDone becomes done, its buffer filled, without get. */
    @Test
    void aFutureOnlyPolledWithIsDoneCompletes() throws Exception {
        try (AsynchronousFileChannel ch = open(file, READ)) {
            for (ByteBuffer dst : new ByteBuffer[] {ByteBuffer.allocate(100), ByteBuffer.allocateDirect(100)}) {
                Future<Integer> f = ch.read(dst, 9_950);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!f.isDone()) {
                    assertTrue(System.nanoTime() < deadline, "the future never became done");
                    Thread.onSpinWait();
                }
                assertEquals(50, dst.position());
                assertEquals(50, f.get(0, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void futureReadAtTheEndIsMinusOneAndWithNothingRemainingZero() throws Exception {
        try (AsynchronousFileChannel ch = open(file, READ)) {
            ByteBuffer dst = ByteBuffer.allocate(100);
            assertEquals(10, ch.read(dst, 9_990).get());
            assertEquals(-1, ch.read(ByteBuffer.allocate(10), 10_000).get());
            assertEquals(-1, ch.read(ByteBuffer.allocate(10), 50_000).get());
            assertEquals(0, ch.read(ByteBuffer.allocate(0), 0).get());
        }
    }

    @Test
    void futureWriteFromHeapDirectAndReadOnlyBuffers() throws Exception {
        try (AsynchronousFileChannel ch = open(file, READ, WRITE)) {
            ByteBuffer heap = ByteBuffer.wrap(FileChannelContract.bytes(7, 64)).position(4);
            ByteBuffer direct = ByteBuffer.allocateDirect(64).put(FileChannelContract.bytes(9, 64)).flip();
            ByteBuffer readOnly = ByteBuffer.wrap(FileChannelContract.bytes(11, 8)).asReadOnlyBuffer();
            assertEquals(60, ch.write(heap, 100).get());
            assertEquals(64, heap.position());
            assertEquals(64, ch.write(direct, 12_000).get());
            assertEquals(64, direct.position());
            assertEquals(8, ch.write(readOnly, 0).get());
            assertEquals(8, readOnly.position());
            assertEquals(0, ch.write(ByteBuffer.allocate(0), 0).get());
            assertEquals(12_064, ch.size());
        }
        byte[] all = Files.readAllBytes(file);
        assertArrayEquals(Arrays.copyOfRange(FileChannelContract.bytes(7, 64), 4, 64), Arrays.copyOfRange(all, 100, 160));
        assertArrayEquals(FileChannelContract.bytes(9, 64), Arrays.copyOfRange(all, 12_000, 12_064));
        assertArrayEquals(new byte[100], Arrays.copyOfRange(all, 10_100, 10_200));
    }

    // ---- CompletionHandler forms ----

    @Test
    void handlersRunOnTheGivenExecutorWithTheirAttachment() throws Exception {
        try (AsynchronousFileChannel ch = open(file, READ, WRITE)) {
            Recorder<String> write = new Recorder<>();
            ByteBuffer src = ByteBuffer.wrap(FileChannelContract.bytes(3, 500));
            ch.write(src, 20_000, "w", write);
            assertEquals(500, write.result.get(30, TimeUnit.SECONDS));
            assertEquals("w", write.attachment);
            assertEquals("test-handler", write.thread.getName());
            assertEquals(500, src.position());

            Recorder<String> read = new Recorder<>();
            ByteBuffer dst = ByteBuffer.allocate(600);
            ch.read(dst, 20_000, "r", read);
            assertEquals(500, read.result.get(30, TimeUnit.SECONDS));
            assertEquals("r", read.attachment);
            assertEquals("test-handler", read.thread.getName());
            assertEquals(500, dst.position());
            assertArrayEquals(FileChannelContract.bytes(3, 500), Arrays.copyOf(dst.array(), 500));

            Recorder<Object> end = new Recorder<>();
            ch.read(ByteBuffer.allocate(4), 30_000, null, end);
            assertEquals(-1, end.result.get(30, TimeUnit.SECONDS));
            assertNull(end.attachment);
        }
    }

    @Test
    void aHandlerRunsOnAnotherThreadEvenWhenNothingIsToBeDone() throws Exception {
        try (AsynchronousFileChannel ch = open(file, READ)) {
            Recorder<Object> r = new Recorder<>();
            ch.read(ByteBuffer.allocate(0), 0, null, r);
            assertEquals(0, r.result.get(30, TimeUnit.SECONDS));
            assertEquals("test-handler", r.thread.getName());
        }
    }

    @Test
    void manyConcurrentHandlerWritesAllLandByteForByte() throws Exception {
        int n = 400;
        int size = 16_384;
        try (AsynchronousFileChannel ch = open(dir.resolve("many"), CREATE, READ, WRITE)) {
            List<Recorder<Integer>> recorders = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Recorder<Integer> r = new Recorder<>();
                ch.write(ByteBuffer.wrap(FileChannelContract.bytes(i * size, size)), (long) i * size, i, r);
                recorders.add(r);
            }
            for (Recorder<Integer> r : recorders) {
                assertEquals(size, r.result.get(60, TimeUnit.SECONDS));
            }
            ByteBuffer back = ByteBuffer.allocate(n * size);
            while (back.hasRemaining()) {
                assertTrue(ch.read(back, back.position()).get() > 0);
            }
            assertArrayEquals(FileChannelContract.bytes(0, n * size), back.array());
        }
    }

    // ---- exceptions ----

    @Test
    void negativePositionsAreIllegalInEveryForm() throws Exception {
        try (AsynchronousFileChannel ch = open(file, READ, WRITE)) {
            Recorder<Object> r = new Recorder<>();
            assertThrows(IllegalArgumentException.class, () -> ch.read(ByteBuffer.allocate(1), -1));
            assertThrows(IllegalArgumentException.class, () -> ch.write(ByteBuffer.allocate(1), -1));
            assertThrows(IllegalArgumentException.class, () -> ch.read(ByteBuffer.allocate(1), -1, null, r));
            assertThrows(IllegalArgumentException.class, () -> ch.write(ByteBuffer.allocate(1), -1, null, r));
            assertThrows(IllegalArgumentException.class, () -> ch.truncate(-1));
            assertThrows(IllegalArgumentException.class, () -> ch.lock(-1, 1, false));
            assertThrows(IllegalArgumentException.class, () -> ch.tryLock(0, -1, false));
        }
    }

    @Test
    void nullBuffersAndHandlersAreNullPointers() throws Exception {
        try (AsynchronousFileChannel ch = open(file, READ, WRITE)) {
            assertThrows(NullPointerException.class, () -> ch.read(null, 0));
            assertThrows(NullPointerException.class, () -> ch.write(null, 0));
            assertThrows(NullPointerException.class, () -> ch.read(ByteBuffer.allocate(1), 0, null, null));
            assertThrows(NullPointerException.class, () -> ch.write(ByteBuffer.allocate(1), 0, null, null));
        }
    }

    @Test
    void readingIntoAReadOnlyBufferIsIllegal() throws Exception {
        try (AsynchronousFileChannel ch = open(file, READ)) {
            ByteBuffer readOnly = ByteBuffer.allocate(4).asReadOnlyBuffer();
            assertThrows(IllegalArgumentException.class, () -> ch.read(readOnly, 0));
            assertThrows(IllegalArgumentException.class, () -> ch.read(readOnly, 0, null, new Recorder<>()));
        }
    }

    @Test
    void aWriteOnlyChannelCannotReadAndAReadOnlyOneCannotWrite() throws Exception {
        try (AsynchronousFileChannel w = open(file, WRITE)) {
            assertThrows(NonReadableChannelException.class, () -> w.read(ByteBuffer.allocate(1), 0));
            assertThrows(NonReadableChannelException.class, () -> w.read(ByteBuffer.allocate(1), 0, null, new Recorder<>()));
            assertThrows(NonReadableChannelException.class, () -> w.lock(0, 1, true));
        }
        try (AsynchronousFileChannel r = open(file, READ)) {
            assertThrows(NonWritableChannelException.class, () -> r.write(ByteBuffer.allocate(1), 0));
            assertThrows(NonWritableChannelException.class, () -> r.write(ByteBuffer.allocate(1), 0, null, new Recorder<>()));
            assertThrows(NonWritableChannelException.class, () -> r.truncate(0));
            assertThrows(NonWritableChannelException.class, () -> r.lock(0, 1, false));
            assertThrows(NonWritableChannelException.class, () -> r.tryLock());
        }
    }

    @Test
    void aClosedChannelFailsReadsAndWritesThroughTheFutureOrHandler() throws Exception {
        AsynchronousFileChannel ch = open(file, READ, WRITE);
        ch.close();
        ch.close();
        assertFalse(ch.isOpen());
        assertInstanceOf(ClosedChannelException.class, causeOf(ch.read(ByteBuffer.allocate(1), 0)));
        assertInstanceOf(ClosedChannelException.class, causeOf(ch.write(ByteBuffer.allocate(1), 0)));
        Recorder<Object> r = new Recorder<>();
        ch.read(ByteBuffer.allocate(1), 0, null, r);
        assertInstanceOf(ClosedChannelException.class, r.failure());
        assertEquals("test-handler", r.thread.getName());
        Recorder<Object> w = new Recorder<>();
        ch.write(ByteBuffer.allocate(1), 0, null, w);
        assertInstanceOf(ClosedChannelException.class, w.failure());
        assertThrows(ClosedChannelException.class, ch::size);
        assertThrows(ClosedChannelException.class, () -> ch.truncate(0));
        assertThrows(ClosedChannelException.class, () -> ch.force(true));
        assertThrows(ClosedChannelException.class, () -> ch.tryLock());
        assertInstanceOf(ClosedChannelException.class, causeOf(ch.lock()));
    }

    @Test
    void operationsPendingAtCloseFailWithAsynchronousCloseExceptionAndLeaveTheirBuffers() throws Exception {
        try (Implementation.Running held = implementation().startHeld(EngineConfig.defaults())) {
            AsynchronousFileChannel ch = open(held, file, READ, WRITE);
            ByteBuffer dst = ByteBuffer.allocate(10);
            Future<Integer> read = ch.read(dst, 9_995);   // runs into the end: never done at once from the page cache
            Recorder<Object> write = new Recorder<>();
            ByteBuffer src = ByteBuffer.wrap(new byte[10]);
            ch.write(src, 0, null, write);
            assertFalse(read.isDone());
            ch.close();
            held.release().run();
            assertInstanceOf(AsynchronousCloseException.class, causeOf(read));
            assertInstanceOf(AsynchronousCloseException.class, write.failure());
            assertEquals(0, dst.position());
            assertEquals(0, src.position());
        }
    }

    @Test
    void cancellingAPendingFutureCancelsItAndAForcefulCancelClosesTheChannel() throws Exception {
        try (Implementation.Running held = implementation().startHeld(EngineConfig.defaults())) {
            AsynchronousFileChannel ch = open(held, file, READ, WRITE);
            Future<Integer> gentle = ch.read(ByteBuffer.allocate(10), 9_995);
            assertTrue(gentle.cancel(false));
            assertTrue(gentle.isCancelled());
            assertTrue(gentle.isDone());
            assertThrows(CancellationException.class, gentle::get);
            assertFalse(gentle.cancel(false), "already cancelled");
            assertTrue(ch.isOpen(), "cancel(false) leaves the channel open");
            Future<Integer> forceful = ch.read(ByteBuffer.allocate(10), 9_995);
            assertTrue(forceful.cancel(true));
            assertTrue(forceful.isCancelled());
            assertFalse(ch.isOpen(), "cancel(true) closes the channel");
            held.release().run();
        }
    }

    @Test
    void openHasTheJdksRules() throws Exception {
        assertThrows(NoSuchFileException.class, () -> open(dir.resolve("missing"), READ));
        assertThrows(UnsupportedOperationException.class, () -> open(file, WRITE, APPEND));
    }

    // ---- size, truncate, force, sync options ----

    @Test
    void sizeTruncateAndForce() throws Exception {
        try (AsynchronousFileChannel ch = open(file, READ, WRITE)) {
            assertEquals(10_000, ch.size());
            assertSame(ch, ch.truncate(20_000));
            assertEquals(10_000, ch.size());
            ch.truncate(4_000);
            assertEquals(4_000, ch.size());
            assertEquals(-1, ch.read(ByteBuffer.allocate(1), 4_000).get());
            ch.write(ByteBuffer.wrap(new byte[] {1}), 4_999).get();
            ch.force(false);
            ch.force(true);
            assertEquals(5_000, ch.size());
        }
    }

    @Test
    void dsyncAndSyncChannelsWriteAndReadBack() throws Exception {
        for (OpenOption sync : new OpenOption[] {DSYNC, SYNC}) {
            try (AsynchronousFileChannel ch = open(file, READ, WRITE, sync)) {
                assertEquals(8, ch.write(ByteBuffer.wrap(FileChannelContract.bytes(5, 8)), 16).get());
                ByteBuffer back = ByteBuffer.allocate(8);
                assertEquals(8, ch.read(back, 16).get());
                assertArrayEquals(FileChannelContract.bytes(5, 8), back.array());
            }
        }
    }

    // ---- locks ----

    @Test
    void locksAreAcquiredByThisChannelAndOverlapsAreRefused() throws Exception {
        try (AsynchronousFileChannel ch = open(file, READ, WRITE)) {
            FileLock lock = ch.lock(0, 100, false).get();
            assertSame(ch, lock.acquiredBy());
            assertTrue(lock.isValid());
            assertThrows(OverlappingFileLockException.class, () -> ch.lock(50, 100, false));
            assertThrows(OverlappingFileLockException.class, () -> ch.tryLock(0, 1, true));
            CompletableFuture<FileLock> viaHandler = new CompletableFuture<>();
            ch.lock(200, 10, true, "a", new CompletionHandler<FileLock, String>() {
                @Override
                public void completed(FileLock result, String attachment) {
                    viaHandler.complete(result);
                }

                @Override
                public void failed(Throwable exc, String attachment) {
                    viaHandler.completeExceptionally(exc);
                }
            });
            FileLock shared = viaHandler.get(30, TimeUnit.SECONDS);
            assertSame(ch, shared.acquiredBy());
            assertTrue(shared.isShared());
            FileLock tried = ch.tryLock(300, 10, false);
            assertSame(ch, tried.acquiredBy());
            lock.release();
            assertFalse(lock.isValid());
            ch.close();
            assertFalse(shared.isValid());
            assertFalse(tried.isValid());
        }
    }

    @Test
    void aLockFutureGivesTheSameLockEveryTimeAndLocksOfAClosedChannelAreInvalid() throws Exception {
        AsynchronousFileChannel ch = open(file, READ, WRITE);
        Future<FileLock> future = ch.lock(0, 10, false);
        FileLock lock = future.get(30, TimeUnit.SECONDS);
        assertSame(lock, future.get());
        assertSame(lock, future.get(1, TimeUnit.SECONDS));
        ch.close();
        assertFalse(lock.isValid());
        assertThrows(ClosedChannelException.class, lock::release);
    }

    @Test
    void lockingAClosedChannelChecksTheModeFirstThenFails() throws Exception {
        AsynchronousFileChannel readOnly = open(file, READ);
        readOnly.close();
        assertThrows(NonWritableChannelException.class, () -> readOnly.tryLock(0, 1, false));
        assertThrows(NonWritableChannelException.class, () -> readOnly.lock(0, 1, false));
        assertThrows(ClosedChannelException.class, () -> readOnly.tryLock(0, 1, true));
        assertInstanceOf(ClosedChannelException.class, causeOf(readOnly.lock(0, 1, true)));
        CompletableFuture<Throwable> failed = new CompletableFuture<>();
        readOnly.lock(0, 1, true, null, new CompletionHandler<FileLock, Object>() {
            @Override
            public void completed(FileLock result, Object attachment) {
                failed.complete(null);
            }

            @Override
            public void failed(Throwable exc, Object attachment) {
                failed.complete(exc);
            }
        });
        assertInstanceOf(ClosedChannelException.class, failed.get(30, TimeUnit.SECONDS));
    }

    @Test
    void aForcefulCancelOfAPendingLockClosesTheChannel() throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        ExecutorService one = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().daemon().unstarted(r));
        try {
            one.execute(() -> Implementation.awaitUninterruptibly(busy));   // the lock waits for the executor
            AsynchronousFileChannel ch = running.opener().openAsync(file, Set.of(READ, WRITE), one);
            Future<FileLock> lock = ch.lock(0, 10, false);
            assertTrue(lock.cancel(true));
            assertTrue(lock.isCancelled());
            assertFalse(ch.isOpen(), "cancel(true) of a lock closes the channel");
            assertThrows(ClosedChannelException.class, ch::size);
        } finally {
            busy.countDown();
            one.shutdownNow();
        }
    }

    @Test
    void truncateChecksItsArgumentThenTheModeThenWhetherTheChannelIsOpen() throws Exception {
        AsynchronousFileChannel readOnly = open(file, READ);
        readOnly.close();
        assertThrows(IllegalArgumentException.class, () -> readOnly.truncate(-1));
        assertThrows(NonWritableChannelException.class, () -> readOnly.truncate(0));
        AsynchronousFileChannel writable = open(file, WRITE);
        writable.close();
        assertThrows(IllegalArgumentException.class, () -> writable.truncate(-1));
        // Exactly the JDK's: truncate's AsynchronousCloseException (its end(n > 0) with nothing done), and the
        // others' ClosedChannelException.
        assertSame(AsynchronousCloseException.class, assertThrows(ClosedChannelException.class,
                () -> writable.truncate(0)).getClass());
        assertSame(ClosedChannelException.class, assertThrows(ClosedChannelException.class, writable::size).getClass());
        assertSame(ClosedChannelException.class,
                assertThrows(ClosedChannelException.class, () -> writable.force(true)).getClass());
    }

    @Test
    void aCallerInterruptedWhileItWaitsAtTheBoundsStillGetsItsOperationDone() throws Exception {
        try (Implementation.Running held = implementation().startHeld(EngineConfig.defaults().withMaxInFlight(1))) {
            AsynchronousFileChannel ch = open(held, file, READ, WRITE);
            Future<Integer> first = ch.write(ByteBuffer.wrap(new byte[10]), 0);   // the one place, held
            FutureTask<Future<Integer>> second = new FutureTask<>(() -> {
                Thread.currentThread().interrupt();
                Future<Integer> f = ch.write(ByteBuffer.wrap(new byte[] {7, 7, 7}), 100);   // hpio: waits for a place
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
                return f;
            });
            Thread.ofPlatform().daemon().start(second);
            Thread.sleep(200);   // for it to reach the bound
            held.release().run();
            assertEquals(10, first.get(30, TimeUnit.SECONDS));
            assertEquals(3, second.get(30, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS));
            ch.close();
            assertEquals(7, Files.readAllBytes(file)[101]);
        }
    }

    // ---- the executor ----

    @Test
    void aShutDownExecutorRefusesNewOperations() throws Exception {
        ExecutorService gone = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().daemon().unstarted(r));
        AsynchronousFileChannel ch = running.opener().openAsync(file, Set.of(READ, WRITE), gone);
        try {
            gone.shutdown();
            assertThrows(RejectedExecutionException.class, () -> ch.read(ByteBuffer.allocate(10), 0));
            assertThrows(RejectedExecutionException.class, () -> ch.write(ByteBuffer.allocate(10), 0));
            assertThrows(RejectedExecutionException.class,
                    () -> ch.read(ByteBuffer.allocate(10), 0, null, new Recorder<>()));
            // Nothing to transfer: a future is done at once; a handler has nowhere to run.
            assertEquals(0, ch.read(ByteBuffer.allocate(0), 0).get());
            assertThrows(ShutdownChannelGroupException.class,
                    () -> ch.read(ByteBuffer.allocate(0), 0, null, new Recorder<>()));
        } finally {
            ch.close();
        }
        assertThrows(ShutdownChannelGroupException.class,
                () -> ch.write(ByteBuffer.allocate(10), 0, null, new Recorder<>()));
    }

    @Test
    void theHandlerOfAnOperationBegunBeforeTheExecutorsShutdownStillRuns() throws Exception {
        try (Implementation.Running held = implementation().startHeld(EngineConfig.defaults())) {
            ExecutorService later = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().daemon().unstarted(r));
            AsynchronousFileChannel ch = held.opener().openAsync(file, Set.of(READ, WRITE), later);
            Recorder<String> write = new Recorder<>();
            ch.write(ByteBuffer.wrap(new byte[10]), 0, "w", write);
            later.shutdown();
            held.release().run();
            assertNull(write.failure());
            assertEquals(10, write.result.get());
            assertEquals("w", write.attachment);
            ch.close();
        }
    }

    // ---- the default pool (no executor given) ----

    @Test
    void withoutAnExecutorAHandlersInterruptDoesNotOutliveIt() throws Exception {
        try (AsynchronousFileChannel ch = running.opener().openAsync(file, Set.of(READ), null)) {
            CompletableFuture<Thread> ran = new CompletableFuture<>();
            ch.read(ByteBuffer.allocate(10), 0, null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer result, Object attachment) {
                    Thread.currentThread().interrupt();
                    ran.complete(Thread.currentThread());
                }

                @Override
                public void failed(Throwable exc, Object attachment) {
                    ran.completeExceptionally(exc);
                }
            });
            Thread thread = ran.get(30, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (thread.isInterrupted() && thread.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertFalse(thread.isInterrupted() && thread.isAlive(), "the pool thread is still interrupted");
        }
    }

    @Test
    void withoutAnExecutorAHandlersExceptionReachesTheUncaughtExceptionHandler() throws Exception {
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        CompletableFuture<Throwable> seen = new CompletableFuture<>();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> seen.complete(e));
        try (AsynchronousFileChannel ch = running.opener().openAsync(file, Set.of(READ), null)) {
            ch.read(ByteBuffer.allocate(10), 0, null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer result, Object attachment) {
                    throw new IllegalStateException("from the handler");
                }

                @Override
                public void failed(Throwable exc, Object attachment) {
                    seen.complete(exc);
                }
            });
            Throwable e = seen.get(30, TimeUnit.SECONDS);
            assertInstanceOf(IllegalStateException.class, e);
            assertEquals("from the handler", e.getMessage());
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }

    @Test
    void withoutAnExecutorHandlersRunWithTheSystemClassLoader() throws Exception {
        ClassLoader own = new ClassLoader(getClass().getClassLoader()) { };
        CompletableFuture<ClassLoader> seen = new CompletableFuture<>();
        FutureTask<Void> work = new FutureTask<>(() -> {
            Thread.currentThread().setContextClassLoader(own);
            try (AsynchronousFileChannel ch = running.opener().openAsync(file, Set.of(READ), null)) {
                ch.read(ByteBuffer.allocate(10), 0, null, new CompletionHandler<Integer, Object>() {
                    @Override
                    public void completed(Integer result, Object attachment) {
                        seen.complete(Thread.currentThread().getContextClassLoader());
                    }

                    @Override
                    public void failed(Throwable exc, Object attachment) {
                        seen.completeExceptionally(exc);
                    }
                });
                assertNotSame(own, seen.get(30, TimeUnit.SECONDS));
            }
            return null;
        });
        Thread.ofPlatform().start(work);
        work.get(60, TimeUnit.SECONDS);
        assertSame(ClassLoader.getSystemClassLoader(), seen.get());
    }
}
