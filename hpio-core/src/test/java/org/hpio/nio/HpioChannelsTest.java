package org.hpio.nio;

import org.hpio.internal.io.IoEngines;
import org.hpio.testing.Descriptors;
import org.hpio.testing.NativeCalls;
import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;
import org.hpio.internal.sys.UringRing;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.Channel;
import java.nio.channels.Channels;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.ProviderMismatchException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.DELETE_ON_CLOSE;
import static java.nio.file.StandardOpenOption.DSYNC;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What hpio's channels promise beyond the JDK's contract: parking, bounded memory, O_DIRECT, the provider. */
class HpioChannelsTest {
    /** Channels opened while a warm-up links the native calls are the JDK's for a moment: not these tests'. */
    @BeforeEach
    void noWarmUpRunning() {
        HpioChannels.provider();   // its warm-up starts with it, before a test's first channel
        NativeFiles.awaitChannelCallsForTests();
    }

    @TempDir
    Path dir;

    @Test
    void aVirtualThreadBlockedInAReadParksInsteadOfPinningItsCarrier() throws Exception {
        NativeCalls.assumeOn("O_DIRECT");   // an O_DIRECT read always goes to the engine: never served at once
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 4096));
        try (Implementation.Running held = Implementation.HPIO_THREADS.startHeld(EngineConfig.defaults());
             FileChannel ch = held.opener().open(file, READ, HpioOpenOption.DIRECT)) {
            ByteBuffer dst = ByteBuffer.allocate(8192);
            AtomicReference<Integer> read = new AtomicReference<>();
            Thread reader = Thread.ofVirtual().start(() -> {
                try {
                    read.set(ch.read(dst));
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            awaitParked(reader);
            held.release().run();
            reader.join();
            assertEquals(4096, read.get());
            assertArrayEquals(FileChannelContract.bytes(0, 4096), Arrays.copyOf(dst.array(), 4096));
        }
    }

    @Test
    void closingTheChannelUnderABlockedReaderThrowsAsynchronousCloseExceptionAndInterruptingOneClosesIt()
            throws Exception {
        NativeCalls.assumeOn("O_DIRECT");   // an O_DIRECT read always goes to the engine: never served at once
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 4096));
        try (Implementation.Running held = Implementation.HPIO_THREADS.startHeld(EngineConfig.defaults())) {
            for (boolean interrupt : new boolean[] {false, true}) {
                FileChannel ch = held.opener().open(file, READ, HpioOpenOption.DIRECT);
                ByteBuffer dst = ByteBuffer.allocate(8192);
                AtomicReference<Throwable> thrown = new AtomicReference<>();
                Thread reader = Thread.ofVirtual().start(() -> {
                    try {
                        ch.read(dst);
                    } catch (Throwable e) {
                        thrown.set(e);
                    }
                });
                awaitParked(reader);
                if (interrupt) {
                    reader.interrupt();
                } else {
                    ch.close();
                }
                reader.join(10_000);
                assertFalse(reader.isAlive(), "the reader woke");
                Class<? extends Throwable> expected = interrupt ? ClosedByInterruptException.class
                        : AsynchronousCloseException.class;
                assertEquals(expected, thrown.get() == null ? null : thrown.get().getClass(), String.valueOf(thrown.get()));
                assertFalse(ch.isOpen());
                assertEquals(0, dst.position(), "a cancelled read leaves the buffer");
            }
            assertEquals(0, held.engine().inFlight());
        }
    }

    @Test
    void closingTheChannelCancelsItsReadsInFlightAndQueuedButNotAnotherChannelsOnTheSameEngine() throws Exception {
        NativeCalls.assumeOn("O_DIRECT");   // an O_DIRECT read always goes to the engine: never served at once
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 4096));
        try (Implementation.Running held = Implementation.HPIO_THREADS.startHeld(
                EngineConfig.defaults().withMaxInFlight(2))) {
            FileChannel other = held.opener().open(file, READ, HpioOpenOption.DIRECT);
            FileChannel closing = held.opener().open(file, READ, HpioOpenOption.DIRECT);
            List<AtomicReference<Object>> outcomes = new ArrayList<>();
            List<Thread> readers = new ArrayList<>();
            for (FileChannel ch : List.of(other, closing, closing)) {   // the second of closing's is queued
                AtomicReference<Object> outcome = new AtomicReference<>();
                outcomes.add(outcome);
                Thread reader = Thread.ofVirtual().start(() -> {
                    try {
                        outcome.set(ch.read(ByteBuffer.allocate(8192), 0));
                    } catch (Throwable e) {
                        outcome.set(e);
                    }
                });
                readers.add(reader);
                awaitParked(reader);
            }
            assertEquals(2, held.engine().inFlight(), "one of closing's reads waits for a place");
            closing.close();
            for (int i = 1; i < 3; i++) {
                readers.get(i).join(10_000);
                assertFalse(readers.get(i).isAlive(), "closing's reader " + i + " woke");
                assertInstanceOf(AsynchronousCloseException.class, outcomes.get(i).get(), String.valueOf(outcomes.get(i).get()));
            }
            assertTrue(readers.get(0).isAlive(), "the other channel's read is left alone");
            held.release().run();
            readers.get(0).join(10_000);
            assertEquals(4096, outcomes.get(0).get());
            other.close();
            assertEquals(0, held.engine().inFlight());
        }
    }

    @Test
    void aChannelSpreadsItsCallsOverItsRingsByThreadAndClosingItCancelsThemOnEveryRing() throws Exception {
        NativeCalls.assumeOn("O_DIRECT");   // an O_DIRECT read always goes to the engine: never served at once
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 4096));
        CountDownLatch gate = new CountDownLatch(1);
        ThreadFactory held = Implementation.heldAt(gate);
        try (IoEngine even = IoEngines.openThreads(EngineConfig.defaults().withThreads(2), held);
             IoEngine odd = IoEngines.openThreads(EngineConfig.defaults().withThreads(2), held)) {
            Opener opener = Opener.hpio(even, List.of(even, odd));
            FileChannel ch = opener.open(file, READ, HpioOpenOption.DIRECT);
            List<AtomicReference<Object>> outcomes = new ArrayList<>();
            List<Thread> readers = new ArrayList<>();
            int[] perRing = new int[2];
            while (perRing[0] < 2 || perRing[1] < 2) {   // thread ids are given at creation: two of each parity
                AtomicReference<Object> outcome = new AtomicReference<>();
                Thread reader = Thread.ofVirtual().unstarted(() -> {
                    try {
                        outcome.set(ch.read(ByteBuffer.allocate(8192), 0));
                    } catch (Throwable e) {
                        outcome.set(e);
                    }
                });
                int ring = (int) (reader.threadId() % 2);
                if (perRing[ring] == 2) {
                    continue;
                }
                perRing[ring]++;
                outcomes.add(outcome);
                readers.add(reader);
                reader.start();
                awaitParked(reader);
            }
            assertEquals(2, even.inFlight(), "the even threads' reads are on the first ring");
            assertEquals(2, odd.inFlight(), "the odd threads' reads are on the second ring");
            ch.close();
            for (int i = 0; i < readers.size(); i++) {
                readers.get(i).join(10_000);
                assertFalse(readers.get(i).isAlive(), "reader " + i + " woke");
                assertInstanceOf(AsynchronousCloseException.class, outcomes.get(i).get(), String.valueOf(outcomes.get(i).get()));
            }
            gate.countDown();
            try (FileChannel again = opener.open(file, READ, HpioOpenOption.DIRECT)) {
                for (int i = 0; i < 4; i++) {   // consecutive threads: both rings serve reads, every byte right
                    AtomicReference<byte[]> got = new AtomicReference<>();
                    Thread reader = Thread.ofVirtual().start(() -> {
                        try {
                            ByteBuffer dst = ByteBuffer.allocate(8192);
                            again.read(dst, 0);
                            got.set(Arrays.copyOf(dst.array(), dst.position()));
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
                    reader.join(10_000);
                    assertArrayEquals(FileChannelContract.bytes(0, 4096), got.get());
                }
            }
            assertEquals(0, even.inFlight());
            assertEquals(0, odd.inFlight());
        }
    }

    @Test
    void writesOutrunningTheDiskWaitAtTheStagingBoundInsteadOfGrowingMemory() throws Exception {
        long bound = 1 << 20;
        int size = 256 << 10;
        int writes = 16;
        Path file = dir.resolve("flood");
        try (Implementation.Running held = Implementation.HPIO_THREADS.startHeld(
                EngineConfig.defaults().withMaxStagingBytes(bound));
             AsynchronousFileChannel ch = held.opener().openAsync(file, Set.of(CREATE, READ, WRITE), null)) {
            IoEngine engine = held.engine();
            List<Future<Integer>> results = new ArrayList<>();
            Thread writer = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < writes; i++) {
                    results.add(ch.write(ByteBuffer.wrap(FileChannelContract.bytes(i * size, size)), (long) i * size));
                }
            });
            awaitParked(writer);
            assertTrue(writer.isAlive(), "the writer waits at the bound");
            assertTrue(engine.staging().held() <= bound, "staging held " + engine.staging().held());
            held.release().run();
            writer.join();
            for (Future<Integer> f : results) {
                assertEquals(size, f.get(30, TimeUnit.SECONDS));
            }
            assertEquals(0, engine.staging().held());
            ByteBuffer back = ByteBuffer.allocate(writes * size);
            while (back.hasRemaining()) {
                assertTrue(ch.read(back, back.position()).get() > 0);
            }
            assertArrayEquals(FileChannelContract.bytes(0, writes * size), back.array());
        }
    }

    @Test
    void closingUnderLoadOnIoUringSettlesEveryOperationOnceTheKernelIsDone() throws Exception {
        int size = 64 << 10;
        int count = 200;
        Path file = dir.resolve("load");
        Files.write(file, new byte[count * size]);
        try (Implementation.Running uring = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            AsynchronousFileChannel ch;   // O_DIRECT: every operation goes to the device, many are in flight at close
            try {
                ch = uring.opener().openAsync(file, Set.of(READ, WRITE, HpioOpenOption.DIRECT), null);
            } catch (IOException e) {
                Assumptions.abort("O_DIRECT refused here: " + e);
                return;
            }
            List<Future<Integer>> futures = new ArrayList<>();
            List<ByteBuffer> buffers = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ByteBuffer b = i % 2 == 0 ? ByteBuffer.allocateDirect(size + 4096).alignedSlice(4096).limit(size)
                        : ByteBuffer.allocate(size);
                buffers.add(b);
                futures.add(i % 3 == 0 ? ch.write(b, (long) i * size) : ch.read(b, (long) i * size));
            }
            ch.close();
            int closed = 0;
            for (int i = 0; i < count; i++) {
                try {
                    assertEquals(size, futures.get(i).get(30, TimeUnit.SECONDS));
                    assertEquals(size, buffers.get(i).position());
                } catch (ExecutionException e) {
                    assertInstanceOf(AsynchronousCloseException.class, e.getCause());
                    assertEquals(0, buffers.get(i).position(), "a closed operation leaves its buffer");
                    closed++;
                }
            }
            System.out.println("closed under load: " + closed + " of " + count + " operations got AsynchronousCloseException");
            assertEquals(0, uring.engine().staging().held(), "every staging byte is back");
            assertEquals(0, uring.engine().inFlight());
        }
    }

    /** An executor that runs each task on the thread that hands it over (as CallerRunsPolicy may). */
    static final class CallerRuns extends AbstractExecutorService {
        private volatile boolean shutdown;

        @Override
        public void execute(Runnable command) {
            command.run();
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }

    @Test
    void aHandlerRunByTheSubmittingThreadMayCloseTheChannel() throws Exception {
        Path file = dir.resolve("f");
        Files.write(file, new byte[100]);
        for (Implementation implementation : new Implementation[] {Implementation.HPIO_URING, Implementation.HPIO_THREADS}) {
            if (implementation == Implementation.HPIO_URING) {
                try (var probe = IoEngines.openUring(EngineConfig.defaults())) {
                    probe.name();
                } catch (IOException | UnsupportedOperationException e) {
                    continue;   // io_uring refused here
                }
            }
            try (Implementation.Running running = implementation.start(EngineConfig.defaults())) {
                AsynchronousFileChannel ch = running.opener().openAsync(file, Set.of(READ), new CallerRuns());
                CompletableFuture<Integer> read = new CompletableFuture<>();
                Thread t = Thread.ofPlatform().start(() -> ch.read(ByteBuffer.allocate(10), 0, null,
                        new CompletionHandler<Integer, Object>() {
                            @Override
                            public void completed(Integer n, Object a) {
                                try {
                                    ch.close();
                                } catch (IOException e) {
                                    read.completeExceptionally(e);
                                }
                                read.complete(n);
                            }

                            @Override
                            public void failed(Throwable e, Object a) {
                                read.completeExceptionally(e);
                            }
                        }));
                t.join(10_000);
                assertFalse(t.isAlive(), "no deadlock: " + implementation);
                assertEquals(10, read.get(10, TimeUnit.SECONDS));
                assertFalse(ch.isOpen());
            }
        }
    }

    /** The JVM's shutdown hook closes every engine while other hooks may still write files: channels go on. */
    @Test
    void channelsGoOnThroughTheJdksChannelOnceTheEngineIsClosed() throws Exception {
        Path file = dir.resolve("f");
        Files.write(file, FileChannelContract.bytes(0, 100));
        try (Implementation.Running running = Implementation.HPIO_THREADS.start(EngineConfig.defaults());
             FileChannel fc = running.opener().open(file, READ, WRITE);
             AsynchronousFileChannel afc = running.opener().openAsync(file, Set.of(READ, WRITE), null)) {
            running.engine().close();
            assertTrue(running.engine().isClosed());
            ByteBuffer dst = ByteBuffer.allocate(10);
            assertEquals(10, fc.read(dst, 5));
            assertArrayEquals(FileChannelContract.bytes(5, 10), dst.array());
            assertEquals(3, fc.write(ByteBuffer.wrap(new byte[] {1, 2, 3})));
            assertEquals(3, fc.position());
            ByteBuffer[] scatter = {ByteBuffer.allocate(2), ByteBuffer.allocate(2)};
            assertEquals(4, fc.read(scatter));
            assertEquals(7, fc.position());
            fc.force(true);
            ByteBuffer adst = ByteBuffer.allocate(3);
            assertEquals(3, afc.read(adst, 0).get(10, TimeUnit.SECONDS));
            assertArrayEquals(new byte[] {1, 2, 3}, adst.array());
            assertEquals(2, afc.write(ByteBuffer.wrap(new byte[] {9, 9}), 98).get(10, TimeUnit.SECONDS));
            afc.force(false);
            assertEquals(100, fc.size());
        }
    }

    @Test
    void handlersOfAChannelOpenedWithoutAnExecutorRunOnHpiosDefaultPool() throws Exception {
        Path file = dir.resolve("f");
        Files.write(file, new byte[10]);
        try (AsynchronousFileChannel ch = HpioChannels.openAsynchronous(file, READ)) {
            assertTrue(HpioChannels.isHpio(ch));
            assertNotNull(HpioChannels.engineOf(ch));   // started (until then the JDK's channel serves)
            CompletableFuture<String> thread = new CompletableFuture<>();
            ch.read(ByteBuffer.allocate(10), 0, null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer result, Object attachment) {
                    thread.complete(Thread.currentThread().getName());
                }

                @Override
                public void failed(Throwable exc, Object attachment) {
                    thread.completeExceptionally(exc);
                }
            });
            assertTrue(thread.get(30, TimeUnit.SECONDS).startsWith("hpio-nio-handler-"), thread.get());
        }
    }

    @Test
    void directOptionRoundTripsAlignedAndFailsUnalignedThroughTheFuture() throws Exception {
        NativeCalls.assumeOn("O_DIRECT");
        Path file = dir.resolve("direct");
        Files.write(file, new byte[16384]);
        AsynchronousFileChannel ch;
        try {
            ch = HpioChannels.openAsynchronous(file, Set.of(READ, WRITE, HpioOpenOption.DIRECT), null);
        } catch (IOException e) {
            Assumptions.abort("O_DIRECT refused here: " + e);
            return;
        }
        try (ch) {
            ByteBuffer aligned = ByteBuffer.allocateDirect(8192 + 4096).alignedSlice(4096).limit(4096);
            aligned.put(0, FileChannelContract.bytes(1, 4096));
            assertEquals(4096, ch.write(aligned, 4096).get());
            ByteBuffer heap = ByteBuffer.allocate(4096);
            assertEquals(4096, ch.read(heap, 4096).get());
            assertArrayEquals(FileChannelContract.bytes(1, 4096), heap.array());
            ExecutionException e = Assertions.assertThrows(ExecutionException.class,
                    () -> ch.read(ByteBuffer.allocate(4096), 100).get());
            assertInstanceOf(IOException.class, e.getCause());
        }
    }

    @Test
    void explicitFactoriesServeRegularFilesAndLeaveOtherFilesToTheJdk() throws Exception {
        Path file = dir.resolve("f");
        try (FileChannel ch = HpioChannels.open(file, CREATE, WRITE)) {
            assertTrue(HpioChannels.isHpio(ch));
            ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        }
        try (FileChannel ch = HpioChannels.open(Path.of("/dev/null"), READ)) {
            assertFalse(HpioChannels.isHpio(ch), "a device gets the JDK's channel");
            assertEquals(-1, ch.read(ByteBuffer.allocate(1)));
        }
    }

    @Test
    void filesOfPseudoFileSystemsGetTheJdksChannelAndNeverQueueBehindAFullEngine() throws Exception {
        NativeCalls.assumeOn("O_DIRECT");   // an O_DIRECT read always goes to the engine: never served at once
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 4096));
        Path proc = Path.of("/proc/self/status");
        try (Implementation.Running held = Implementation.HPIO_THREADS.startHeld(
                EngineConfig.defaults().withMaxInFlight(1))) {
            try (FileChannel regular = held.opener().open(file, READ, HpioOpenOption.DIRECT)) {
                assertTrue(HpioChannels.isHpio(regular), "a regular file on a disk file system");
                AtomicReference<Object> outcome = new AtomicReference<>();
                Thread reader = Thread.ofVirtual().start(() -> {
                    try {
                        outcome.set(regular.read(ByteBuffer.allocate(8192), 0));   // takes the engine's one place
                    } catch (Throwable e) {
                        outcome.set(e);
                    }
                });
                awaitParked(reader);
                assertEquals(1, held.engine().inFlight());
                // The JDK's OperatingSystemMXBean reads /proc so, through the default provider, on any thread.
                CompletableFuture<byte[]> procRead = onOwnThread(() -> {
                    try (FileChannel ch = held.opener().open(proc, READ)) {
                        assertFalse(HpioChannels.isHpio(ch), "a /proc file gets the JDK's channel");
                        ByteBuffer dst = ByteBuffer.allocate(1 << 16);
                        while (ch.read(dst) > 0) {
                            assertTrue(dst.hasRemaining(), "/proc/self/status fits in 64 KiB");
                        }
                        return Arrays.copyOf(dst.array(), dst.position());
                    }
                });
                String status = new String(procRead.get(30, TimeUnit.SECONDS));   // with the engine still full
                assertTrue(status.contains("Threads:"), status);
                assertEquals(1, held.engine().inFlight(), "the place is still the regular file's");
                held.release().run();
                reader.join(10_000);
                assertEquals(4096, outcome.get());
            }
            try (AsynchronousFileChannel ch = held.opener().openAsync(proc, Set.of(READ), null)) {
                assertFalse(HpioChannels.isHpio(ch));
                ByteBuffer dst = ByteBuffer.allocate(1 << 16);
                assertTrue(ch.read(dst, 0).get(30, TimeUnit.SECONDS) > 0);
            }
            Path sysfs = Path.of("/sys/devices/system/cpu/online");
            if (Files.isReadable(sysfs)) {
                try (FileChannel ch = held.opener().open(sysfs, READ)) {
                    assertFalse(HpioChannels.isHpio(ch), "a sysfs file gets the JDK's channel");
                }
            }
        }
    }

    @Test
    void aFileTheEngineDoesNotServeGetsTheJdksChannelWithEveryOption() throws Exception {
        Path fifo = namedPipe(dir.resolve("fifo"));
        try (Implementation.Running running = Implementation.HPIO_THREADS.start(EngineConfig.defaults())) {
            try (FileChannel ch = running.opener().open(fifo, READ, WRITE, DELETE_ON_CLOSE)) {
                assertFalse(HpioChannels.isHpio(ch), "a pipe gets the JDK's channel");
                ch.write(ByteBuffer.wrap(new byte[] {7}));
                ByteBuffer one = ByteBuffer.allocate(1);
                assertEquals(1, ch.read(one));
                assertEquals(7, one.get(0));
            }
            assertFalse(Files.exists(fifo, LinkOption.NOFOLLOW_LINKS), "DELETE_ON_CLOSE reached the JDK's channel");
            // O_DIRECT is the kernel's to refuse on /proc (EINVAL), as it is when the JDK opens the file so:
            // never dropped in silence.
            Path proc = Path.of("/proc/self/status");
            assertThrows(IOException.class, () -> running.opener().open(proc, READ, HpioOpenOption.DIRECT));
            assertThrows(IOException.class, () -> running.opener().openAsync(proc, Set.of(READ, HpioOpenOption.DIRECT), null));
            assertThrows(IOException.class, () -> Opener.JDK.open(proc, READ, ManyVirtualReaders.jdkDirect()));
        }
    }

    @Test
    void aPlainReadOnlyChannelOpensTheJdksChannelOnlyWhenACallNeedsItAndOnTheSameFile() throws Exception {
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 4096));
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            long descriptors = openDescriptors();
            FileChannel ch = running.opener().open(file);   // no option: READ
            assertTrue(HpioChannels.isHpio(ch));
            assertEquals(descriptors + 1, openDescriptors(), "hpio's descriptor alone");
            assertEquals(4096, ch.size());
            // Renamed and replaced: the calls that go to the JDK's channel still see the file this one opened.
            Files.move(file, dir.resolve("moved"));
            Files.write(file, new byte[10]);
            MappedByteBuffer mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, 4096);
            byte[] seen = new byte[4096];
            mapped.get(seen);
            assertArrayEquals(FileChannelContract.bytes(0, 4096), seen);
            assertEquals(descriptors + 2, openDescriptors(), "and now the JDK's, for map");
            try (FileLock lock = ch.lock(0, 10, true)) {
                assertTrue(lock.isShared());
                assertSame(ch, lock.channel());
            }
            ByteBuffer dst = ByteBuffer.allocate(4096);
            assertEquals(4096, ch.read(dst, 0));
            ch.close();
            assertThrows(ClosedChannelException.class, () -> ch.transferTo(0, 1, Channels.newChannel(OutputStream.nullOutputStream())));
        }
    }

    @Test
    void aReadReachingTheEndOfACachedFileIsServedAtOnceWithoutTheEngine() throws Exception {
        NativeCalls.assumeOn("reads without waiting (preadv2 RWF_NOWAIT)");
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 4096));   // just written: cached
        try (Implementation.Running held = Implementation.HPIO_THREADS.startHeld(EngineConfig.defaults());
             FileChannel ch = held.opener().open(file, READ)) {
            assertTrue(HpioChannels.isHpio(ch));
            // On this engine a request waits until released: each read below must be served without one.
            CompletableFuture<List<Integer>> reads = onOwnThread(() -> {
                ByteBuffer rest = ByteBuffer.allocate(8192);
                int first = ch.read(rest, 0);   // short: the file ends first
                assertArrayEquals(FileChannelContract.bytes(0, 4096), Arrays.copyOf(rest.array(), 4096));
                return List.of(first, ch.read(ByteBuffer.allocate(10), 4096), ch.read(ByteBuffer.allocate(10), 10_000));
            });
            assertEquals(List.of(4096, -1, -1), reads.get(30, TimeUnit.SECONDS));
            assertEquals(0, held.engine().inFlight());
        }
    }

    @Test
    void aPlainReadOnlyOpenFailsAsTheJdksDoes() throws Exception {
        Path missing = dir.resolve("missing");
        NoSuchFileException jdk = assertThrows(NoSuchFileException.class, () -> Opener.JDK.open(missing, READ));
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            NoSuchFileException hpio = assertThrows(NoSuchFileException.class, () -> running.opener().open(missing, READ));
            assertEquals(jdk.getMessage(), hpio.getMessage());
            try (FileChannel ch = running.opener().open(dir)) {
                assertFalse(HpioChannels.isHpio(ch), "a directory gets the JDK's channel, as it would alone");
            }
        }
    }

    /**
     * Channels a program drops unclosed give their descriptors back once collected, as the JDK's do: hpio's own
     * descriptor stayed open for good (found by a differential review of the provider). Measured against the
     * JDK's channels dropped the same way in this JVM (its AsynchronousFileChannel keeps its descriptor).
     */
    @Test
    void channelsDroppedUnclosedGiveTheirDescriptorsBackOnceCollectedAsTheJdksDo() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        Path file = Files.write(dir.resolve("dropped"), FileChannelContract.bytes(0, 4096));
        HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider());
        Path viaHpio = viaProvider(provider, file);
        long jdkLeft = descriptorsLeftAfterDropping(file);
        long hpioLeft = descriptorsLeftAfterDropping(viaHpio);
        assertTrue(hpioLeft <= jdkLeft + 5, hpioLeft + " descriptors still open after hpio's channels were "
                + "collected, " + jdkLeft + " after the JDK's");
    }

    /** Opens, uses and drops channels of {@code file}; the descriptors left open once they were collected. */
    private static long descriptorsLeftAfterDropping(Path file) throws Exception {
        long before = openDescriptors();
        int hpios = openAndDrop(file);
        assertTrue(file.getFileSystem() == FileSystems.getDefault() || hpios == 60, "hpio served them: " + hpios);
        assertTrue(openDescriptors() >= before + 60, "each channel holds a descriptor until collected");
        long left = -1;
        int unchanged = 0;
        for (int i = 0; i < 200 && unchanged < 5; i++) {   // until five looks in a row see no more closed
            System.gc();
            Thread.sleep(20);
            long now = openDescriptors() - before;
            unchanged = now == left ? unchanged + 1 : 0;
            left = now;
        }
        return left;
    }

    /** Opens 20 read-write and 20 read-only FileChannels and 20 AsynchronousFileChannels, uses and drops them. */
    private static int openAndDrop(Path file) throws Exception {
        int hpios = 0;
        for (int i = 0; i < 20; i++) {
            FileChannel readWrite = FileChannel.open(file, READ, WRITE);
            FileChannel readOnly = FileChannel.open(file, READ);
            AsynchronousFileChannel async = AsynchronousFileChannel.open(file, READ);
            assertEquals(10, readWrite.read(ByteBuffer.allocate(10), 0));
            assertEquals(10, readOnly.read(ByteBuffer.allocate(10), 0));
            assertEquals(10, async.read(ByteBuffer.allocate(10), 0).get(10, TimeUnit.SECONDS));
            hpios += (HpioChannels.isHpio(readWrite) ? 1 : 0) + (HpioChannels.isHpio(readOnly) ? 1 : 0)
                    + (HpioChannels.isHpio(async) ? 1 : 0);
        }
        return hpios;
    }

    @Test
    void aPipeReadByNameLosesNothingAWriterWroteAndClosed() throws Exception {
        Path fifo = namedPipe(dir.resolve("fifo"));
        HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider());
        Path viaHpio = viaProvider(provider, fifo);
        // The writer's open waits for a reader; it writes and closes at once, possibly before a second open.
        CompletableFuture<Path> writer = onOwnThread(() -> Files.write(fifo, "hello".getBytes()));
        // A virtual thread's: a platform thread's plain read-only byte channel is the JDK's without hpio looking.
        CompletableFuture<byte[]> read = onVirtualThread(() -> Files.readAllBytes(viaHpio));
        assertEquals("hello", new String(read.get(30, TimeUnit.SECONDS)));
        writer.get(10, TimeUnit.SECONDS);
    }

    /**
     * A plain read-only open of a name remembered as a regular file skips the statx by name and checks what it
     * opened by its descriptor ({@code HpioFileChannel.openRemembered}): a name that has become a pipe since is
     * read as the pipe, by the JDK's channel, losing nothing, whether its writer came first (let through by
     * hpio's open, it may write and close before the JDK's open) or after (the JDK's open waits for it).
     */
    @Test
    void aNameRememberedAsARegularFileThatIsNowAPipeIsReadAsThePipe() throws Exception {
        NativeCalls.assumeOn("hpio's descriptor");
        HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider());
        IoEngines.sharedRings();   // started: a virtual thread's plain channel is hpio's
        for (boolean writerFirst : new boolean[] {true, false}) {
            Path file = Files.write(dir.resolve("was-a-file-" + writerFirst), "a file".getBytes());
            Path viaHpio = viaProvider(provider, file);
            try (FileChannel ch = FileChannel.open(viaHpio)) {   // checked by name, remembered
                assertTrue(HpioChannels.isHpio(ch));
                assertEquals(6, ch.size());
            }
            assertTrue(RegularFileNames.deviceOf(file.toString()) != RegularFileNames.UNKNOWN, "remembered");
            Files.delete(file);
            namedPipe(file);
            CompletableFuture<Path> writer = null;
            if (writerFirst) {
                writer = onOwnThread(() -> Files.write(file, "hello".getBytes()));
                Thread.sleep(50);   // in its open, waiting for a reader
            }
            CompletableFuture<byte[]> read = onVirtualThread(() -> Files.readAllBytes(viaHpio));
            if (!writerFirst) {
                Thread.sleep(50);   // the reader waits in the JDK's open for a writer
                assertFalse(read.isDone(), "a pipe's open waits for a writer, as the JDK's does");
                writer = onOwnThread(() -> Files.write(file, "hello".getBytes()));
            }
            assertEquals("hello", new String(read.get(30, TimeUnit.SECONDS)), "writer first: " + writerFirst);
            writer.get(10, TimeUnit.SECONDS);
            assertEquals(RegularFileNames.UNKNOWN, RegularFileNames.deviceOf(file.toString()), "forgotten");
        }
    }

    /**
     * The JDK's channel on a pipe whose writer hpio's open let through, and which wrote and closed before the
     * JDK's open (the case the test above leaves to timing): the JDK's open does not wait for another writer,
     * and reads what the first wrote, then the end of the stream; after a writer that wrote nothing, the end of
     * the stream; on a pipe no writer came to, it waits for one.
     */
    @Test
    void theJdksChannelOnAPipeHpioOpenedLosesWhatAWriterWroteAndClosed() throws Exception {
        NativeCalls.assumeOn("hpio's descriptor");
        Path fifo = namedPipe(dir.resolve("fifo"));
        FileSystemProvider jdk = FileSystems.getDefault().provider();
        try (NativeFile reader = NativeFile.openNonBlocking(fifo, Syscalls.O_RDONLY)) {
            onOwnThread(() -> Files.write(fifo, "hello".getBytes())).get(10, TimeUnit.SECONDS);   // wrote, closed
            try (FileChannel ch = onOwnThread(() -> NativeFiles.jdkChannelOnPipe(reader, jdk, fifo, Set.of(READ)))
                    .get(10, TimeUnit.SECONDS)) {
                reader.close();
                assertEquals("hello", new String(Channels.newInputStream(ch).readAllBytes()));
            }
        }
        try (NativeFile reader = NativeFile.openNonBlocking(fifo, Syscalls.O_RDONLY)) {
            onOwnThread(() -> {   // a writer that came and went, writing nothing
                Files.newOutputStream(fifo).close();
                return fifo;
            }).get(10, TimeUnit.SECONDS);
            try (FileChannel ch = onOwnThread(() -> NativeFiles.jdkChannelOnPipe(reader, jdk, fifo, Set.of(READ)))
                    .get(10, TimeUnit.SECONDS)) {
                reader.close();
                assertEquals(0, Channels.newInputStream(ch).readAllBytes().length, "the end of the stream at once");
            }
        }
        try (NativeFile reader = NativeFile.openNonBlocking(fifo, Syscalls.O_RDONLY)) {
            CompletableFuture<FileChannel> opening =
                    onOwnThread(() -> NativeFiles.jdkChannelOnPipe(reader, jdk, fifo, Set.of(READ)));
            Thread.sleep(50);
            assertFalse(opening.isDone(), "an empty pipe: the JDK's open waits for a writer");
            CompletableFuture<Path> writer = onOwnThread(() -> Files.write(fifo, "later".getBytes()));
            try (FileChannel ch = opening.get(10, TimeUnit.SECONDS)) {
                reader.close();
                writer.get(10, TimeUnit.SECONDS);
                assertEquals("later", new String(Channels.newInputStream(ch).readAllBytes()));
            }
        }
    }

    /**
     * A remembered name's descriptor, opened O_NONBLOCK, loses it before its first request goes to an engine,
     * and a read the page cache cannot serve (so the engine's) reads the file's bytes.
     */
    @Test
    void aRememberedNamesDescriptorLosesONonBlockBeforeAnEngineGetsIt() throws Exception {
        NativeCalls.assumeOn("hpio's descriptor");
        HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider());
        IoEngines.sharedRings();   // started: a read the page cache cannot serve goes to them
        byte[] bytes = FileChannelContract.bytes(0, 256 << 10);   // beyond CachedRead's 64 KiB: an engine's
        Path file = Files.write(dir.resolve("nonblocking"), bytes);
        Path viaHpio = viaProvider(provider, file);
        try (FileChannel ch = FileChannel.open(viaHpio)) {   // checked by name, remembered
            assertEquals(bytes.length, ch.size());
        }
        try (FileChannel ch = FileChannel.open(viaHpio);
             NativeFile evict = NativeFile.open(file, Syscalls.O_RDONLY)) {
            assertTrue(HpioChannels.isHpio(ch));
            int fd = -1;
            try (var fds = Files.list(Path.of("/proc/self/fd"))) {
                for (Path link : (Iterable<Path>) fds::iterator) {
                    try {
                        if (Files.readSymbolicLink(link).equals(file)
                                && (Descriptors.statusFlags(Integer.parseInt(link.getFileName().toString())) & Syscalls.O_NONBLOCK) != 0) {
                            fd = Integer.parseInt(link.getFileName().toString());
                        }
                    } catch (IOException gone) {
                        // the listing's own descriptor
                    }
                }
            }
            assertTrue(fd >= 0, "the remembered name's open is O_NONBLOCK (on this disk's file system, kept)");
            evict.advise(Syscalls.POSIX_FADV_DONTNEED);   // not cached either
            ByteBuffer all = ByteBuffer.allocate(bytes.length);
            assertEquals(bytes.length, onVirtualThread(() -> ch.read(all, 0)).get(30, TimeUnit.SECONDS));
            assertArrayEquals(bytes, all.array());
            assertEquals(0, Descriptors.statusFlags(fd) & Syscalls.O_NONBLOCK, "cleared");
        }
    }

    /**
     * What a remembered name's open finds is checked by its descriptor: another file put in its place is read, a
     * directory there gets the JDK's channel (and fails as the JDK's does), a regular file on another device
     * is read and remembered with that device, and a missing one fails as the JDK's open does.
     */
    @Test
    void aNameRememberedAsARegularFileIsCheckedByWhatItsOpenFinds() throws Exception {
        NativeCalls.assumeOn("hpio's descriptor");
        HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider());
        Path file = Files.write(dir.resolve("f"), "first".getBytes());
        Path viaHpio = viaProvider(provider, file);
        IoEngines.sharedRings();   // started: a virtual thread's plain channel is hpio's
        assertArrayEquals("first".getBytes(), onVirtualThread(() -> Files.readAllBytes(viaHpio)).get(30, TimeUnit.SECONDS));
        long dev = RegularFileNames.deviceOf(file.toString());
        assertTrue(dev != RegularFileNames.UNKNOWN, "remembered");

        Path other = Files.write(dir.resolve("other"), "the second file".getBytes());
        Files.move(other, file, StandardCopyOption.REPLACE_EXISTING);
        assertArrayEquals("the second file".getBytes(),
                onVirtualThread(() -> Files.readAllBytes(viaHpio)).get(30, TimeUnit.SECONDS));
        try (FileChannel ch = FileChannel.open(viaHpio)) {
            assertTrue(HpioChannels.isHpio(ch));
            assertEquals(15, ch.read(ByteBuffer.allocate(100), 0));
            assertEquals(15, ch.size());
        }

        Files.delete(file);
        Files.createDirectory(file);
        assertFalse(onVirtualThread(() -> {
            try (var ch = Files.newByteChannel(viaHpio)) {
                return HpioChannels.isHpio(ch);
            }
        }).get(30, TimeUnit.SECONDS), "a directory: the JDK's channel");
        assertEquals(RegularFileNames.UNKNOWN, RegularFileNames.deviceOf(file.toString()), "forgotten");
        IOException jdks = assertThrows(IOException.class, () -> Files.readAllBytes(file));
        ExecutionException hpios = assertThrows(ExecutionException.class,
                () -> onVirtualThread(() -> Files.readAllBytes(viaHpio)).get(30, TimeUnit.SECONDS), "a directory");
        Throwable cause = hpios.getCause().getCause();   // the UncheckedIOException of onVirtualThread's
        assertEquals(jdks.getClass(), cause.getClass());
        assertEquals(jdks.getMessage(), cause.getMessage());
        Files.delete(file);

        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {   // tmpfs: a device of its own, and served
            Path elsewhere = Files.write(Files.createTempFile(shm, "hpio-", ".bin"), "on tmpfs".getBytes());
            try {
                Path link = Files.write(dir.resolve("link-target"), "on this disk".getBytes());
                Path name = Files.createSymbolicLink(dir.resolve("link"), link);
                Path linkViaHpio = viaProvider(provider, name);
                try (FileChannel ch = FileChannel.open(linkViaHpio)) {
                    assertEquals(12, ch.size());
                }
                long disk = RegularFileNames.deviceOf(name.toString());
                Files.delete(name);
                Files.createSymbolicLink(name, elsewhere);
                try (FileChannel ch = FileChannel.open(linkViaHpio)) {
                    assertTrue(HpioChannels.isHpio(ch));
                    assertEquals(8, ch.size());
                }
                long tmpfs = RegularFileNames.deviceOf(name.toString());
                assertTrue(tmpfs != RegularFileNames.UNKNOWN && tmpfs != disk, "remembered with the other device");
            } finally {
                Files.delete(elsewhere);
            }
        }

        Files.write(file, "again".getBytes());
        try (FileChannel ch = FileChannel.open(viaHpio)) {
            assertEquals(5, ch.size());
        }
        assertTrue(RegularFileNames.deviceOf(file.toString()) != RegularFileNames.UNKNOWN, "remembered again");
        Files.delete(file);
        NoSuchFileException missing = assertThrows(NoSuchFileException.class, () -> FileChannel.open(viaHpio));
        assertEquals(file.toString(), missing.getMessage());
        assertEquals(RegularFileNames.UNKNOWN, RegularFileNames.deviceOf(file.toString()), "forgotten");
    }

    @Test
    void aPlatformThreadsPlainReadOnlyByteChannelIsTheJdksAndEveryOtherIsHpios() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 1024));
        HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider());
        Path viaHpio = viaProvider(provider, file);
        try (var plain = Files.newByteChannel(viaHpio); var read = Files.newByteChannel(viaHpio, READ)) {
            assertFalse(HpioChannels.isHpio(plain), "no option: the JDK's");
            assertFalse(HpioChannels.isHpio(read), "READ alone: the JDK's");
        }
        try (var readWrite = Files.newByteChannel(viaHpio, READ, WRITE);
             var fileChannel = FileChannel.open(viaHpio, READ)) {
            assertTrue(HpioChannels.isHpio(readWrite), "more than a plain read: hpio's");
            assertTrue(HpioChannels.isHpio(fileChannel), "FileChannel.open asks for hpio's by name");
        }
        IoEngines.sharedRings();   // started: until then a virtual thread's is the JDK's (see the test below)
        assertTrue(plainByteChannelIsHpiosOnVirtualThread(viaHpio), "a virtual thread's: hpio's, whose reads park it");
        assertArrayEquals(FileChannelContract.bytes(0, 1024), Files.readAllBytes(viaHpio));
        assertArrayEquals(FileChannelContract.bytes(0, 1024), onVirtualThread(() -> Files.readAllBytes(viaHpio))
                .get(30, TimeUnit.SECONDS));
        NoSuchFileException missing = assertThrows(NoSuchFileException.class,
                () -> Files.newByteChannel(viaHpio.resolveSibling("missing")));
        assertEquals(dir.resolve("missing").toString(), missing.getMessage());
    }

    @Test
    void untilTheEnginesAreStartedAVirtualThreadsPlainReadIsTheJdksWhileAThreadOfItsOwnStartsThem() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        byte[] bytes = FileChannelContract.bytes(0, 1024);
        Path file = Files.write(dir.resolve("f"), bytes);
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger starts = new AtomicInteger();
            AtomicBoolean started = new AtomicBoolean();
            HpioFileSystemProvider.EngineSource slow = new HpioFileSystemProvider.EngineSource() {
                @Override
                public IoEngine engine() {
                    return running.engine();
                }

                @Override
                public List<IoEngine> rings() throws IOException {
                    if (started.get()) {
                        return List.of(running.engine());   // started: what the shared engines' source does too
                    }
                    starts.incrementAndGet();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        throw new InterruptedIOException("start interrupted");
                    }
                    started.set(true);
                    return List.of(running.engine());
                }

                @Override
                public boolean ringsStarted() {
                    return started.get();
                }
            };
            HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider(), slow);
            Path viaHpio = viaProvider(provider, file);
            // While the start waits, every such call gets the JDK's channel at once, and one start is asked for.
            for (int i = 0; i < 3; i++) {
                assertFalse(plainByteChannelIsHpiosOnVirtualThread(viaHpio), "the JDK's channel, not a wait for the start");
                assertArrayEquals(bytes, onVirtualThread(() -> Files.readAllBytes(viaHpio)).get(30, TimeUnit.SECONDS));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (starts.get() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(1, starts.get(), "one start, on a thread of its own, however many calls came meanwhile");
            release.countDown();
            boolean hpios = false;
            while (!hpios && System.nanoTime() < deadline) {
                hpios = plainByteChannelIsHpiosOnVirtualThread(viaHpio);
                Thread.sleep(hpios ? 0 : 5);
            }
            assertTrue(hpios, "once started, a virtual thread's plain read is hpio's");
            assertArrayEquals(bytes, onVirtualThread(() -> Files.readAllBytes(viaHpio)).get(30, TimeUnit.SECONDS));
            assertEquals(1, starts.get());
            try (var ch = Files.newByteChannel(viaHpio)) {
                assertFalse(HpioChannels.isHpio(ch), "a platform thread's stays the JDK's");
            }
        }
    }

    @Test
    void aFileChannelOpenedBeforeTheEnginesAreStartedStartsThemOnlyWhenACallNeedsOne() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        byte[] bytes = FileChannelContract.bytes(0, 4096);
        Path file = Files.write(dir.resolve("f"), bytes);   // just written: cached
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            StartCountingSource source = new StartCountingSource(running.engine());
            HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider(), source);
            try (FileChannel unused = provider.newFileChannel(file, Set.of(READ))) {
                assertTrue(HpioChannels.isHpio(unused));
            }
            FileChannel ch = provider.newFileChannel(file, Set.of(READ, WRITE));
            assertTrue(HpioChannels.isHpio(ch));
            assertTrue(ch.toString().endsWith(", not started]"), ch.toString());
            ByteBuffer dst = ByteBuffer.allocate(4096);
            assertEquals(4096, ch.read(dst, 0));
            assertArrayEquals(bytes, dst.array());
            assertEquals(4096, ch.size());
            assertEquals(3, ch.write(ByteBuffer.wrap(new byte[] {7, 8, 9}), 4096));
            assertEquals(0, source.starts(), "opening, closing, a cached read, size, a platform thread's small write");
            ch.force(false);
            source.awaitStarted();   // a force needs an engine: they start, in the background (the JDK's forced)
            awaitServedByTheEngines(ch);
            ByteBuffer end = ByteBuffer.allocate(3);
            assertEquals(3, onVirtualThread(() -> ch.read(end, 4096)).get(30, TimeUnit.SECONDS));
            assertArrayEquals(new byte[] {7, 8, 9}, end.array());
            ch.close();
            assertEquals(1, source.starts());
            try (FileChannel second = provider.newFileChannel(file, Set.of(READ))) {
                assertTrue(second.toString().endsWith(", uring]"), "later channels get the started engines");
            }
            assertEquals(1, source.starts());
        }
    }

    @Test
    void aChannelOpenedBeforeTheNativeCallsAreReadyIsTheJdksUntilTheyAreThenHpiosOnTheSameFile() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 4096));
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            long descriptors = openDescriptors();
            FileChannel ch;
            NativeFiles.holdChannelCallsForTests(true);
            try {
                ch = running.opener().open(file, READ, WRITE);
                assertTrue(HpioChannels.isHpio(ch));
                assertTrue(ch.toString().contains("the JDK's channel until"), ch.toString());
                assertEquals(descriptors + 1, openDescriptors(), "the JDK's descriptor alone");
                assertEquals(3, ch.write(ByteBuffer.wrap(new byte[] {7, 8, 9})));
                assertEquals(3, ch.position());
                assertEquals(4096, ch.size());
                ch.force(true);
                assertEquals(descriptors + 1, openDescriptors(), "still no descriptor of hpio's");
            } finally {
                NativeFiles.holdChannelCallsForTests(false);
            }
            // The next call opens hpio's descriptor; the position goes on from where the JDK's calls left it.
            assertEquals(2, ch.write(ByteBuffer.wrap(new byte[] {1, 2})));
            assertEquals(descriptors + 2, openDescriptors(), "and now hpio's");
            assertFalse(ch.toString().contains("the JDK's channel"), ch.toString());
            assertEquals(5, ch.position());
            ByteBuffer head = ByteBuffer.allocate(6);
            assertEquals(6, ch.read(head, 0));
            byte[] expected = FileChannelContract.bytes(0, 6);
            System.arraycopy(new byte[] {7, 8, 9, 1, 2}, 0, expected, 0, 5);
            assertArrayEquals(expected, head.array());
            assertEquals("uring", HpioChannels.engineOf(ch));
            ch.close();
            assertEquals(descriptors, openDescriptors(), "both closed");
        }
    }

    /**
     * While the warm-up links the native calls, a platform thread's call and an asynchronous read or write are the
     * JDK's channel's, and so are a virtual thread's read, write and size (the JDK's channel makes them on its
     * carrier without adding one); a virtual thread's force (for which the JDK's would add a carrier) opens hpio's
     * descriptor at once.
     */
    @Test
    void whileAWarmUpRunsOnlyCallsThatMayUseTheJdksChannelDo() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        byte[] bytes = FileChannelContract.bytes(0, 4096);
        Path file = Files.write(dir.resolve("f"), bytes);
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            FileChannel ch;
            AsynchronousFileChannel afc;
            NativeFiles.warmingUpForTests(true);
            try {
                ch = running.opener().open(file, READ, WRITE);
                afc = running.opener().openAsync(file, Set.of(READ, WRITE), null);
                ByteBuffer dst = ByteBuffer.allocate(4096);
                assertEquals(4096, ch.read(dst, 0));
                assertArrayEquals(bytes, dst.array());
                ByteBuffer asyncDst = ByteBuffer.allocate(4096);
                assertEquals(4096, afc.read(asyncDst, 0).get(30, TimeUnit.SECONDS));
                assertArrayEquals(bytes, asyncDst.array());
                assertTrue(ch.toString().contains("the JDK's channel until"), ch.toString());
                assertTrue(afc.toString().contains("the JDK's channel until"), afc.toString());
                ByteBuffer head = ByteBuffer.allocate(10);
                assertEquals(10, onVirtualThread(() -> ch.read(head, 0)).get(30, TimeUnit.SECONDS));
                assertArrayEquals(Arrays.copyOf(bytes, 10), head.array());
                assertEquals(2, onVirtualThread(() -> ch.write(ByteBuffer.wrap(new byte[] {5, 6}), 0)).get(30, TimeUnit.SECONDS));
                assertEquals(4096, onVirtualThread(ch::size).get(30, TimeUnit.SECONDS));
                assertTrue(ch.toString().contains("the JDK's channel until"), "a virtual thread's read and write: " + ch);
                onVirtualThread(() -> {
                    ch.force(false);
                    return null;
                }).get(30, TimeUnit.SECONDS);
                assertFalse(ch.toString().contains("the JDK's channel"), "a virtual thread's force opens hpio's: " + ch);
                ByteBuffer written = ByteBuffer.allocate(2);
                assertEquals(2, ch.read(written, 0));
                assertArrayEquals(new byte[] {5, 6}, written.array(), "hpio's descriptor reads what the JDK's wrote");
                try (FileChannel synced = running.opener().open(file, WRITE, DSYNC)) {
                    assertTrue(synced.toString().contains("the JDK's channel until"), synced.toString());
                    assertEquals(1, onVirtualThread(() -> synced.write(ByteBuffer.wrap(new byte[] {7}), 2)).get(30, TimeUnit.SECONDS));
                    assertFalse(synced.toString().contains("the JDK's channel"),
                            "a virtual thread's DSYNC write (the JDK's would add a carrier) opens hpio's: " + synced);
                }
                assertEquals(1, afc.write(ByteBuffer.wrap(new byte[] {1}), 4096).get(30, TimeUnit.SECONDS));
                assertTrue(afc.toString().contains("the JDK's channel until"), "written by the JDK's: " + afc);
            } finally {
                NativeFiles.warmingUpForTests(false);
            }
            assertEquals(4097, ch.size());
            ch.close();
            afc.close();
        }
    }

    /**
     * An asynchronous channel opened during the warm-up has the JDK's channel make its operations only within
     * hpio's bounds, and nobody waits for room: with the JDK channel's threads held, {@value
     * EarlyOperations#MAX_OPERATIONS} reads are in flight there and the next is hpio's at once; and two writes
     * of 24 MiB are in flight there while the third, over the 64 MiB staging bound, is hpio's, instead of
     * queueing without bound (003's OutOfMemoryError) or waiting for a write queued on the same executor.
     */
    @Test
    void operationsMadeByTheJdksChannelDuringTheWarmUpStayWithinHpiosBounds() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        byte[] block = FileChannelContract.bytes(0, 24 << 20);
        Path file = Files.write(dir.resolve("w"), block);
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            NativeFiles.warmingUpForTests(true);
            try {
                assertBeyondTheBoundIsHpios(running, file, held -> {
                    List<Future<Integer>> reads = new ArrayList<>();
                    for (int i = 0; i < EarlyOperations.MAX_OPERATIONS; i++) {
                        reads.add(held.read(ByteBuffer.allocate(1), i));
                    }
                    return reads;
                }, ch -> ch.read(ByteBuffer.allocate(1), 1L << 40), -1);
                assertBeyondTheBoundIsHpios(running, file, held -> List.of(held.write(ByteBuffer.wrap(block), 0),
                        held.write(ByteBuffer.wrap(block), block.length)),
                        ch -> ch.write(ByteBuffer.wrap(block), 2L * block.length), block.length);
            } finally {
                NativeFiles.warmingUpForTests(false);
            }
        }
        byte[] back = Files.readAllBytes(file);
        assertEquals(3L * block.length, back.length);
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(block, Arrays.copyOfRange(back, i * block.length, (i + 1) * block.length));
        }
    }

    private interface Operations {
        List<Future<Integer>> start(AsynchronousFileChannel channel) throws Exception;
    }

    private interface Operation {
        Future<Integer> start(AsynchronousFileChannel channel) throws Exception;
    }

    /**
     * On a channel opened now (during the warm-up) whose JDK channel's threads are held: {@code inBound}'s
     * operations are the JDK channel's (not done while held), {@code beyond} is hpio's (done at once, with
     * {@code expected}); then the threads go on and every operation completes.
     */
    private static void assertBeyondTheBoundIsHpios(Implementation.Running running, Path file, Operations inBound,
                                                    Operation beyond, int expected) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        ExecutorService held = Executors.newFixedThreadPool(2, Implementation.heldAt(gate));
        try (AsynchronousFileChannel ch = running.opener().openAsync(file, Set.of(READ, WRITE), held)) {
            List<Future<Integer>> jdks = inBound.start(ch);
            assertTrue(ch.toString().contains("the JDK's channel until"), ch.toString());
            for (Future<Integer> f : jdks) {
                assertFalse(f.isDone(), "held on the JDK channel's threads");
            }
            assertEquals(expected, beyond.start(ch).get(30, TimeUnit.SECONDS), "beyond the bound: hpio's");
            assertFalse(ch.toString().contains("the JDK's channel"), ch.toString());
            gate.countDown();
            for (Future<Integer> f : jdks) {
                assertTrue(f.get(30, TimeUnit.SECONDS) > 0);
            }
        } finally {
            gate.countDown();
            held.shutdown();
        }
    }

    /** The futures of operations the JDK's channel makes for hpio's cancel as the JDK's: a forceful cancel closes. */
    @Test
    void cancellingAnOperationMadeByTheJdksChannelBehavesAsTheJdksFuture() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        CountDownLatch gate = new CountDownLatch(1);
        ExecutorService held = Executors.newFixedThreadPool(2, Implementation.heldAt(gate));
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 100));
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            NativeFiles.warmingUpForTests(true);
            try {
                AsynchronousFileChannel ch = running.opener().openAsync(file, Set.of(READ, WRITE), held);
                assertTrue(ch.toString().contains("the JDK's channel until"), ch.toString());
                Future<Integer> gentle = ch.read(ByteBuffer.allocate(10), 0);
                assertTrue(gentle.cancel(false));
                assertTrue(gentle.isCancelled() && gentle.isDone());
                assertThrows(CancellationException.class, gentle::get);
                assertFalse(gentle.cancel(false), "already cancelled");
                assertTrue(ch.isOpen(), "cancel(false) leaves the channel open");
                Future<Integer> forceful = ch.write(ByteBuffer.wrap(new byte[] {1}), 0);
                assertTrue(forceful.cancel(true));
                assertTrue(forceful.isCancelled());
                assertFalse(ch.isOpen(), "cancel(true) closes the channel");
            } finally {
                NativeFiles.warmingUpForTests(false);
                gate.countDown();
                held.shutdown();
            }
        }
    }

    @Test
    void aChannelWhoseNameLeadsElsewhereOnceTheNativeCallsAreReadyStaysTheJdksForGood() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        byte[] original = FileChannelContract.bytes(0, 4096);
        Path file = Files.write(dir.resolve("f"), original);
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            FileChannel ch;
            FileChannel gone;
            NativeFiles.holdChannelCallsForTests(true);
            try {
                ch = running.opener().open(file, READ, WRITE);
                gone = running.opener().open(dir.resolve("g"), CREATE, READ, WRITE);
            } finally {
                NativeFiles.holdChannelCallsForTests(false);
            }
            Files.move(file, dir.resolve("moved"));
            Files.write(file, new byte[10]);   // another file under the name now
            Files.delete(dir.resolve("g"));
            ByteBuffer dst = ByteBuffer.allocate(4096);
            assertEquals(4096, ch.read(dst, 0));
            assertArrayEquals(original, dst.array(), "the file this channel opened, not the one now at its name");
            assertTrue(ch.toString().endsWith(", the JDK's channel]"), ch.toString());
            assertEquals(2, ch.write(ByteBuffer.wrap(new byte[] {5, 6}), 4096));
            assertEquals(4098, ch.size());
            assertEquals(4098, Files.size(dir.resolve("moved")));
            assertEquals(10, Files.size(file));
            assertEquals(1, gone.write(ByteBuffer.wrap(new byte[] {1})));
            assertTrue(gone.toString().endsWith(", the JDK's channel]"), gone.toString());
            ch.close();
            gone.close();
        }
    }

    /**
     * Where /proc cannot name a descriptor (not mounted, or a process that is not dumpable), a channel opened
     * before the native calls were ready still takes hpio's descriptor only on the file the JDK's channel opened:
     * by the file key of the name and a statx of the descriptor and of the name ({@code LateDescriptor.isTheFile}).
     */
    @Test
    void withoutProcALateDescriptorIsStillCheckedToBeTheSameFile() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        byte[] original = FileChannelContract.bytes(0, 4096);
        Path file = Files.write(dir.resolve("f"), original);
        Path other = Files.write(dir.resolve("other"), original);
        Path noProc = Files.createDirectory(dir.resolve("no-proc"));   // holds no descriptor's name
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            FileChannel same;
            FileChannel replaced;
            NativeFiles.holdChannelCallsForTests(true);
            try {
                same = running.opener().open(file, READ, WRITE);
                replaced = running.opener().open(other, READ, WRITE);
            } finally {
                NativeFiles.holdChannelCallsForTests(false);
            }
            LateDescriptor.procForTests(noProc + "/");
            try {
                assertEquals(2, same.write(ByteBuffer.wrap(new byte[] {1, 2}), 0));
                assertFalse(same.toString().contains("the JDK's channel"), "the same file: hpio's descriptor, " + same);
                Files.move(other, dir.resolve("other-moved"));
                Files.write(other, new byte[10]);   // another file under the name now
                ByteBuffer dst = ByteBuffer.allocate(4096);
                assertEquals(4096, replaced.read(dst, 0));
                assertArrayEquals(original, dst.array(), "the file this channel opened, not the one at its name");
                assertTrue(replaced.toString().endsWith(", the JDK's channel]"), replaced.toString());
            } finally {
                LateDescriptor.procForTests(null);
                same.close();
                replaced.close();
            }
            assertEquals(2, Files.readAllBytes(file)[1], "the write reached the file");
            assertEquals(10, Files.size(other));
        }
    }

    @Test
    void aLateStartIsMadeOnceForEveryChannelAndByWhicheverCallFirstNeedsTheEngine() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        byte[] bytes = FileChannelContract.bytes(0, 256 << 10);
        Path file = Files.write(dir.resolve("f"), bytes);
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            // A read larger than what is served at once from the page cache needs the engine: a platform thread's is
            // the JDK channel's while a thread of hpio's starts them.
            StartCountingSource source = new StartCountingSource(running.engine());
            HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider(), source);
            try (FileChannel a = provider.newFileChannel(file, Set.of(READ));
                 FileChannel b = provider.newFileChannel(file, Set.of(READ))) {
                ByteBuffer all = ByteBuffer.allocate(bytes.length);
                assertEquals(bytes.length, a.read(all, 0));   // the JDK's, while a thread of hpio's starts them
                assertArrayEquals(bytes, all.array());
                source.awaitStarted();
                awaitServedByTheEngines(b);   // a channel opened before the start sees it
                assertEquals(bytes.length, b.read(all.clear(), 0));
                assertEquals(1, source.starts());
            }
            // A virtual thread's write, once the engines are started, goes to them (it parks rather than pins its
            // carrier in a pwrite); before, the JDK's channel makes it (holding the carrier for the pwrite, as the
            // JDK's own provider does) while a thread of hpio's starts them: here that start is held, and the write
            // does not wait for it.
            StartCountingSource second = new StartCountingSource(running.engine());
            CountDownLatch startHeld = second.holdStarts();
            provider = new HpioFileSystemProvider(FileSystems.getDefault().provider(), second);
            try (FileChannel ch = provider.newFileChannel(dir.resolve("w"), Set.of(CREATE, WRITE))) {
                try {
                    assertEquals(3, onVirtualThread(() -> ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}))).get(30, TimeUnit.SECONDS));
                    assertEquals(0, second.starts(), "written by the JDK's channel while the start is held");
                } finally {
                    startHeld.countDown();   // never leaves the start's thread held
                }
                second.awaitStarted();
                awaitServedByTheEngines(ch);
                assertEquals(2, onVirtualThread(() -> ch.write(ByteBuffer.wrap(new byte[] {4, 5}))).get(30, TimeUnit.SECONDS));
            }
            assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, Files.readAllBytes(dir.resolve("w")));
            // A virtual thread's force, for which the JDK's channel would add a carrier, starts them and waits.
            StartCountingSource fourth = new StartCountingSource(running.engine());
            provider = new HpioFileSystemProvider(FileSystems.getDefault().provider(), fourth);
            try (FileChannel ch = provider.newFileChannel(dir.resolve("w"), Set.of(WRITE))) {
                onVirtualThread(() -> {
                    ch.force(true);
                    return null;
                }).get(30, TimeUnit.SECONDS);
                assertEquals(1, fourth.starts(), "started by the force itself");
            }
            // Asking which engine serves a channel starts them.
            StartCountingSource third = new StartCountingSource(running.engine());
            provider = new HpioFileSystemProvider(FileSystems.getDefault().provider(), third);
            try (FileChannel ch = provider.newFileChannel(file, Set.of(READ))) {
                assertEquals(0, third.starts());
                assertEquals("uring", HpioChannels.engineOf(ch));
                assertEquals(1, third.starts());
            }
        }
    }

    /**
     * A start in the background that fails is not the end: the next calls that need an engine start them
     * themselves, and report why they cannot (before, every later call went on through the JDK's channel, and
     * nothing said why).
     */
    @Test
    void aBackgroundStartThatFailsLeavesTheNextCallsToStartTheEnginesAndSayWhyTheyCannot() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 100));
        HpioFileSystemProvider.EngineSource failing = new HpioFileSystemProvider.EngineSource() {
            @Override
            public IoEngine engine() throws IOException {
                throw new IOException("no engine here (injected)");
            }

            @Override
            public boolean ringsStarted() {
                return false;
            }

            @Override
            public boolean engineStarted() {
                return false;
            }
        };
        HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider(), failing);
        try (FileChannel ch = provider.newFileChannel(file, Set.of(READ, WRITE));
             AsynchronousFileChannel afc = provider.newAsynchronousFileChannel(file, Set.of(READ, WRITE), null)) {
            ch.force(true);   // the JDK's force, while a thread of hpio's tries to start the engines
            IOException reported = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (reported == null && System.nanoTime() < deadline) {
                try {
                    ch.force(true);
                    Thread.sleep(1);
                } catch (IOException e) {
                    reported = e;
                }
            }
            assertNotNull(reported, "a later call starts the engines itself and says why it cannot");
            assertTrue(reported.getMessage().contains("injected"), reported.toString());
            afc.force(true);   // the asynchronous engine's own start, in the background
            ExecutionException write = null;
            while (write == null && System.nanoTime() < deadline) {
                try {
                    afc.write(ByteBuffer.wrap(new byte[] {1}), 0).get(30, TimeUnit.SECONDS);
                    Thread.sleep(1);
                } catch (ExecutionException e) {
                    write = e;
                }
            }
            assertNotNull(write, "a later operation starts the engine itself and fails with why it cannot");
            assertTrue(write.getCause().getMessage().contains("injected"), write.getCause().toString());
        }
    }

    @Test
    void aChannelWhoseFirstNeedOfAnEngineComesAfterTheyClosedGoesOnThroughTheJdksChannel() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 100));
        IoEngine engine = IoEngines.openThreads(EngineConfig.defaults());
        StartCountingSource source = new StartCountingSource(engine);
        HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider(), source);
        try (FileChannel ch = provider.newFileChannel(file, Set.of(READ, WRITE))) {
            assertTrue(HpioChannels.isHpio(ch));
            engine.close();   // the JVM's shutdown, before any call of the channel needed an engine
            byte[] big = FileChannelContract.bytes(0, 100 << 10);   // more than a write made at once
            assertEquals(big.length, ch.write(ByteBuffer.wrap(big), 0));
            ch.force(true);
            source.awaitStarted();   // the engines were asked for; closed, they were not used
            assertNull(HpioChannels.engineOf(ch), "no engine serves it");
            ByteBuffer back = ByteBuffer.allocate(big.length);
            while (back.hasRemaining()) {
                assertTrue(ch.read(back, back.position()) > 0);
            }
            assertArrayEquals(big, back.array());
        }
    }

    @Test
    void anAsynchronousChannelOpenedBeforeTheEngineIsStartedStartsItOnlyWhenAnOperationNeedsIt() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        byte[] bytes = FileChannelContract.bytes(0, 4096);
        Path file = Files.write(dir.resolve("f"), bytes);   // just written: cached
        ExecutorService handlers = Executors.newSingleThreadExecutor(r -> new Thread(r, "given-executor"));
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            StartCountingSource source = new StartCountingSource(running.engine());
            HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider(), source);
            AsynchronousFileChannel ch = provider.newAsynchronousFileChannel(file, Set.of(READ, WRITE), null);
            AsynchronousFileChannel given = provider.newAsynchronousFileChannel(file, Set.of(READ), handlers);
            assertTrue(HpioChannels.isHpio(ch) && HpioChannels.isHpio(given));
            assertTrue(ch.toString().endsWith(", not started]"), ch.toString());
            ByteBuffer all = ByteBuffer.allocate(4096);
            assertEquals(4096, ch.read(all, 0).get(30, TimeUnit.SECONDS));
            assertArrayEquals(bytes, all.array());
            assertEquals(4096, all.position());
            ByteBuffer direct = ByteBuffer.allocateDirect(100);
            AsynchronousFileChannelContract.Recorder<Object> handled = new AsynchronousFileChannelContract.Recorder<>();
            given.read(direct, 1000, null, handled);
            assertEquals(100, handled.result.get(30, TimeUnit.SECONDS));
            assertEquals("given-executor", handled.thread.getName());
            byte[] got = new byte[100];
            direct.flip().get(got);
            assertArrayEquals(Arrays.copyOfRange(bytes, 1000, 1100), got);
            assertEquals(4096, ch.size());
            assertEquals(0, source.engineAsks(), "opening, cached reads (Future, handler on the given executor), size");
            ByteBuffer end = ByteBuffer.allocate(10);
            assertEquals(6, ch.read(end, 4090).get(30, TimeUnit.SECONDS), "runs into the end: the JDK's channel's");
            source.awaitEngineAsks(1);   // a read the page cache cannot serve whole starts the engine, in the background
            awaitServedByTheEngines(given);   // a channel opened before the start sees it (once it is handed over)
            assertEquals(3, ch.write(ByteBuffer.wrap(new byte[] {7, 8, 9}), 4096).get(30, TimeUnit.SECONDS));
            ch.force(false);
            assertEquals(1, source.engineAsks(), "started once");
            ch.close();
            given.close();
            try (AsynchronousFileChannel later = provider.newAsynchronousFileChannel(file, Set.of(READ), null)) {
                assertTrue(later.toString().endsWith(", uring]"), "later channels get the started engine");
            }
            assertEquals(0, source.starts(), "the FileChannels' rings were never asked for");
        } finally {
            handlers.shutdown();
        }
    }

    /**
     * Each of these first needs starts the engine, on a thread of hpio's, while the JDK's channel serves the
     * operation (it does not wait for io_uring's set-up).
     */
    @Test
    void anAsynchronousChannelsFirstWriteForceOrHandlerWithoutExecutorStartsTheEngine() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 4096));
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            for (int need = 0; need < 3; need++) {   // a write, a force, a handler without an executor
                StartCountingSource source = new StartCountingSource(running.engine());
                HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider(), source);
                try (AsynchronousFileChannel ch = provider.newAsynchronousFileChannel(file, Set.of(READ, WRITE), null)) {
                    switch (need) {
                        case 0 -> assertEquals(2, ch.write(ByteBuffer.wrap(new byte[] {1, 2}), 0).get(30, TimeUnit.SECONDS));
                        case 1 -> ch.force(true);
                        default -> {
                            AsynchronousFileChannelContract.Recorder<Object> read =
                                    new AsynchronousFileChannelContract.Recorder<>();
                            ch.read(ByteBuffer.allocate(10), 0, null, read);
                            assertEquals(10, read.result.get(30, TimeUnit.SECONDS));
                        }
                    }
                    source.awaitEngineAsks(1);   // started by a thread of hpio's while the JDK's channel served it
                    awaitServedByTheEngines(ch);   // asked for is not yet handed over: that thread may still be at it
                }
            }
        }
    }

    @Test
    void aClosedAsynchronousChannelThatNeverNeededTheEngineFailsWithoutStartingIt() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 100));
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            StartCountingSource source = new StartCountingSource(running.engine());
            HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider(), source);
            AsynchronousFileChannel ch = provider.newAsynchronousFileChannel(file, Set.of(READ, WRITE), null);
            ch.close();
            ExecutionException read = assertThrows(ExecutionException.class,
                    () -> ch.read(ByteBuffer.allocate(10), 0).get(30, TimeUnit.SECONDS));
            assertInstanceOf(ClosedChannelException.class, read.getCause());
            ExecutionException write = assertThrows(ExecutionException.class,
                    () -> ch.write(ByteBuffer.wrap(new byte[1]), 0).get(30, TimeUnit.SECONDS));
            assertInstanceOf(ClosedChannelException.class, write.getCause());
            assertThrows(ClosedChannelException.class, () -> ch.force(false));
            assertEquals(0, source.engineAsks());
        }
    }

    @Test
    void anAsynchronousChannelWhoseFirstNeedComesAfterTheEngineClosedGoesOnThroughTheJdksChannel() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 100));
        IoEngine engine = IoEngines.openThreads(EngineConfig.defaults());
        StartCountingSource source = new StartCountingSource(engine);
        HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider(), source);
        try (AsynchronousFileChannel ch = provider.newAsynchronousFileChannel(file, Set.of(READ, WRITE), null)) {
            assertTrue(HpioChannels.isHpio(ch));
            engine.close();   // the JVM's shutdown, before any operation of the channel needed the engine
            assertEquals(3, ch.write(ByteBuffer.wrap(new byte[] {4, 5, 6}), 100).get(30, TimeUnit.SECONDS));
            ch.force(true);
            ByteBuffer back = ByteBuffer.allocate(3);
            assertEquals(3, ch.read(back, 100).get(30, TimeUnit.SECONDS));
            assertArrayEquals(new byte[] {4, 5, 6}, back.array());
            assertTrue(source.engineAsks() > 0, "asked for; closed, it was not used");
        }
        try (AsynchronousFileChannel later = provider.newAsynchronousFileChannel(file, Set.of(READ), null)) {
            ByteBuffer back = ByteBuffer.allocate(3);
            assertEquals(3, later.read(back, 100).get(30, TimeUnit.SECONDS), "a later channel too");
            assertArrayEquals(new byte[] {4, 5, 6}, back.array());
        }
    }

    @Test
    void closeReturnsOnlyOnceAnOperationThatCompletedBeforeItsListenerWasSetIsSettled() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        byte[] bytes = FileChannelContract.bytes(0, 4096);
        Path file = Files.write(dir.resolve("f"), bytes);   // cached: the engine reads it within the submission
        try (Implementation.Running running = Implementation.HPIO_URING.start(EngineConfig.defaults())) {
            HpioAsynchronousFileChannel ch = (HpioAsynchronousFileChannel) running.opener().openAsync(file,
                    Set.of(READ), null);
            ch.force(false);   // starts the engine: the read below is one of its requests
            CountDownLatch submitted = new CountDownLatch(1);
            CountDownLatch closeReturned = new CountDownLatch(1);
            ch.betweenSubmissionAndListener = () -> {
                submitted.countDown();
                try {
                    closeReturned.await(1, TimeUnit.SECONDS);   // a close that does not wait for this returns first
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            ByteBuffer dst = ByteBuffer.allocate(1024);   // a heap buffer: staged, copied in when settled
            CompletableFuture<Future<Integer>> read = onOwnThread(() -> ch.read(dst, 0));
            assertTrue(submitted.await(30, TimeUnit.SECONDS));
            ch.close();
            int positionAtClose = dst.position();
            closeReturned.countDown();
            assertEquals(1024, read.get(30, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS),
                    "done before the close: its result, as the JDK reports it");
            assertEquals(1024, positionAtClose, "the buffer was the caller's again when close returned");
            assertArrayEquals(Arrays.copyOf(bytes, 1024), dst.array());
        }
    }

    @Test
    void aPlatformThreadsSmallBufferedWriteIsMadeAtOnceWithoutTheEngine() throws Exception {
        Path file = dir.resolve("w");
        try (Implementation.Running held = Implementation.HPIO_THREADS.startHeld(EngineConfig.defaults());
             FileChannel ch = held.opener().open(file, CREATE, READ, WRITE)) {
            assertTrue(HpioChannels.isHpio(ch));
            // On this engine a request waits until released: each write below must be made without one.
            CompletableFuture<Long> writes = onOwnThread(() -> {
                long n = ch.write(ByteBuffer.wrap(FileChannelContract.bytes(0, 4096)));
                ByteBuffer direct = ByteBuffer.allocateDirect(4096).put(FileChannelContract.bytes(4096, 4096)).flip();
                n += ch.write(direct, 4096);
                assertEquals(4096, ch.position(), "a positional write leaves the position");
                assertEquals(0, direct.remaining());
                ByteBuffer readOnly = ByteBuffer.wrap(FileChannelContract.bytes(8192, 100)).asReadOnlyBuffer();
                n += ch.position(8192).write(readOnly);
                assertEquals(0, readOnly.remaining());
                return n;
            });
            assertEquals(8292, writes.get(30, TimeUnit.SECONDS));
            assertEquals(0, held.engine().inFlight());
            assertEquals(8292, ch.position());
            held.release().run();
            ch.force(false);
        }
        assertArrayEquals(FileChannelContract.bytes(0, 8292), Files.readAllBytes(file));
    }

    @Test
    void preparingTheNativeCallsAheadLeavesNoDescriptorOpen() throws Exception {
        NativeCalls.assumeOn("hpio's native calls");
        long descriptors = openDescriptors();
        Syscalls.exerciseChannelCalls();
        UringRing.exerciseCalls();   // refused before anything is set up: no ring, no mapping
        IoEngines.prepareStart();
        assertEquals(descriptors, openDescriptors());
    }

    /** A source whose engines are started only when a call asks for them (as the shared one's); counts the starts. */
    private static final class StartCountingSource implements HpioFileSystemProvider.EngineSource {
        private final IoEngine engine;
        private int starts;
        private int engineAsks;
        private volatile CountDownLatch held;

        StartCountingSource(IoEngine engine) {
            this.engine = engine;
        }

        /** The asynchronous channels' engine: each ask counted ({@link #engineAsks}). */
        @Override
        public synchronized IoEngine engine() {
            engineAsks++;
            return engine;
        }

        synchronized int engineAsks() {
            return engineAsks;
        }

        @Override
        public synchronized boolean engineStarted() {
            return engineAsks > 0;
        }

        /** Waits (up to 30 s) until the engine was asked for {@code asks} times: a start in the background. */
        void awaitEngineAsks(int asks) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (engineAsks() < asks && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(asks, engineAsks());
        }

        /** The start, held first while {@link #holdStarts}' latch is up. */
        @Override
        public List<IoEngine> rings() {
            CountDownLatch hold = held;
            if (hold != null) {
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            synchronized (this) {
                if (starts == 0) {
                    starts++;
                }
            }
            return List.of(engine);
        }

        /** Holds every start until the latch returned is counted down. */
        CountDownLatch holdStarts() {
            CountDownLatch hold = new CountDownLatch(1);
            held = hold;
            return hold;
        }

        @Override
        public synchronized boolean ringsStarted() {
            return starts > 0;
        }

        synchronized int starts() {
            return starts;
        }

        /** Waits (up to 30 s) until the rings were started: by a thread of hpio's, for a platform thread's call. */
        void awaitStarted() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (starts() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(1, starts());
        }
    }

    /**
     * Waits (up to 30 s) until {@code channel} is served by the started engines: a start in the background counts
     * as started a moment before the rings are handed to the channels.
     */
    private static void awaitServedByTheEngines(Channel channel) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!channel.toString().endsWith(", uring]") && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(channel.toString().endsWith(", uring]"), channel.toString());
    }

    /** Whether a virtual thread's {@code Files.newByteChannel(path)} (a plain read-only one) is hpio's. */
    private static boolean plainByteChannelIsHpiosOnVirtualThread(Path path) throws Exception {
        return onVirtualThread(() -> {
            try (var ch = Files.newByteChannel(path)) {
                return HpioChannels.isHpio(ch);
            }
        }).get(30, TimeUnit.SECONDS);
    }

    /** An I/O call for {@link #onOwnThread}. */
    @FunctionalInterface
    private interface IoCall<T> {
        T call() throws IOException;
    }

    /** Runs {@code call} on a daemon platform thread of its own, so a caller waiting with a timeout fails, not hangs. */
    private static <T> CompletableFuture<T> onOwnThread(IoCall<T> call) {
        return onThreadOf(Thread.ofPlatform().daemon(), call);
    }

    /** As {@link #onOwnThread}, on a virtual thread. */
    private static <T> CompletableFuture<T> onVirtualThread(IoCall<T> call) {
        return onThreadOf(Thread.ofVirtual(), call);
    }

    private static <T> CompletableFuture<T> onThreadOf(Thread.Builder builder, IoCall<T> call) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return call.call();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, builder::start);
    }

    /** {@code path} as a path of {@code provider}'s file system: what opens through hpio's provider. */
    private static Path viaProvider(HpioFileSystemProvider provider, Path path) {
        return provider.getFileSystem(URI.create("file:///")).getPath(path.toString());
    }

    /** A named pipe made at {@code path} (the test is skipped where mkfifo is missing). */
    private static Path namedPipe(Path path) throws Exception {
        Assumptions.assumeTrue(new ProcessBuilder("mkfifo", path.toString()).inheritIO().start().waitFor() == 0,
                "mkfifo is missing");
        return path;
    }

    /** The descriptors this process has open now. */
    private static long openDescriptors() throws IOException {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    @Test
    void withoutNativeCallsPseudoFileSystemsAreKnownByTheJdksFileStore() throws Exception {
        var jdk = FileSystems.getDefault().provider();
        assertTrue(NativeFiles.isPseudoStore(jdk, Path.of("/proc/self/status")));
        assertTrue(NativeFiles.isPseudoStore(jdk, Path.of("/sys/kernel")));
        assertFalse(NativeFiles.isPseudoStore(jdk, Files.write(dir.resolve("f"), new byte[1])));
    }

    @Test
    void pathsOfTheWrappingFileSystemWorkWithFilesAndReportHpiosProvider() throws Exception {
        HpioFileSystemProvider provider = new HpioFileSystemProvider(FileSystems.getDefault().provider());
        FileSystem fs = provider.getFileSystem(URI.create("file:///"));
        Path root = fs.getPath(dir.toString());
        assertSame(provider, root.getFileSystem().provider());
        Path nested = Files.createDirectories(root.resolve("a").resolve("b"));
        Path file = Files.writeString(nested.resolve("x.txt"), "hello");
        assertSame(fs, file.getFileSystem());
        assertEquals("hello", Files.readString(file));
        assertTrue(Files.isRegularFile(file));
        assertEquals(5, Files.size(file));
        assertEquals(file, root.resolve("a/b/x.txt"));
        assertEquals(fs.getPath("a", "b", "x.txt"), root.relativize(file));
        assertEquals(file.toFile().toPath().toString(), file.toString());
        assertEquals(file, fs.provider().getPath(file.toUri()));
        try (var list = Files.list(nested)) {
            List<Path> entries = list.toList();
            assertEquals(List.of(file), entries);
            assertSame(fs, entries.getFirst().getFileSystem());
        }
        try (var walk = Files.walk(root)) {
            assertEquals(4, walk.count());
        }
        Path copy = Files.copy(file, root.resolve("copy.txt"));
        Files.move(copy, root.resolve("moved.txt"), StandardCopyOption.ATOMIC_MOVE);
        assertTrue(Files.isSameFile(root.resolve("moved.txt"), fs.getPath(dir.resolve("moved.txt").toString())));
        assertTrue(fs.getPathMatcher("glob:**/*.txt").matches(file));
        try (FileChannel ch = FileChannel.open(file, READ)) {
            assertTrue(HpioChannels.isHpio(ch), "FileChannel.open on a path of hpio's file system");
            ByteBuffer dst = ByteBuffer.allocate(5);
            ch.read(dst);
            assertArrayEquals("hello".getBytes(), Arrays.copyOf(dst.array(), 5));
        }
        Files.delete(root.resolve("moved.txt"));
        assertFalse(Files.exists(root.resolve("moved.txt")));
    }

    /** Waits until {@code thread} parks (WAITING or TIMED_WAITING), at most 10 s. */
    static void awaitParked(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            Thread.State s = thread.getState();
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                Thread.sleep(50);
                Thread.State again = thread.getState();
                if (again == Thread.State.WAITING || again == Thread.State.TIMED_WAITING) {
                    return;
                }
            }
            Thread.sleep(5);
        }
        throw new AssertionError(thread + " never parked: " + thread.getState());
    }

    @Test
    void repeatedOptionsAreAcceptedAndTheRootsCannotBeChangedAsTheJdksOnes() throws Exception {
        Path f = dir.resolve("repeated.bin");
        Files.write(f, new byte[] {1, 2, 3});
        try (FileChannel ch = HpioChannels.open(f, READ, READ)) {
            assertEquals(3, ch.size());
        }
        try (AsynchronousFileChannel ch = HpioChannels.openAsynchronous(f, READ,
                READ)) {
            assertEquals(3, ch.size());
        }
        Iterable<Path> roots = HpioChannels.provider().getFileSystem(URI.create("file:///")).getRootDirectories();
        var it = roots.iterator();
        it.next();
        assertThrows(UnsupportedOperationException.class, it::remove);
    }

    @Test
    void filesReadAllBytesOnAnInterruptedVirtualThreadReadsTheFileAsTheJdksDoes() throws Exception {
        HpioFileSystemProvider provider = HpioChannels.provider();
        Path file = Files.write(dir.resolve("all.bin"), FileChannelContract.bytes(0, 5000));
        Path hpioPath = viaProvider(provider, file);
        try (FileChannel ch = provider.newFileChannel(hpioPath, Set.of(READ, WRITE))) {
            ch.force(false);   // the engines started: a virtual thread's readAllBytes then gets hpio's channel
        }
        AtomicReference<Object> got = new AtomicReference<>();
        AtomicReference<Object> channel = new AtomicReference<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (channel.get() != HpioFileChannel.class && System.nanoTime() < deadline) {
                try (var c = Files.newByteChannel(hpioPath)) {   // the JDK's until the engines' start is done
                    channel.set(c.getClass());
                    Thread.sleep(10);
                } catch (IOException | InterruptedException e) {
                    channel.set(e);
                    return;
                }
            }
            Thread.currentThread().interrupt();
            try {
                got.set(Files.readAllBytes(hpioPath));
            } catch (Throwable e) {
                got.set(e);
            }
        });
        reader.join();
        assertEquals(HpioFileChannel.class, channel.get(), "served by hpio's channel");
        assertInstanceOf(byte[].class, got.get(), String.valueOf(got.get()));
        assertArrayEquals(FileChannelContract.bytes(0, 5000), (byte[]) got.get());
    }

    @Test
    void aPathOfAnotherKindOfFileSystemIsRefusedAsTheJdkRefusesIt() throws Exception {
        Path zip = dir.resolve("a.zip");
        try (FileSystem zipfs = FileSystems.newFileSystem(zip, Map.of("create", "true"))) {
            Path inside = zipfs.getPath("/etc/hostname");   // a name that exists on the host
            HpioFileSystemProvider provider = HpioChannels.provider();
            assertThrows(ProviderMismatchException.class, () -> provider.newFileChannel(inside, Set.of()));
            assertThrows(ProviderMismatchException.class, () -> provider.newByteChannel(inside, Set.of()));
            assertThrows(ProviderMismatchException.class,
                    () -> provider.newAsynchronousFileChannel(inside, Set.of(), null));
        }
    }
}
