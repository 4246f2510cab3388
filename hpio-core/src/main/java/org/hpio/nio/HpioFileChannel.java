package org.hpio.nio;

import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoOperation;
import org.hpio.internal.io.IoRequest;
import org.hpio.internal.io.IoRequests;
import org.hpio.internal.sys.Errno;
import org.hpio.internal.sys.FileSystemType;
import org.hpio.internal.sys.NativeAccess;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Statx;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.Channel;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.FileLockInterruptionException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.spi.FileSystemProvider;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link FileChannel} whose reads, writes and forces are hpio engine requests. The calling thread waits for
 * its request: a virtual thread parks and frees its carrier (the JDK's channel pins it in the system call, so
 * the scheduler adds carriers); a platform thread on io_uring reaps its own completion.
 *
 * <p>{@code truncate}, {@code map}, {@code transferTo}/{@code transferFrom}, locks, and every write of an
 * APPEND channel (the kernel's O_APPEND is what makes appends atomic) go to the JDK's own channel on the same
 * file (for a plain read-only channel, opened when first needed: {@link #openReadOnly}); {@code size} is hpio's
 * descriptor's. The file position is this channel's own (the JDK channel's is never used).
 *
 * <p>A channel opened before hpio's native calls are ready (a cold JVM's first 60-100 ms, see
 * {@link NativeFiles#channelCallsReady}) is served by the JDK's channel alone until its first call after they
 * are, or its first call the JDK's channel would make only by adding a carrier (a virtual thread's force, or its
 * write on a DSYNC or SYNC channel: see {@link #jdkMayServe}), which opens hpio's descriptor
 * ({@link LateDescriptor}; if the name no longer leads to the same file, the JDK's channel serves it for good).
 * The position is this channel's throughout, so nothing moves at the switch.
 *
 * <p>Buffers: see {@link BufferTransfer}. A thread returns from a read or write only once the kernel is done
 * with its buffer, even when the channel is closed under it or the thread is interrupted (the channel then
 * closes, as the JDK's does, and the call throws {@link java.nio.channels.ClosedByInterruptException}).
 */
final class HpioFileChannel extends FileChannel {
    /** The engines this channel's calls go to, one per call ({@link EngineRings#forCurrentThread}). */
    private final EngineRings engines;
    /** hpio's descriptor, opened with the channel; null when {@link #late} opens it. */
    private final NativeFile file;
    /** For a channel opened before the native calls were ready: its descriptor, opened late; else null. */
    private final LateDescriptor late;
    /** The JDK's channel on the same file: opened with this one, or on first use (see {@link #openReadOnly}). */
    private volatile FileChannel jdk;
    /** Guards the late opening of {@link #jdk} against close. */
    private final ReentrantLock jdkLock = new ReentrantLock();
    /** Where {@link #jdk} is opened late: the platform's provider and the path this channel was opened by. */
    private final FileSystemProvider jdkProvider;
    private final Path path;
    private final ChannelOptions options;
    private final ReentrantLock positionLock = new ReentrantLock();
    private long position;
    /**
     * Set before this channel's first request goes to an engine ({@link #hand}): until then close has nothing to
     * cancel and skips the engines' scan. A request handed while close runs is cancelled by its own thread,
     * which sees the channel closed after setting this ({@link #submitAndWait}).
     */
    private volatile boolean handedToEngine;
    /**
     * Closes hpio's descriptor ({@link #late}'s, or {@link #file}) if the program drops this channel unclosed, as
     * the JDK's channel closes its own (its Cleaner): a dropped channel kept the descriptor open for good.
     */
    private final NativeFile.DescriptorCloser descriptorCloser;

    private HpioFileChannel(EngineRings engines, NativeFile file, FileChannel jdk, FileSystemProvider jdkProvider,
                            Path path, ChannelOptions options) {
        this(engines, file, null, jdk, jdkProvider, path, options);
    }

    private HpioFileChannel(EngineRings engines, NativeFile file, LateDescriptor late, FileChannel jdk,
                            FileSystemProvider jdkProvider, Path path, ChannelOptions options) {
        this.engines = engines;
        this.file = file;
        this.late = late;
        this.jdk = jdk;
        this.jdkProvider = jdkProvider;
        this.path = path;
        this.options = options;
        this.descriptorCloser = late != null ? NativeFile.DescriptorCloser.forDescriptorNotOpenedYet(late)
                : NativeFile.closeWhenUnreachable(file);
    }

    /**
     * Opens {@code path} (a path of {@code jdkProvider}): the JDK's channel first (validation, creation,
     * truncation, exceptions), then hpio's descriptor on the same file. A file the engine does not serve (a pipe,
     * a device, a /proc file: {@link NativeFiles#servedByEngine}) gets the JDK's channel alone, with every option
     * ({@link ChannelOptions#forJdkAlone}), opened again when it has one that only hpio's descriptor would have
     * carried (the first open created nothing then: what it creates is a regular file beside others the engine
     * serves, short of a directory on a pseudo file system that lets a program create files).
     */
    static FileChannel open(EngineRings engines, FileSystemProvider jdkProvider, Path path,
                            Set<? extends OpenOption> openOptions, FileAttribute<?>... attrs) throws IOException {
        ChannelOptions options = ChannelOptions.of(openOptions);
        if (ChannelOptions.plainRead(openOptions, attrs)) {
            FileChannel channel = openReadOnly(engines, jdkProvider, path, options);
            if (channel != null) {
                return channel;
            }
        }
        FileChannel jdk = jdkProvider.newFileChannel(path, options.forJdk(), attrs);
        try {
            LateDescriptor late = LateDescriptor.ifNotReady(jdkProvider, path, options);
            if (late != null) {   // the JDK's channel serves until hpio's native calls are ready
                return new HpioFileChannel(engines, null, late, jdk, jdkProvider, path, options);
            }
            if (!NativeFiles.servedByEngineOrNone(jdkProvider, path)) {
                if (!options.direct() && !options.deleteOnClose()) {
                    return jdk;
                }
                jdk.close();   // opened again with the two options hpio's descriptor would have carried
                return jdkProvider.newFileChannel(path, options.forJdkAlone(), attrs);
            }
            NativeFile file = NativeFiles.openOrNull(jdkProvider, path, options);
            if (file == null) {   // hpio's open refused where the JDK's succeeded: the JDK's channel alone
                return jdk;
            }
            return new HpioFileChannel(engines, file, jdk, jdkProvider, path, options);
        } catch (IOException | RuntimeException | Error e) {
            jdk.close();
            throw e;
        }
    }

    /**
     * A plain read-only open (READ or no option, no attribute: {@code FileChannel.open(path)}, and from a virtual
     * thread {@code Files.readAllBytes} and {@code newByteChannel(path)}, whose platform-thread calls the
     * provider leaves to the JDK) costs one statx(2) by name and one open(2) of hpio's descriptor, not the
     * JDK's open beside them: nothing is created or truncated, so the JDK's channel has nothing to validate or
     * do first, and it is opened only if a call needs it ({@link #jdk()}). A file the engine does not serve gets
     * the JDK's channel alone at once (the options need nothing more, see {@link ChannelOptions#forJdkAlone}).
     * Null, with nothing opened, when the file is missing or hpio's open fails: the usual way then gives the
     * JDK's own outcome, its exception included. The file's type is asked before hpio opens it, so hpio never
     * opens a pipe (opening and closing its read end could lose what a writer wrote meanwhile); a file replaced
     * by a pipe between the two calls fails its reads (ESPIPE) rather than being read as a file. A name found a
     * served regular file before is checked by its descriptor instead ({@link #openRemembered}).
     */
    private static FileChannel openReadOnly(EngineRings engines, FileSystemProvider jdkProvider, Path path,
                                            ChannelOptions options) throws IOException {
        if (!NativeFiles.channelCallsReady() || !NativeAccess.available()) {
            return null;   // the JDK's open first (see open): the native calls are off, or not linked yet
        }
        String name = NativeFile.nameOf(path);
        long remembered = RegularFileNames.deviceOf(name);
        if (remembered != RegularFileNames.UNKNOWN) {
            FileChannel channel = openRemembered(engines, jdkProvider, path, name, remembered, options);
            if (channel != null) {
                return channel;
            }
        }
        long served;
        try {
            served = NativeFiles.servedDevice(name);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (served == NativeFiles.NOT_SERVED) {
            return jdkProvider.newFileChannel(path, options.forJdk());
        }
        NativeFile file;
        try {
            file = NativeFile.open(path, options.nativeFlags());
        } catch (IOException | RuntimeException e) {
            return null;
        }
        RegularFileNames.remember(name, served);
        return ownedBy(file, engines, jdkProvider, path, options);
    }

    /**
     * {@link #openReadOnly} of a name remembered as a served regular file on device {@code dev}
     * ({@link RegularFileNames}): opened at once (O_NONBLOCK and O_NOCTTY, so that a pipe or a terminal put there
     * since holds up nothing and becomes nobody's), then checked by a statx of the descriptor, one call where
     * the statx by name walked the path again (a quarter of a virtual thread's {@code Files.readAllBytes} of a
     * 1 KiB file). Still a regular file on that device: hpio's channel (O_NONBLOCK stays on a file system with a
     * device of its own, whose reads ignore it; elsewhere, FUSE say, whose server sees it, it is cleared now).
     * A pipe now: the JDK's channel on that pipe ({@link NativeFiles#jdkChannelOnPipe}, which loses nothing a
     * writer let through by this open wrote). Anything else, or a failure: null, the name forgotten and
     * nothing left open, and the caller goes the usual way.
     */
    private static FileChannel openRemembered(EngineRings engines, FileSystemProvider jdkProvider, Path path,
                                              String name, long dev, ChannelOptions options) throws IOException {
        NativeFile file;
        try {
            file = NativeFile.openNonBlocking(path, options.nativeFlags());
        } catch (IOException | RuntimeException e) {
            RegularFileNames.forget(name);
            return null;   // gone, say: the usual way gives the JDK's outcome
        }
        boolean handed = false;
        try {
            Statx statx = file.statx(Statx.STATX_TYPE);
            // A device number without a device (tmpfs, btrfs, NFS) is reused after an unmount: the file system
            // is asked again, by the descriptor, so that a pseudo one mounted since is never served.
            if (statx.isRegularFile() && statx.dev() == dev
                    && (!statx.onAnonymousDevice() || !FileSystemType.isPseudo(file.fileSystemType()))) {
                if (statx.onAnonymousDevice()) {
                    file.clearNonBlocking();
                }
                handed = true;
                return ownedBy(file, engines, jdkProvider, path, options);
            }
            RegularFileNames.forget(name);
            if (statx.isPipe()) {
                return NativeFiles.jdkChannelOnPipe(file, jdkProvider, path, options.forJdk());
            }
            return null;
        } catch (IOException | RuntimeException e) {
            RegularFileNames.forget(name);
            return null;
        } finally {
            if (!handed) {
                NativeFiles.closeQuietly(file);
            }
        }
    }

    /** hpio's channel on {@code file}, which it then owns; {@code file} is closed if the channel cannot be made. */
    private static FileChannel ownedBy(NativeFile file, EngineRings engines, FileSystemProvider jdkProvider,
                                       Path path, ChannelOptions options) throws IOException {
        try {
            return new HpioFileChannel(engines, file, null, jdkProvider, path, options);
        } catch (RuntimeException | Error e) {
            file.close();
            throw e;
        }
    }

    /**
     * The JDK's channel on this channel's file, opened now if {@link #openReadOnly} left it for later: by
     * {@code /proc/self/fd/N} of hpio's descriptor (the same file even if its name has changed since), or by
     * the path where /proc is not mounted.
     */
    private FileChannel jdk() throws IOException {
        FileChannel channel = jdk;
        if (channel != null) {
            return channel;
        }
        jdkLock.lock();
        try {
            if (jdk == null) {
                if (!isOpen()) {
                    throw new ClosedChannelException();
                }
                jdk = openJdkLate();
            }
            return jdk;
        } finally {
            jdkLock.unlock();
        }
    }

    /**
     * hpio's descriptor: for a channel opened before the native calls were ready, opened now if they are, or if
     * the JDK's channel may not make this call ({@code jdkMay} false, see {@link #jdkMayServe}); else null while
     * they are not, and for good when it could not be opened (the JDK's channel serves every call then)
     * ({@link LateDescriptor}).
     */
    private NativeFile attached(boolean jdkMay) {
        return late == null ? file : late.get(!jdkMay);
    }

    /**
     * Whether the JDK's channel may make this thread's call while hpio's native calls or engines are not ready
     * (a cold JVM's first 100-200 ms): always for a platform thread, which blocks in a call on either channel;
     * for a virtual thread only when the JDK's channel makes the call on its carrier without adding one
     * ({@code jdkAddsCarrier} false), as the JDK's own provider would. JDK 25's {@code FileChannelImpl} has the
     * scheduler add a carrier only for O_DIRECT transfers, writes with DSYNC or SYNC, and force; its other reads
     * and writes hold the carrier for their system call, which on a file in the page cache is microseconds.
     * Otherwise the virtual thread waits for hpio's calls (100-150 ms at the warm-up's start) and parks in them
     * (a virtual thread's first read at once: 120-150 ms before, AMD EPYC).
     */
    private static boolean jdkMayServe(boolean jdkAddsCarrier) {
        return !jdkAddsCarrier || !Thread.currentThread().isVirtual();
    }

    /** Whether the JDK's channel adds a carrier for a virtual thread's transfer on this channel (see {@link #jdkMayServe}). */
    private boolean jdkAddsCarrier(boolean read) {
        return options.direct() || !read && (options.dsync() || options.sync());
    }

    /**
     * The engine for a call that needs one: of the started engines; before the start, a call the JDK's channel
     * may make ({@code jdkMay}, see {@link #jdkMayServe}) on a channel without O_DIRECT gets null, and the JDK's
     * channel serves it while a thread of hpio's starts them (the call does not wait for io_uring's set-up,
     * 10-20 ms after the provider's warm-up); any other call (a virtual thread's that the JDK's channel would
     * add a carrier for, an O_DIRECT one: the JDK's channel, opened without it, would go through the page
     * cache) starts them and waits. Null too when they cannot be had (closed, or being started by this very
     * thread).
     */
    private IoEngine engineForCall(boolean jdkMay) throws IOException {
        if (!jdkMay || options.direct()) {
            return engines.forCurrentThread();
        }
        return engines.forCurrentThreadOrStartInBackground();
    }

    private FileChannel openJdkLate() throws IOException {
        Set<OpenOption> read = Set.of(StandardOpenOption.READ);
        try (NativeFile.Lease lease = file.lease()) {
            Path self = path.getFileSystem().getPath("/proc/self/fd/" + lease.fd());
            try {
                return jdkProvider.newFileChannel(self, read);
            } catch (IOException e) {
                return jdkProvider.newFileChannel(path, read);   // no /proc here
            }
        }
    }

    // ---- reads ----

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        requireReadable();
        return (int) transferAtPosition(new ByteBuffer[] {dst}, true);   // null and read-only: see transfer
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, dsts.length);
        ensureOpen();
        requireReadable();
        return transferAtPosition(Arrays.copyOfRange(dsts, offset, offset + length), true);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        if (dst == null) {
            throw new NullPointerException();
        }
        if (position < 0) {
            throw new IllegalArgumentException("Negative position");
        }
        ensureOpen();
        requireReadable();
        return (int) transfer(new ByteBuffer[] {dst}, true, position);
    }

    // ---- writes ----

    @Override
    public int write(ByteBuffer src) throws IOException {
        ensureOpen();
        requireWritable();
        if (options.append()) {
            return (int) appendWith(() -> (long) jdk().write(src));
        }
        return (int) transferAtPosition(new ByteBuffer[] {src}, false);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, srcs.length);
        ensureOpen();
        requireWritable();
        if (options.append()) {
            return appendWith(() -> jdk().write(srcs, offset, length));
        }
        return transferAtPosition(Arrays.copyOfRange(srcs, offset, offset + length), false);
    }

    /** A transfer at the channel's position, which then advances by the bytes moved (none at end of file). */
    private long transferAtPosition(ByteBuffer[] buffers, boolean read) throws IOException {
        positionLock.lock();
        try {
            long n = transfer(buffers, read, position);
            if (n > 0) {
                position += n;
            }
            return n;
        } finally {
            positionLock.unlock();
        }
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        if (src == null) {
            throw new NullPointerException();
        }
        if (position < 0) {
            throw new IllegalArgumentException("Negative position");
        }
        ensureOpen();
        requireWritable();
        if (options.append()) {
            return delegated(() -> jdk().write(src, position));
        }
        return (int) transfer(new ByteBuffer[] {src}, false, position);
    }

    /**
     * Set for a channel the provider hands {@code Files.readAllBytes} and {@code readString} (a virtual thread's
     * plain read-only {@code newByteChannel}): the JDK makes its own channel for those uninterruptible
     * ({@code FileChannelImpl.setUninterruptible}), so that an interrupted thread still reads its file; so is
     * this one. The JDK's {@code Files.newByteChannel} channel is interruptible; a virtual thread's plain
     * read-only one from hpio is not (the provider cannot tell the two callers apart).
     */
    private volatile boolean uninterruptible;

    void setUninterruptible() {
        uninterruptible = true;
    }

    /**
     * {@link #begin}, unless uninterruptible: then an interrupt neither closes the channel nor fails the call;
     * the thread's interrupt status is set aside for the call (true when it was set: {@link #endBlocking} sets
     * it again), since the descriptor's calls (the JDK's channel where native calls are off) would fail on it.
     */
    private boolean beginBlocking() {
        if (!uninterruptible) {
            begin();
            return false;
        }
        return Thread.interrupted();
    }

    /** {@link #end}, unless uninterruptible: then only a close by another thread fails an uncompleted call. */
    private void endBlocking(boolean completed, boolean interruptSetAside) throws AsynchronousCloseException {
        if (interruptSetAside) {
            Thread.currentThread().interrupt();
        }
        if (!uninterruptible) {
            end(completed);
        } else if (!completed && !isOpen()) {
            throw new AsynchronousCloseException();
        }
    }

    /** A call of the JDK's channel on the file. */
    private interface JdkCall<T> {
        T call() throws IOException;
    }

    /**
     * {@code call} of the JDK's channel, made as this channel's own blocking call: the thread's interrupt (before
     * or during it) closes this channel, and with it the JDK's, and the call throws ClosedByInterruptException,
     * as the JDK's channel behaves, instead of closing only the JDK's channel under this open one.
     */
    private <T> T delegated(JdkCall<T> call) throws IOException {
        boolean completed = false;
        boolean cleared = false;   // an interrupt this uninterruptible call set aside (see beginBlocking)
        ensureOpen();   // a channel closed before the call: ClosedChannelException, not AsynchronousCloseException
        try {
            cleared = beginBlocking();   // an interrupt before the call closes this channel here
            T result = call.call();
            completed = true;
            return result;
        } catch (ClosedByInterruptException | FileLockInterruptionException e) {
            // The interrupt came during the JDK's call, whose own begin() had the thread's interruptor then: it
            // closed the JDK's channel only. This one closes too, and the JDK's exception is the call's.
            completed = true;   // so that end() does not replace it with AsynchronousCloseException
            closeQuietlyAfterInterrupt();
            throw e;
        } finally {
            endBlocking(completed, cleared);
        }
    }

    private void closeQuietlyAfterInterrupt() {
        try {
            close();
        } catch (IOException e) {
            System.getLogger(HpioFileChannel.class.getName()).log(System.Logger.Level.DEBUG,
                    "closing " + path + " after an interrupt: " + e);
        }
    }

    /** An APPEND channel's write, by the JDK's channel (O_APPEND); this channel's position follows the end. */
    private long appendWith(JdkCall<Long> write) throws IOException {
        positionLock.lock();
        try {
            return delegated(() -> {
                long n = write.call();
                position = jdk().position();
                return n;
            });
        } finally {
            positionLock.unlock();
        }
    }

    // ---- the engine path ----

    /**
     * One engine request between the file at {@code at} and the remaining bytes of {@code buffers}: bytes
     * moved, or -1 for a read at the end of the file. Waits until the kernel is done with the memory, however
     * often the thread is interrupted; closing the channel (or interrupting the thread) cancels the request.
     */
    private long transfer(ByteBuffer[] buffers, boolean read, long at) throws IOException {
        boolean completed = false;
        boolean cleared = false;   // an interrupt this uninterruptible call set aside (see beginBlocking)
        long moved = 0;
        BufferTransfer transfer = null;
        try {
            cleared = beginBlocking();
            if (!isOpen()) {
                return 0;   // end() throws AsynchronousCloseException or ClosedByInterruptException
            }
            // The buffers' checks come here, as the JDK's come in the call it makes after its begin.
            for (ByteBuffer b : buffers) {
                Objects.requireNonNull(b);
                if (read) {
                    requireWritableBuffer(b);
                }
            }
            if (BufferTransfer.remaining(buffers) == 0) {
                return 0;   // an interrupt still closes the channel (end)
            }
            boolean jdkMay = jdkMayServe(jdkAddsCarrier(read));
            NativeFile descriptor = attached(jdkMay);
            if (descriptor == null) {   // opened before the native calls were ready, and they still are not
                moved = jdkTransfer(buffers, read, at);
                completed = true;
                return moved;
            }
            if (read && buffers.length == 1 && !options.direct()) {
                long got = CachedRead.read(descriptor, buffers[0], at);
                if (got != CachedRead.NOT_SERVED) {
                    completed = true;
                    return got == 0 ? -1 : got;
                }
            }
            if (!read && buffers.length == 1 && !options.direct() && !options.dsync() && !options.sync()) {
                long written = CallingThreadWrite.write(descriptor, buffers[0], at);
                if (written != CallingThreadWrite.NOT_SERVED) {
                    completed = true;
                    return written;
                }
            }
            IoEngine engine = engineForCall(jdkMay);   // the engines start with the first call that needs one
            if (engine == null || engine.isClosed()) {   // starting, or closed (the JVM's shutdown)
                moved = jdkTransfer(buffers, read, at);
                completed = true;
                return moved;
            }
            transfer = BufferTransfer.prepare(engine, buffers, read);
            IoRequest request = submitOrNullIfEngineClosed(engine, transfer.operation(descriptor, at));
            if (request == null && isOpen() && engine.isClosed()) {   // refused: the engine closed meanwhile
                transfer.release();
                transfer = null;
                moved = jdkTransfer(buffers, read, at);
                completed = true;
                return moved;
            }
            if (request == null) {
                return 0;
            }
            if (request.isCancelled() && engine.isClosed()) {   // the engine closed under it (JVM shutdown)
                transfer.release();
                transfer = null;
                moved = jdkTransfer(buffers, read, at);
                completed = true;
                return moved;
            }
            moved = request.resultOrThrow();
            transfer.finish(moved);
            completed = true;
            return read && moved == 0 ? -1 : moved;
        } catch (ClosedByInterruptException e) {   // from the JDK's channel (see delegated)
            completed = true;
            closeQuietlyAfterInterrupt();
            throw e;
        } catch (IOException e) {
            throw JdkErrors.asJdks(e);   // a failed call: in the JDK's words
        } finally {
            if (transfer != null) {
                transfer.release();
            }
            endBlocking(completed, cleared);
        }
    }

    /**
     * The same transfer by the JDK's channel on the file: once the engine is closed (the JVM's shutdown hook
     * closes it while other hooks may still write files), this channel goes on working as the JDK's does.
     * Called with the position lock held for relative transfers (scatter and gather are always relative).
     */
    private long jdkTransfer(ByteBuffer[] buffers, boolean read, long at) throws IOException {
        if (buffers.length == 1) {
            return read ? jdk().read(buffers[0], at) : jdk().write(buffers[0], at);
        }
        jdk().position(at);
        return read ? jdk().read(buffers) : jdk().write(buffers);
    }

    /** {@link #submitAndWait}, or null when the engine refused it because it is closed. */
    private IoRequest submitOrNullIfEngineClosed(IoEngine engine, IoOperation operation) throws IOException {
        try {
            return submitAndWait(engine, operation);
        } catch (IOException e) {
            if (engine.isClosed()) {
                return null;
            }
            throw e;
        }
    }

    /**
     * Submits {@code operation} and waits for it uninterruptibly (the interrupt status stays); null when the
     * request was cancelled (a close or interrupt meanwhile), or failed after the channel was closed. One that
     * completed before a close stopped it is returned: the JDK's channel reports such a call's bytes too.
     */
    private IoRequest submitAndWait(IoEngine engine, IoOperation operation) throws IOException {
        IoRequest request = hand(engine, operation);
        if (!isOpen()) {   // closed between begin() and the submission: implCloseChannel may have missed it
            engine.cancel(request);
        }
        IoRequests.awaitAllUninterruptibly(List.of(request));
        if (request.errno() == Errno.ECANCELED || !isOpen() && request.errno() != 0) {
            return null;
        }
        return request;   // done, even if a close came meanwhile: its bytes are reported, as the JDK's end(n > 0)
    }

    /**
     * Gives {@code operation} to the engine by the cheapest way that keeps a virtual thread unpinned: a
     * buffered read is first tried at once without waiting for the device (preadv2 RWF_NOWAIT: all of it in
     * the page cache, else submitted as below); a plain buffered write by a platform thread, which would wait
     * for the completion anyway, is one pwrite on this thread; everything else is submitted for this waiting
     * thread (beyond the engine's bound the request waits in the engine's queue, in turn with every other
     * channel call's, not the thread for room: {@link IoEngine#submitToWait}). A thread waiting for room would
     * lose every freed place to the queued requests: with 1,000 virtual readers queued, a platform thread's
     * read of a 1 KiB file waited seconds.
     */
    private IoRequest hand(IoEngine engine, IoOperation operation) throws IOException {
        if (!handedToEngine) {
            handedToEngine = true;
            operation.file().clearNonBlocking();   // here, once, not under the engine's submission lock (Lease.fd)
        }
        boolean buffered = !options.direct();
        if (operation.kind() == IoOperation.Kind.READ && buffered) {
            return engine.readNowOrSubmitToWait(operation);
        }
        if (operation.kind() == IoOperation.Kind.WRITE && buffered && !options.dsync() && !options.sync()
                && !Thread.currentThread().isVirtual()) {
            return engine.perform(operation);
        }
        return engine.submitToWait(operation);
    }

    // ---- position, size, truncate, force ----

    @Override
    public long position() throws IOException {
        ensureOpen();
        if (options.append()) {
            return delegated(() -> jdk().size());
        }
        positionLock.lock();
        try {
            return delegated(() -> position);   // as the JDK's: an interrupted thread closes the channel
        } finally {
            positionLock.unlock();
        }
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException();
        }
        positionLock.lock();
        try {
            return delegated(() -> {
                position = newPosition;
                return this;
            });
        } finally {
            positionLock.unlock();
        }
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return delegated(() -> {
            NativeFile attached = attached(true);   // the JDK's size is an fstat: no carrier added
            return attached == null ? jdk().size() : attached.size();
        });
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        ensureOpen();
        if (size < 0) {
            throw new IllegalArgumentException("Negative size");
        }
        requireWritable();
        positionLock.lock();
        try {
            delegated(() -> jdk().truncate(size));
            if (position > size) {
                position = size;
            }
            return this;
        } finally {
            positionLock.unlock();
        }
    }

    /** An fsync (metaData) or fdatasync request; a virtual thread parks while it runs. */
    @Override
    public void force(boolean metaData) throws IOException {
        ensureOpen();
        boolean jdkMay = jdkMayServe(true);   // the JDK's force adds a carrier for a virtual thread
        NativeFile attached = attached(jdkMay);
        IoEngine engine = attached == null ? null : engineForCall(jdkMay);
        if (engine == null || engine.isClosed()) {
            delegated(() -> {
                jdk().force(metaData);
                return null;
            });
            return;
        }
        boolean completed = false;
        boolean cleared = false;   // an interrupt this uninterruptible call set aside (see beginBlocking)
        try {
            cleared = beginBlocking();
            if (!isOpen()) {
                return;
            }
            IoRequest request = submitOrNullIfEngineClosed(engine, IoOperation.fsync(attached, metaData));
            if (request == null && isOpen()) {   // refused or cancelled (the engine closed, or ECANCELED): no fsync ran
                jdk().force(metaData);
                completed = true;
            } else if (request != null) {
                request.resultOrThrow();
                completed = true;
            }
        } catch (ClosedByInterruptException e) {   // from the JDK's channel (see delegated)
            completed = true;
            closeQuietlyAfterInterrupt();
            throw e;
        } catch (IOException e) {
            throw JdkErrors.asJdks(e);   // a failed fsync: in the JDK's words
        } finally {
            endBlocking(completed, cleared);
        }
    }

    // ---- delegated to the JDK's channel on the same file ----

    /**
     * The JDK's checks, in its order; an hpio channel as the target is checked as the JDK checks its own (it
     * cannot see into ours), and is written through its own calls, which keep its position.
     */
    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        ensureOpen();
        if (!target.isOpen()) {
            throw new ClosedChannelException();
        }
        requireReadable();
        if (target instanceof HpioFileChannel hpio) {
            hpio.requireWritable();
        }
        try {
            return delegated(() -> jdk().transferTo(position, count, target));
        } catch (ClosedByInterruptException e) {
            throw closedBoth(e, target);
        }
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        ensureOpen();
        if (!src.isOpen()) {
            throw new ClosedChannelException();
        }
        if (src instanceof HpioFileChannel hpio) {
            hpio.requireReadable();
        }
        try {
            return delegated(() -> jdk().transferFrom(src, position, count));
        } catch (ClosedByInterruptException e) {
            throw closedBoth(e, src);
        }
    }

    /** An interrupted transfer closes the other channel too ("closing both channels"), as the JDK's does. */
    private static ClosedByInterruptException closedBoth(ClosedByInterruptException e, Channel other) {
        try {
            other.close();
        } catch (IOException | RuntimeException suppressed) {
            e.addSuppressed(suppressed);
        }
        return e;
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        if (size > Integer.MAX_VALUE) {   // the JDK's checks before it looks whether the channel is open
            throw new IllegalArgumentException("Size exceeds Integer.MAX_VALUE");
        }
        Objects.requireNonNull(mode, "Mode is null");
        return delegated(() -> jdk().map(mode, position, size));
    }

    @Override
    public MemorySegment map(MapMode mode, long offset, long size, Arena arena) throws IOException {
        Objects.requireNonNull(mode, "Mode is null");   // the JDK's checks before it looks whether the channel is open
        Objects.requireNonNull(arena, "Arena is null");
        if (!arena.scope().isAlive()) {
            throw new IllegalStateException("Already closed");
        }
        if (offset < 0) {
            throw new IllegalArgumentException("Requested bytes offset must be >= 0.");
        }
        if (size < 0) {
            throw new IllegalArgumentException("Requested bytes size must be >= 0.");
        }
        return delegated(() -> jdk().map(mode, offset, size, arena));
    }

    /** An interrupt while it waits closes the channel and throws FileLockInterruptionException, as the JDK's. */
    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        try {
            return new HpioFileLock(this, delegated(() -> jdk().lock(position, size, shared)));
        } catch (ClosedByInterruptException e) {
            throw new FileLockInterruptionException();
        }
    }

    /** Never waits, so, as the JDK's, it does not look at the thread's interrupt status. */
    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        ensureOpen();
        FileLock lock = jdk().tryLock(position, size, shared);
        return lock == null ? null : new HpioFileLock(this, lock);
    }

    // ---- checks and close ----

    private void ensureOpen() throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    private void requireReadable() {
        if (!options.readable()) {
            throw new NonReadableChannelException();
        }
    }

    private void requireWritable() {
        if (!options.writable()) {
            throw new NonWritableChannelException();
        }
    }

    private static void requireWritableBuffer(ByteBuffer dst) {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("Read-only buffer");
        }
    }

    /**
     * Cancels the requests in flight (their threads wake, once the kernel is done with their buffers, and
     * throw AsynchronousCloseException) and closes both descriptors; hpio's closes for good when the last
     * request in flight lets go of it, and this call waits for that, as the JDK's close waits for the threads
     * in its calls: a write that the kernel could not cancel has landed when close returns, and nothing of this
     * channel touches the file after. Runs on the closing (or interrupting) thread. The wait ends in the
     * device's time: the engine serves regular files only, never a pipe or device whose read could wait for
     * ever (see {@link NativeFiles#servedByEngine}).
     */
    @Override
    protected void implCloseChannel() throws IOException {
        if (handedToEngine) {
            engines.cancelAll(late == null ? file : late.get(true));   // handed: opened   // this channel's descriptor: its requests and no other's, on every engine
        }
        try {
            closeDescriptors();
        } finally {
            NativeFile served = late == null ? file : late.get(false);   // closed: opens nothing; null if never opened
            // Not on a thread retiring an engine's completions (a request's listener closing this channel): the
            // requests it would wait for may need that very thread to retire them.
            if (served != null && !served.isReleased() && !engines.retiringOnThisThread()) {
                served.awaitReleased();
            }
        }
    }

    private void closeDescriptors() throws IOException {
        jdkLock.lock();
        try {
            if (jdk != null) {
                jdk.close();
            }
        } finally {
            jdkLock.unlock();
            descriptorCloser.close();   // hpio's descriptor (late's: none is opened after), once
        }
    }

    /**
     * The engine serving this channel ("uring" or "threads"), started now if no call has needed one yet; null
     * when they cannot be had: closed (the JVM's shutdown) before any call started them, or being started by this
     * very thread (the JDK's channel then serves the calls).
     */
    String engineName() throws IOException {
        return engines.name();
    }

    /** Names the engine only if started: printing a channel never starts one. */
    @Override
    public String toString() {
        return "HpioFileChannel[" + path + ", " + LateDescriptor.servedBy(late, engines) + "]";
    }
}
