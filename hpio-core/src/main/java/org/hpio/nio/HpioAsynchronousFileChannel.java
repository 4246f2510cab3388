package org.hpio.nio;

import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoOperation;
import org.hpio.internal.io.IoRequest;
import org.hpio.internal.io.IoRequests;
import org.hpio.internal.sys.Errno;
import org.hpio.internal.sys.NativeFile;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ShutdownChannelGroupException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * An {@link AsynchronousFileChannel} whose reads, writes and forces are hpio engine requests (io_uring, or the
 * portable engine): no thread blocks per request (003, finding 1).
 *
 * <p>Handlers run on the executor given to open, else on {@link DefaultHandlerPool} (whose idle thread waits for
 * the completions and runs their handlers itself); never on the engine's completion thread, and never inside
 * the retiring of a completion. Size, truncate and locks go to the JDK's own asynchronous channel on the same file
 * (opened with the same options and executor), which also gives open the JDK's validation and exceptions.
 *
 * <p>Bounds: the engine admits a bounded number of requests in flight and of staging bytes (heap buffers
 * are copied off-heap for the kernel). At a bound, the thread calling {@code read} or {@code write} waits
 * (parks) until earlier requests complete: memory stays bounded however far writes outrun the disk (003,
 * finding 2), and the caller feels the disk's pace, as with a blocking channel.
 *
 * <p>Engine: a channel opened before hpio's engine was started starts it with its first operation that needs it
 * (a write, a force, a read the page cache cannot serve at once, a handler to run without an executor); until
 * then a buffered read all in the page cache is done at once on the calling thread, as the engine would do it
 * (see {@link #readFromCacheBeforeStart}), so a cold JVM's first read of a cached file costs no io_uring set-up.
 * The start itself is made by a thread of hpio's while the JDK's channel serves the operation that asked for it
 * (without O_DIRECT, which the JDK's channel lacks), within hpio's bounds ({@link EarlyOperations}); an
 * operation beyond those bounds waits for the start.
 *
 * <p>Opened before hpio's native calls were ready (a cold JVM's first 60-100 ms, see
 * {@link NativeFiles#channelCallsReady}), a channel's reads and forces go to the JDK's channel until its first
 * operation after they are, which opens hpio's descriptor ({@link LateDescriptor}; if the name no longer leads
 * to the same file, the JDK's channel serves it for good), within hpio's bounds ({@link EarlyOperations}: a few
 * operations at a time, writes under the staging bound, heap data staged), which the JDK's channel alone lacks.
 *
 * <p>Close: refuses new operations, cancels those in flight and waits until the kernel is done with every
 * buffer; an operation the close stopped fails with {@link java.nio.channels.AsynchronousCloseException} and
 * leaves its buffer's position, one that finished first reports its result (as the JDK's channel does).
 */
final class HpioAsynchronousFileChannel extends AsynchronousFileChannel {
    /**
     * Its engine: one ({@link EngineRings#firstOrStart}), started by this channel's first operation that needs
     * it when the channel was opened before the start (see {@link #readFromCacheBeforeStart}).
     */
    private final EngineRings engines;
    /** hpio's descriptor, opened with the channel; null when {@link #late} opens it. */
    private final NativeFile file;
    /** For a channel opened before the native calls were ready: its descriptor, opened late; else null. */
    private final LateDescriptor late;
    private final Path path;
    private final AsynchronousFileChannel jdk;
    private final ExecutorService executor;
    private final ChannelOptions options;
    private final Set<PendingOperation<?>> inFlight = ConcurrentHashMap.newKeySet();
    /** Submissions hold the read lock; close takes the write lock to stop them. */
    private final ReentrantReadWriteLock closeLock = new ReentrantReadWriteLock();
    private volatile boolean open = true;
    /**
     * Tests only: run by a submitting thread between its operation's submission and {@link PendingOperation#listen}
     * (outside the lock, where a close can come and find the request already completed); null otherwise.
     */
    volatile Runnable betweenSubmissionAndListener;
    /** Closes hpio's descriptor if the program drops this channel unclosed (see HpioFileChannel's). */
    private final NativeFile.DescriptorCloser descriptorCloser;

    private HpioAsynchronousFileChannel(EngineRings engines, NativeFile file, LateDescriptor late, Path path,
                                        AsynchronousFileChannel jdk, ExecutorService executor, ChannelOptions options) {
        this.engines = engines;
        this.file = file;
        this.late = late;
        this.path = path;
        this.jdk = jdk;
        this.executor = executor;
        this.options = options;
        this.descriptorCloser = late != null ? NativeFile.DescriptorCloser.forDescriptorNotOpenedYet(late)
                : NativeFile.closeWhenUnreachable(file);
    }

    /**
     * Opens {@code path} (a path of {@code jdkProvider}): the JDK's channel first (validation, creation,
     * truncation, exceptions), then hpio's descriptor on the same file. A file the engine does not serve (see
     * {@link NativeFiles#servedByEngine}) gets the JDK's channel alone, with every option (see
     * {@link HpioFileChannel#open}).
     */
    static AsynchronousFileChannel open(EngineRings engines, FileSystemProvider jdkProvider, Path path,
                                        Set<? extends OpenOption> openOptions, ExecutorService executor,
                                        FileAttribute<?>... attrs) throws IOException {
        ChannelOptions options = ChannelOptions.of(openOptions);
        AsynchronousFileChannel jdk = jdkProvider.newAsynchronousFileChannel(path, options.forJdk(), executor, attrs);
        try {
            LateDescriptor late = LateDescriptor.ifNotReady(jdkProvider, path, options);
            if (late != null) {   // the JDK's channel serves until hpio's native calls are ready
                return new HpioAsynchronousFileChannel(engines, null, late, path, jdk, executor, options);
            }
            if (!NativeFiles.servedByEngineOrNone(jdkProvider, path)) {
                if (!options.direct() && !options.deleteOnClose()) {
                    return jdk;
                }
                jdk.close();   // opened again with the two options hpio's descriptor would have carried
                return jdkProvider.newAsynchronousFileChannel(path, options.forJdkAlone(), executor, attrs);
            }
            NativeFile file = NativeFiles.openOrNull(jdkProvider, path, options);
            if (file == null) {   // hpio's open refused where the JDK's succeeded: the JDK's channel alone
                return jdk;
            }
            return new HpioAsynchronousFileChannel(engines, file, null, path, jdk, executor, options);
        } catch (IOException | RuntimeException | Error e) {
            jdk.close();
            throw e;
        }
    }

    // ---- read and write ----

    @Override
    public Future<Integer> read(ByteBuffer dst, long position) {
        return start(dst, position, true, null, null);
    }

    @Override
    public <A> void read(ByteBuffer dst, long position, A attachment, CompletionHandler<Integer, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        start(dst, position, true, attachment, handler);
    }

    @Override
    public Future<Integer> write(ByteBuffer src, long position) {
        return start(src, position, false, null, null);
    }

    @Override
    public <A> void write(ByteBuffer src, long position, A attachment, CompletionHandler<Integer, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        start(src, position, false, attachment, handler);
    }

    /** The JDK's checks, in the JDK's order, then one engine request; failures go to the future or handler. */
    private <A> Future<Integer> start(ByteBuffer buffer, long position, boolean read, A attachment,
                                      CompletionHandler<Integer, ? super A> handler) {
        if (position < 0) {
            throw new IllegalArgumentException("Negative position");
        }
        if (read && !options.readable()) {
            throw new NonReadableChannelException();
        }
        if (!read && !options.writable()) {
            throw new NonWritableChannelException();
        }
        if (read && buffer.isReadOnly()) {
            throw new IllegalArgumentException("Read-only buffer");
        }
        if (!open || !buffer.hasRemaining()) {
            return settledAtOnce(0, open ? null : new ClosedChannelException(), attachment, handler);
        }
        if (executor != null && executor.isShutdown()) {
            // The JDK's channel hands the operation to the executor now, which refuses it.
            throw new RejectedExecutionException("the channel's executor is shut down: " + executor);
        }
        NativeFile descriptor = attached(false);
        if (descriptor == null) {   // opened before the native calls were ready, and they still are not
            if (!late.jdkForGood() && EarlyOperations.tryEnter(read, buffer.remaining())) {
                return EarlyOperations.transfer(this, jdk, buffer, position, read, attachment, handler);
            }
            descriptor = attached(true);   // beyond what the JDK's channel may take: hpio's, at once
            if (descriptor == null) {   // the name no longer leads to the file: the JDK's own channel, for good
                return jdkTransfer(buffer, position, read, attachment, handler);
            }
        }
        if (read && !options.direct() && engines.firstIfStarted() == null && (handler == null || executor != null)) {
            Future<Integer> served = readFromCacheBeforeStart(descriptor, buffer, position, attachment, handler);
            if (served != null) {
                return handler == null ? served : null;
            }
        }
        if (!options.direct() && engines.firstIfStarted() == null && engines.startInBackground()
                && EarlyOperations.tryEnter(read, buffer.remaining())) {
            // The JDK's channel serves it, within hpio's bounds, while a thread of hpio's starts the engine (its
            // set-up, 10-20 ms after the provider's warm-up, would be this operation's otherwise).
            return EarlyOperations.transfer(this, jdk, buffer, position, read, attachment, handler);
        }
        IoEngine started;
        try {
            started = engines.firstOrStart();
        } catch (IOException | RuntimeException e) {   // the engines could not be started
            return settledAtOnce(null, e, attachment, handler);
        }
        if (started == null || started.isClosed()) {
            // The JVM's shutdown hook closed the engine (or closed it before this channel's first need): the
            // JDK's channel serves.
            return jdkTransfer(buffer, position, read, attachment, handler);
        }
        return submit(started, descriptor, buffer, position, read, attachment, handler);
    }

    /**
     * Before the engines are started, a buffered read the page cache holds is done at once on the calling thread
     * ({@link CachedRead}: one preadv2 RWF_NOWAIT, never a wait for the device) and its result given as the
     * engine's would be: the future done, or the handler handed to the channel's executor. A cold JVM's first
     * read of a cached file then costs no io_uring set-up (see DESIGN "First calls"). Null when it is not served
     * that way (not all of it cached, the channel closed meanwhile): the engine then takes it. Only where no
     * engine is needed to deliver it: a handler without an executor goes to the engine's default pool.
     */
    private <A> Future<Integer> readFromCacheBeforeStart(NativeFile file, ByteBuffer dst, long position, A attachment,
                                                        CompletionHandler<Integer, ? super A> handler) {
        long got;
        Throwable failure = null;
        closeLock.readLock().lock();
        try {
            if (!open) {
                return null;
            }
            got = CachedRead.read(file, dst, position, false);   // as the engine would: all of it, or not here
        } catch (IOException e) {
            got = 0;
            failure = JdkErrors.asJdks(e);   // a failed call: in the JDK's words
        } catch (RuntimeException e) {
            got = 0;
            failure = e;
        } finally {
            closeLock.readLock().unlock();
        }
        if (got == CachedRead.NOT_SERVED) {
            return null;
        }
        Integer bytes = failure != null ? null : (int) got;
        if (handler != null) {
            PendingOperation.dispatch(executor, handler, attachment, bytes, failure);
        }
        return PendingOperation.done(bytes, failure);
    }

    /**
     * An operation settled without an engine request (nothing to transfer, the channel closed, the engines not
     * to be had): a done future, or the handler handed to its executor (then null).
     */
    private <A> Future<Integer> settledAtOnce(Integer bytes, Throwable failure, A attachment,
                                              CompletionHandler<Integer, ? super A> handler) {
        if (handler == null) {
            return PendingOperation.done(bytes, failure);
        }
        if (executor != null && executor.isShutdown()) {
            throw new ShutdownChannelGroupException();   // as the JDK's channel, whose executor refuses the handler
        }
        PendingOperation.dispatch(handlerExecutor(), handler, attachment, bytes, failure);
        return null;
    }

    private <A> Future<Integer> jdkTransfer(ByteBuffer buffer, long position, boolean read, A attachment,
                                            CompletionHandler<Integer, ? super A> handler) {
        if (handler == null) {
            return new ClosingFuture<>(read ? jdk.read(buffer, position) : jdk.write(buffer, position),
                    Function.identity());
        }
        if (read) {
            jdk.read(buffer, position, attachment, handler);
        } else {
            jdk.write(buffer, position, attachment, handler);
        }
        return null;
    }

    /**
     * A future of the JDK's channel, its result reported through {@code result}; its forceful cancel closes this
     * channel, as the JDK's closes its own (cancelling the JDK's gently, then closing both).
     */
    private final class ClosingFuture<T, V> implements Future<V> {
        private final Future<T> jdkFuture;
        private final Function<T, V> result;

        ClosingFuture(Future<T> jdkFuture, Function<T, V> result) {
            this.jdkFuture = jdkFuture;
            this.result = result;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = jdkFuture.cancel(false);
            if (cancelled && mayInterruptIfRunning) {
                closeQuietly();   // which closes the JDK's channel too, releasing a lock it took meanwhile
            }
            return cancelled;
        }

        @Override
        public boolean isCancelled() {
            return jdkFuture.isCancelled();
        }

        @Override
        public boolean isDone() {
            return jdkFuture.isDone();
        }

        @Override
        public V get() throws InterruptedException, ExecutionException {
            return result.apply(jdkFuture.get());
        }

        @Override
        public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            return result.apply(jdkFuture.get(timeout, unit));
        }
    }

    private <A> PendingOperation<A> submit(IoEngine engine, NativeFile file, ByteBuffer buffer, long position,
                                           boolean read, A attachment, CompletionHandler<Integer, ? super A> handler) {
        BufferTransfer transfer;
        try {
            transfer = uninterruptibly(() -> BufferTransfer.prepare(engine, new ByteBuffer[] {buffer}, read, true));
        } catch (IOException | RuntimeException e) {
            PendingOperation<A> failed = new PendingOperation<>(this, null, read, attachment, handler);
            failed.failBeforeSubmission(e);
            return failed;
        }
        PendingOperation<A> op = new PendingOperation<>(this, transfer, read, attachment, handler);
        Throwable refused = null;
        closeLock.readLock().lock();
        try {
            if (!open) {
                refused = new ClosedChannelException();
            } else {
                IoOperation operation = transfer.operation(file, position);
                // A buffered read all in the page cache is done at once, without waiting for the device.
                op.submitted(uninterruptibly(() -> read && !options.direct() ? engine.readNowOrSubmit(operation)
                        : engine.submit(operation)));
                inFlight.add(op);
            }
        } catch (IOException | RuntimeException e) {
            refused = e;
        } finally {
            closeLock.readLock().unlock();
        }
        if (refused != null) {
            transfer.release();
            op.failBeforeSubmission(refused);
        } else {
            Runnable pause = betweenSubmissionAndListener;
            if (pause != null) {
                pause.run();
            }
            op.listen();
        }
        return op;
    }

    /** A call that may wait at the engine's bounds. */
    private interface BoundedWait<T> {
        T call() throws IOException;
    }

    /**
     * {@code wait}, which fails with InterruptedIOException (keeping the interrupt status) when the calling
     * thread is interrupted at the engine's bounds, made as the JDK's channel behaves, whose operations never
     * look at the caller's interrupt status: an interrupt before or meanwhile does not fail it, and the status
     * is set again when it returns.
     */
    private static <T> T uninterruptibly(BoundedWait<T> wait) throws IOException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return wait.call();
                } catch (InterruptedIOException e) {
                    if (!Thread.interrupted()) {
                        throw e;   // not an interrupt of this thread's
                    }
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * hpio's descriptor: for a channel opened before the native calls were ready, opened now if they are or
     * {@code now} ({@link LateDescriptor}); else null while they are not, and for good when it could not be.
     */
    private NativeFile attached(boolean now) {
        return late == null ? file : late.get(now);
    }

    /** Called by an operation as it settles. */
    void retired(PendingOperation<?> op) {
        inFlight.remove(op);
    }

    void cancel(IoRequest request) {
        engines.firstIfStarted().cancel(request);   // started: the request is one of its engine's
    }

    /**
     * The executor handlers run on: the one given to open, else the default pool of the engine (started now if
     * need be). Where no engine can be had (the JVM is shutting down), a thread of its own per handler.
     */
    Executor handlerExecutor() {
        if (executor != null) {
            return executor;
        }
        IoEngine started;
        try {
            started = engines.firstOrStart();
        } catch (IOException | RuntimeException e) {
            started = null;
        }
        return started != null ? DefaultHandlerPool.of(started) : OWN_THREAD_HANDLERS;
    }

    /**
     * Runs each handler on a daemon thread of its own: for when no engine, so no default pool, can be had, and
     * for a handler the channel's executor refused ({@link PendingOperation#dispatch}).
     */
    static final Executor OWN_THREAD_HANDLERS = new OwnThreadHandlers();

    /**
     * {@link #OWN_THREAD_HANDLERS}' executor: a class, not a lambda, since this class is initialized by a cold JVM's
     * first asynchronous channel, where the JVM's first lambda costs 5-6 ms (AMD EPYC).
     */
    private static final class OwnThreadHandlers implements Executor {
        @Override
        public void execute(Runnable task) {
            Thread thread = Thread.ofPlatform().daemon().name("hpio-handler").unstarted(task);
            thread.setContextClassLoader(ClassLoader.getSystemClassLoader());   // as DefaultHandlerPool's threads
            thread.start();
        }
    }

    // ---- size, truncate, force, locks ----

    @Override
    public long size() throws IOException {
        ensureOpen();
        return jdk.size();
    }

    @Override
    public AsynchronousFileChannel truncate(long size) throws IOException {
        if (size < 0) {   // the JDK's order: the arguments, the mode, then whether the channel is open
            throw new IllegalArgumentException("Negative size");
        }
        if (!options.writable()) {
            throw new NonWritableChannelException();
        }
        if (!isOpen()) {   // as the JDK's, whose end(n > 0) turns its ClosedChannelException into this one
            throw new AsynchronousCloseException();
        }
        jdk.truncate(size);
        return this;
    }

    /**
     * An fsync (metaData) or fdatasync request; the calling thread waits (a virtual thread parks). One the engine
     * refused (closed meanwhile: the JVM's shutdown) or that came back cancelled while this channel is open synced
     * nothing: the JDK's channel forces the file then.
     */
    @Override
    public void force(boolean metaData) throws IOException {
        ensureOpen();
        NativeFile descriptor = attached(false);
        IoEngine started = descriptor == null ? null : engines.firstIfStarted();
        if (descriptor != null && started == null && !engines.startInBackground()) {
            started = engines.firstOrStart();   // a start in the background failed: this call starts it, or says why
        }   // else the JDK's channel forces the file (the same inode) while a thread of hpio's starts the engine
        if (started == null || started.isClosed()) {
            jdk.force(metaData);
            return;
        }
        IoRequest request;
        closeLock.readLock().lock();
        try {
            ensureOpen();
            IoEngine engine = started;
            request = uninterruptibly(() -> engine.submit(IoOperation.fsync(descriptor, metaData)));
        } catch (IOException e) {
            if (!started.isClosed()) {
                throw e;
            }
            request = null;   // refused: the engine closed meanwhile (the JVM's shutdown)
        } finally {
            closeLock.readLock().unlock();
        }
        if (request != null) {
            IoRequests.awaitAllUninterruptibly(List.of(request));
            if (request.errno() != Errno.ECANCELED || !isOpen()) {
                try {
                    request.resultOrThrow();
                } catch (IOException e) {
                    throw JdkErrors.asJdks(e);   // a failed fsync: in the JDK's words
                }
                return;
            }
        }
        jdk.force(metaData);   // the engine refused or cancelled the fsync, so nothing synced the file: the JDK does
    }

    @Override
    public <A> void lock(long position, long size, boolean shared, A attachment,
                         CompletionHandler<FileLock, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        if (!lockable(shared)) {   // closed, the JDK's channel not yet (see lockable)
            PendingOperation.dispatch(handlerExecutor(), handler, attachment, null, new ClosedChannelException());
            return;
        }
        jdk.lock(position, size, shared, attachment, new CompletionHandler<FileLock, A>() {
            @Override
            public void completed(FileLock lock, A a) {
                handler.completed(new HpioFileLock(HpioAsynchronousFileChannel.this, lock), a);
            }

            @Override
            public void failed(Throwable exc, A a) {
                handler.failed(exc, a);
            }
        });
    }

    @Override
    public Future<FileLock> lock(long position, long size, boolean shared) {
        if (!lockable(shared)) {
            return CompletableFuture.failedFuture(new ClosedChannelException());
        }
        return new ClosingFuture<>(jdk.lock(position, size, shared), new ReportedLock());
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        if (!lockable(shared)) {
            throw new ClosedChannelException();
        }
        FileLock lock = jdk.tryLock(position, size, shared);
        return lock == null ? null : new HpioFileLock(this, lock);
    }

    /**
     * The JDK's checks of a lock's mode, then whether this channel is open: false when it is closed. Its close
     * closes the JDK's channel only after the operations in flight are done; meanwhile that channel would
     * still lock.
     */
    private boolean lockable(boolean shared) {
        if (shared && !options.readable()) {
            throw new NonReadableChannelException();
        }
        if (!shared && !options.writable()) {
            throw new NonWritableChannelException();
        }
        return open;
    }

    /**
     * The JDK's lock, reported as this channel's: the same {@link HpioFileLock} every time, as the JDK's future
     * gives the same lock.
     */
    private final class ReportedLock implements Function<FileLock, FileLock> {
        private FileLock lock;   // guarded by this

        @Override
        public synchronized FileLock apply(FileLock jdkOne) {
            if (lock == null) {
                lock = new HpioFileLock(HpioAsynchronousFileChannel.this, jdkOne);
            }
            return lock;
        }
    }

    // ---- open and close ----

    @Override
    public boolean isOpen() {
        return open;
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }

    /**
     * Refuses new operations, cancels those in flight and waits until each is done (its buffer is the caller's
     * again; its future or handler gets AsynchronousCloseException unless it finished first), then closes both
     * descriptors.
     */
    @Override
    public void close() throws IOException {
        closeLock.writeLock().lock();
        try {
            if (!open) {
                return;
            }
            open = false;
        } finally {
            closeLock.writeLock().unlock();
        }
        List<PendingOperation<?>> operations = List.copyOf(inFlight);
        List<IoRequest> pending = new ArrayList<>();
        for (PendingOperation<?> op : operations) {
            cancel(op.request());
            pending.add(op.request());
        }
        if (!pending.isEmpty()) {
            IoRequests.awaitAllUninterruptibly(pending);
            for (PendingOperation<?> op : operations) {
                op.awaitBufferReturned();   // settled by whoever retired it, or by its submitter right after
            }
        }
        try {
            jdk.close();
        } finally {
            descriptorCloser.close();   // hpio's descriptor (late's: none is opened after), once
        }
    }

    void closeQuietly() {
        try {
            close();
        } catch (IOException e) {
            System.getLogger(getClass().getName()).log(System.Logger.Level.WARNING, "closing " + path + ": " + e);
        }
    }

    /** The engine serving this channel ("uring" or "threads"), started now if need be (null: none can be had). */
    String engineName() throws IOException {
        return engines.name();
    }

    @Override
    public String toString() {
        return "HpioAsynchronousFileChannel[" + path + ", " + LateDescriptor.servedBy(late, engines) + "]";
    }
}
