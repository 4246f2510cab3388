package org.hpio.nio;

import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoOperation;
import org.hpio.internal.sys.Errno;
import org.hpio.testing.NativeCalls;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.spi.FileSystemProvider;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code FileChannel.force} whose fsync the engine refuses because the engine closed under it (the JVM's
 * shutdown hook closes the engines while other threads still force their files) must still force the file:
 * it does so through the JDK's channel on the same file. Seen through a JDK provider whose channels count
 * their forces. The engine's close ends such an fsync either way: refusing it at admission, or cancelling it
 * once admitted (here: queued behind held workers; io_uring's case, a job not yet in the ring, is
 * {@code UringEngineTest}'s). An fsync that comes back ECANCELED from an open engine did not sync either. The
 * same for an {@code AsynchronousFileChannel}'s force.
 */
class ForceAtEngineCloseTest {
    @BeforeEach
    void noWarmUpRunning() {
        HpioChannels.provider();   // its warm-up starts with it, before the test's channel
        NativeFiles.awaitChannelCallsForTests();
    }

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Implementation.class, names = {"HPIO_THREADS", "HPIO_URING"})
    void aForceWhoseFsyncTheClosingEngineRefusesForcesThroughTheJdksChannel(Implementation implementation)
            throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 4096));
        CountDownLatch fsyncArrived = new CountDownLatch(1);
        CountDownLatch engineClosed = new CountDownLatch(1);
        EngineConfig.FaultHook holdFsyncUntilClosed = new EngineConfig.FaultHook() {
            @Override
            public int errnoFor(IoOperation operation) {
                if (operation.kind() == IoOperation.Kind.FSYNC) {
                    fsyncArrived.countDown();
                    Implementation.awaitUninterruptibly(engineClosed);
                }
                return 0;
            }
        };
        try (Implementation.Running running = implementation.start(EngineConfig.defaults()
                .withFaults(holdFsyncUntilClosed))) {
            IoEngine engine = running.engine();
            ForceCountingProvider jdk = new ForceCountingProvider(FileSystems.getDefault().provider());
            HpioFileSystemProvider provider = new HpioFileSystemProvider(jdk, () -> engine);
            try (FileChannel ch = provider.newFileChannel(file, Set.of(READ, WRITE))) {
                assertTrue(HpioChannels.isHpio(ch), ch.toString());
                assertEquals(4, ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), 0));
                CompletableFuture<Void> force = onThreadOfItsOwn(() -> forceUnchecked(ch));
                assertTrue(fsyncArrived.await(30, TimeUnit.SECONDS), "the fsync reached the engine");
                CompletableFuture<Void> close = onThreadOfItsOwn(() -> closeUnchecked(engine));
                awaitClosed(engine);
                engineClosed.countDown();
                force.get(30, TimeUnit.SECONDS);   // no "engine is closed": the JDK's channel forced instead
                close.get(30, TimeUnit.SECONDS);
                assertEquals(1, jdk.forces(), "the JDK's channel on the file forced it once");
                ch.force(false);   // and so does every force after the engine is gone
                assertEquals(2, jdk.forces());
            } finally {
                engineClosed.countDown();   // before the channel's and the engine's close, whatever failed
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Implementation.class, names = {"HPIO_THREADS", "HPIO_URING"})
    void aForceWhoseFsyncEndsCancelledWithTheEngineOpenForcesThroughTheJdksChannel(Implementation implementation)
            throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 4096));
        EngineConfig.FaultHook cancelFsync = new EngineConfig.FaultHook() {
            @Override
            public int errnoFor(IoOperation operation) {
                return operation.kind() == IoOperation.Kind.FSYNC ? Errno.ECANCELED : 0;
            }
        };
        try (Implementation.Running running = implementation.start(EngineConfig.defaults().withFaults(cancelFsync))) {
            IoEngine engine = running.engine();
            ForceCountingProvider jdk = new ForceCountingProvider(FileSystems.getDefault().provider());
            HpioFileSystemProvider provider = new HpioFileSystemProvider(jdk, () -> engine);
            try (FileChannel ch = provider.newFileChannel(file, Set.of(READ, WRITE))) {
                assertTrue(HpioChannels.isHpio(ch), ch.toString());
                ch.force(true);   // the engine's fsync came back ECANCELED: nothing was synced by it
                assertFalse(engine.isClosed());
                assertEquals(1, jdk.forces(), "the JDK's channel on the file forced it instead");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Implementation.class, names = {"HPIO_THREADS", "HPIO_URING"})
    void anAsynchronousChannelsForceWhoseFsyncTheEngineRefusesOrCancelsForcesThroughTheJdksChannel(
            Implementation implementation) throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 4096));
        CountDownLatch fsyncArrived = new CountDownLatch(1);
        CountDownLatch engineClosed = new CountDownLatch(1);
        AtomicInteger fsyncs = new AtomicInteger();
        EngineConfig.FaultHook cancelFirstHoldSecond = new EngineConfig.FaultHook() {
            @Override
            public int errnoFor(IoOperation operation) {
                if (operation.kind() != IoOperation.Kind.FSYNC) {
                    return 0;
                }
                if (fsyncs.incrementAndGet() == 1) {
                    return Errno.ECANCELED;   // the first: cancelled with the engine open
                }
                fsyncArrived.countDown();   // the second: held until the engine closed, then refused
                Implementation.awaitUninterruptibly(engineClosed);
                return 0;
            }
        };
        try (Implementation.Running running = implementation.start(EngineConfig.defaults()
                .withFaults(cancelFirstHoldSecond))) {
            IoEngine engine = running.engine();
            ForceCountingProvider jdk = new ForceCountingProvider(FileSystems.getDefault().provider());
            HpioFileSystemProvider provider = new HpioFileSystemProvider(jdk, () -> engine);
            try (AsynchronousFileChannel ch = provider.newAsynchronousFileChannel(file, Set.of(READ, WRITE),
                    null)) {
                assertTrue(HpioChannels.isHpio(ch), ch.toString());
                ch.force(true);
                assertEquals(1, jdk.forces(), "an fsync cancelled with the engine open: the JDK's channel forced");
                CompletableFuture<Void> force = onThreadOfItsOwn(() -> forceUnchecked(ch));
                assertTrue(fsyncArrived.await(30, TimeUnit.SECONDS), "the second fsync reached the engine");
                CompletableFuture<Void> close = onThreadOfItsOwn(() -> closeUnchecked(engine));
                awaitClosed(engine);
                engineClosed.countDown();
                force.get(30, TimeUnit.SECONDS);   // no "engine is closed": the JDK's channel forced instead
                close.get(30, TimeUnit.SECONDS);
                assertEquals(2, jdk.forces(), "an fsync refused by the closing engine: the JDK's channel forced");
            } finally {
                engineClosed.countDown();
            }
        }
    }

    @Test
    void aForceWhoseFsyncTheClosingEngineCancelsForcesThroughTheJdksChannel() throws Exception {
        NativeCalls.assumeOn("hpio's channels");
        Path file = Files.write(dir.resolve("f"), FileChannelContract.bytes(0, 4096));
        try (Implementation.Running running = Implementation.HPIO_THREADS.startHeld(EngineConfig.defaults())) {
            IoEngine engine = running.engine();   // its workers wait at a gate: an fsync handed to it stays queued
            ForceCountingProvider jdk = new ForceCountingProvider(FileSystems.getDefault().provider());
            HpioFileSystemProvider provider = new HpioFileSystemProvider(jdk, () -> engine);
            try (FileChannel ch = provider.newFileChannel(file, Set.of(READ, WRITE))) {
                assertTrue(HpioChannels.isHpio(ch), ch.toString());
                assertEquals(4, ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), 0));
                CompletableFuture<Void> force = onThreadOfItsOwn(() -> forceUnchecked(ch));
                awaitInFlight(engine);
                // cancels the queued fsync: its request ends ECANCELED, not done (on a thread of its own, so that
                // a close that waited for the held workers fails the test instead of hanging it)
                onThreadOfItsOwn(() -> closeUnchecked(engine)).get(30, TimeUnit.SECONDS);
                force.get(30, TimeUnit.SECONDS);
                assertEquals(1, jdk.forces(), "the JDK's channel on the file forced it instead");
            }
        }
    }

    private static void awaitInFlight(IoEngine engine) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (engine.inFlight() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(1, engine.inFlight(), "the fsync was handed to the engine");
    }

    /** Runs {@code task} on a platform thread of its own (the common pool may have one thread: 2 cores). */
    private static CompletableFuture<Void> onThreadOfItsOwn(Runnable task) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                task.run();
                done.complete(null);
            } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    private static void awaitClosed(IoEngine engine) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!engine.isClosed() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(engine.isClosed(), "the engine began to close");
    }

    private static void forceUnchecked(AsynchronousFileChannel ch) {
        try {
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void forceUnchecked(FileChannel ch) {
        try {
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void closeUnchecked(IoEngine engine) {
        try {
            engine.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The platform's provider, whose FileChannels count their forces; everything else is the platform's. */
    private static final class ForceCountingProvider extends FileSystemProvider {
        private final FileSystemProvider platform;
        private final AtomicInteger forces = new AtomicInteger();

        ForceCountingProvider(FileSystemProvider platform) {
            this.platform = platform;
        }

        int forces() {
            return forces.get();
        }

        @Override
        public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
                throws IOException {
            return new ForceCountingChannel(platform.newFileChannel(path, options, attrs), forces);
        }

        @Override
        public AsynchronousFileChannel newAsynchronousFileChannel(Path path, Set<? extends OpenOption> options,
                                                                  ExecutorService executor,
                                                                  FileAttribute<?>... attrs) throws IOException {
            return new ForceCountingAsynchronousChannel(platform.newAsynchronousFileChannel(path, options, executor,
                    attrs), forces);
        }

        @Override
        public String getScheme() {
            return platform.getScheme();
        }

        @Override
        public FileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
            return platform.newFileSystem(uri, env);
        }

        @Override
        public FileSystem getFileSystem(URI uri) {
            return platform.getFileSystem(uri);
        }

        @Override
        public Path getPath(URI uri) {
            return platform.getPath(uri);
        }

        @Override
        public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
                                                  FileAttribute<?>... attrs) throws IOException {
            return platform.newByteChannel(path, options, attrs);
        }

        @Override
        public DirectoryStream<Path> newDirectoryStream(Path d, DirectoryStream.Filter<? super Path> filter)
                throws IOException {
            return platform.newDirectoryStream(d, filter);
        }

        @Override
        public void createDirectory(Path d, FileAttribute<?>... attrs) throws IOException {
            platform.createDirectory(d, attrs);
        }

        @Override
        public void delete(Path path) throws IOException {
            platform.delete(path);
        }

        @Override
        public void copy(Path source, Path target, CopyOption... options) throws IOException {
            platform.copy(source, target, options);
        }

        @Override
        public void move(Path source, Path target, CopyOption... options) throws IOException {
            platform.move(source, target, options);
        }

        @Override
        public boolean isSameFile(Path path, Path path2) throws IOException {
            return platform.isSameFile(path, path2);
        }

        @Override
        public boolean isHidden(Path path) throws IOException {
            return platform.isHidden(path);
        }

        @Override
        public FileStore getFileStore(Path path) throws IOException {
            return platform.getFileStore(path);
        }

        @Override
        public void checkAccess(Path path, AccessMode... modes) throws IOException {
            platform.checkAccess(path, modes);
        }

        @Override
        public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type,
                                                                    LinkOption... options) {
            return platform.getFileAttributeView(path, type, options);
        }

        @Override
        public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
                throws IOException {
            return platform.readAttributes(path, type, options);
        }

        @Override
        public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
                throws IOException {
            return platform.readAttributes(path, attributes, options);
        }

        @Override
        public void setAttribute(Path path, String attribute, Object value, LinkOption... options)
                throws IOException {
            platform.setAttribute(path, attribute, value, options);
        }
    }

    /** A platform AsynchronousFileChannel that counts its forces. */
    private static final class ForceCountingAsynchronousChannel extends AsynchronousFileChannel {
        private final AsynchronousFileChannel platform;
        private final AtomicInteger forces;

        ForceCountingAsynchronousChannel(AsynchronousFileChannel platform, AtomicInteger forces) {
            this.platform = platform;
            this.forces = forces;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            platform.force(metaData);
            forces.incrementAndGet();
        }

        @Override
        public long size() throws IOException {
            return platform.size();
        }

        @Override
        public AsynchronousFileChannel truncate(long size) throws IOException {
            platform.truncate(size);
            return this;
        }

        @Override
        public <A> void lock(long position, long size, boolean shared, A attachment,
                             CompletionHandler<FileLock, ? super A> handler) {
            platform.lock(position, size, shared, attachment, handler);
        }

        @Override
        public Future<FileLock> lock(long position, long size, boolean shared) {
            return platform.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return platform.tryLock(position, size, shared);
        }

        @Override
        public <A> void read(ByteBuffer dst, long position, A attachment,
                             CompletionHandler<Integer, ? super A> handler) {
            platform.read(dst, position, attachment, handler);
        }

        @Override
        public Future<Integer> read(ByteBuffer dst, long position) {
            return platform.read(dst, position);
        }

        @Override
        public <A> void write(ByteBuffer src, long position, A attachment,
                              CompletionHandler<Integer, ? super A> handler) {
            platform.write(src, position, attachment, handler);
        }

        @Override
        public Future<Integer> write(ByteBuffer src, long position) {
            return platform.write(src, position);
        }

        @Override
        public boolean isOpen() {
            return platform.isOpen();
        }

        @Override
        public void close() throws IOException {
            platform.close();
        }
    }

    /** A platform FileChannel that counts its forces. */
    private static final class ForceCountingChannel extends FileChannel {
        private final FileChannel platform;
        private final AtomicInteger forces;

        ForceCountingChannel(FileChannel platform, AtomicInteger forces) {
            this.platform = platform;
            this.forces = forces;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            platform.force(metaData);
            forces.incrementAndGet();
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return platform.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return platform.read(dsts, offset, length);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return platform.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            return platform.write(srcs, offset, length);
        }

        @Override
        public long position() throws IOException {
            return platform.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            platform.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return platform.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            platform.truncate(size);
            return this;
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return platform.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            return platform.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return platform.read(dst, position);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            return platform.write(src, position);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return platform.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return platform.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return platform.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            platform.close();
        }
    }
}
