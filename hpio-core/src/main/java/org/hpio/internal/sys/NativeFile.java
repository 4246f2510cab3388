package org.hpio.internal.sys;

import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.ref.Cleaner;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A file owned by hpio, used only for positional I/O (pread, pwrite) so that many threads may use it at once:
 * a Linux descriptor, or, where native calls are off ({@link NativeAccess}), the JDK's {@code FileChannel}
 * ({@link FileCalls}: the same calls, errors and errno either way; O_DIRECT, mapped reads and the descriptor
 * itself need the native calls).
 *
 * <p>Closing is safe against calls in flight: every call holds a use count, {@link #close()} marks the file
 * closed at once (later calls throw an {@link IOException} saying so) and the descriptor is closed by whichever
 * of {@code close} or the last call in flight finishes last, so a descriptor number is never reused under a
 * running call.
 */
public final class NativeFile implements Closeable {
    private static final long CLOSED = 1L << 62;
    /** Set, once, by whoever closes the descriptor itself: calls refused after that must not close it again. */
    private static final long RELEASED = 1L << 61;

    private final FileCalls calls;
    private final int flags;
    private final String path;
    private volatile DirectAlignment alignment;
    /** The parent directory of a file opened for writing, until {@link #forceNewName()} forced it; else null. */
    private volatile Path newNameParent;
    /** The failure of the directory force, kept: it is final (guarded by newNameLock). */
    private IOException nameForceFailure;
    private static final int O_ACCMODE = 3;
    private final ReentrantLock newNameLock = new ReentrantLock();
    /** The largest size this handle saw or wrote the file to, -1 when unknown: see {@link #sizeAtLeast}. */
    private volatile long sizeSeen = -1;
    private static final VarHandle SIZE_SEEN;

    static {
        try {
            SIZE_SEEN = MethodHandles.lookup().findVarHandle(NativeFile.class, "sizeSeen", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** Set while the descriptor has O_NONBLOCK ({@link #openNonBlocking}), until {@link Lease#fd} clears it. */
    private volatile boolean nonBlocking;
    /** Calls in flight, plus {@link #CLOSED} once close was asked for. */
    private final AtomicLong state = new AtomicLong();

    private NativeFile(FileCalls calls, int flags, String path) {
        this.calls = calls;
        this.flags = flags;
        this.path = path;
    }

    /**
     * The name hpio's system calls give {@code path}: a relative path resolved as the JDK resolves it (against
     * {@code user.dir}, which a program may set apart from the process's working directory; "" is that
     * directory), so that a name leads to the same file in hpio's calls as in the JDK's.
     */
    public static String nameOf(Path path) {
        return path.isAbsolute() ? path.toString() : path.toAbsolutePath().toString();
    }

    /** Opens {@code path} with open(2) {@code flags} (O_CREAT creates with mode 0666 less the umask). */
    public static NativeFile open(Path path, int flags) throws IOException {
        String name = nameOf(path);
        FileCalls calls = NativeAccess.available() ? DescriptorCalls.open(name, flags) : ChannelCalls.open(path, flags);
        return new NativeFile(calls, flags, name);
    }

    /**
     * Opens {@code path} with {@code flags} plus O_NONBLOCK and O_NOCTTY, for a caller that checks the type of
     * what it opened afterwards, by the descriptor (a {@code statx} of it): a pipe's open then returns at once
     * rather than wait for a writer, and a terminal does not become the process's. Where native calls are off,
     * as {@link #open}. O_NONBLOCK changes nothing for a regular file's reads and writes by system call, but
     * io_uring turns it into "fail rather than wait" on file systems without non-blocking reads: the
     * descriptor loses it before an engine first gets it ({@link Lease#fd}).
     */
    public static NativeFile openNonBlocking(Path path, int flags) throws IOException {
        if (!NativeAccess.available()) {
            return open(path, flags);
        }
        String name = nameOf(path);
        NativeFile file = new NativeFile(DescriptorCalls.open(name, flags | Syscalls.O_NONBLOCK | Syscalls.O_NOCTTY),
                flags, name);
        file.nonBlocking = true;
        return file;
    }

    /** Whether this file is a JDK channel, native calls being off ({@link NativeAccess}): no descriptor. */
    public boolean isPortable() {
        return calls instanceof ChannelCalls;
    }

    /**
     * Opens {@code path} with {@code flags}; when they give write access, the file's name is made as durable as
     * its data: {@link #forceNewName()} (which every force of hpio's asynchronous files calls first) forces the
     * parent directory once per open, whether this open created the file or an earlier one did (which may never
     * have forced it). With O_SYNC or O_DSYNC, where every write is durable when it returns, the directory is
     * forced here, before the first write. (Forcing it at every creation cost each new file a directory fsync,
     * milliseconds here, that users who never ask for durability should not pay.)
     */
    public static NativeFile openWithDurableName(Path path, int flags) throws IOException {
        NativeFile file = open(path, flags);
        if ((flags & O_ACCMODE) == Syscalls.O_RDONLY) {
            return file;
        }
        file.newNameParent = path.toAbsolutePath().getParent();
        if ((flags & Syscalls.O_DSYNC) != 0) {
            try {
                file.forceNewName();
            } catch (IOException | RuntimeException e) {
                file.close();
                throw e;
            }
        }
        return file;
    }

    /**
     * Makes this file's name durable, once per open: forces the parent directory unless that was done (or the
     * file was opened read-only). Call before acknowledging a force of the file's data. A failure is final, as
     * for any force (README, Promises): every later call throws it again, never retrying and then trusting.
     */
    public void forceNewName() throws IOException {
        if (newNameParent == null) {
            return;
        }
        newNameLock.lock();
        try {
            if (nameForceFailure != null) {
                throw new IOException("forcing the directory of " + path + " failed earlier, so its name may not be "
                        + "durable: " + nameForceFailure.getMessage(), nameForceFailure);
            }
            Path parent = newNameParent;
            if (parent != null) {
                try {
                    forceDirectory(parent);
                } catch (IOException e) {
                    nameForceFailure = e;
                    throw e;
                }
                newNameParent = null;
            }
        } finally {
            newNameLock.unlock();
        }
    }

    /**
     * fsync on directory {@code dir}: makes the creations and renames in it durable. Where native calls are off
     * the JDK's channel does it; on Windows, which cannot open a directory, the file system makes names durable
     * by itself and nothing is done.
     */
    public static void forceDirectory(Path dir) throws IOException {
        if (!NativeAccess.available() && System.getProperty("os.name", "").startsWith("Windows")) {
            return;
        }
        try (NativeFile d = open(dir, Syscalls.O_RDONLY | Syscalls.O_CLOEXEC)) {
            d.force(true);
        }
    }

    /** The open(2) flags it was opened with. */
    public int flags() {
        return flags;
    }

    /** The O_DIRECT alignment of this file (statx, else the device's logical block size, else 4096), cached. */
    public DirectAlignment directAlignment() throws IOException {
        DirectAlignment a = alignment;
        if (a == null) {
            a = DirectAlignment.of(this);
            alignment = a;
        }
        return a;
    }

    /** Whether it was opened with O_DIRECT (transfers must then be aligned, see {@code DirectAlignment}). */
    public boolean isDirect() {
        return (flags & Syscalls.O_DIRECT) != 0;
    }

    public String path() {
        return path;
    }

    public boolean isOpen() {
        return (state.get() & CLOSED) == 0;
    }

    /** One pread: up to {@code buffer.byteSize()} bytes at {@code position}; 0 at end of file. */
    public long read(MemorySegment buffer, long position) throws IOException {
        acquire();
        try {
            return calls.read(buffer, position);
        } finally {
            release();
        }
    }

    /** What a mapped read does with the mapping: copies out of it, within the call; it must not keep it. */
    @FunctionalInterface
    public interface MappedCopy {
        void copyFrom(MemorySegment mapped);
    }

    /**
     * Reads {@code [position, position + length)} by mapping it read-only for this call alone (a confined
     * arena: no JVM-wide handshake to close it) and handing the mapping to {@code copy}, then unmapping it.
     * Returns the file's size after the copy, which the caller compares with {@code position + length}: a file
     * that shrank during the copy may have left zeros in the copy past its new end. Returns -1, having read
     * nothing, when the file cannot be mapped (a file system without mmap) or not all of the range is in the page
     * cache (a fault that reads the disk would hold off the JVM's safepoints while it waits): the caller reads
     * another way.
     *
     * <p>A page past the end of a file that shrank meanwhile (through any handle or process) faults; the JVM
     * turns that into an asynchronous {@link InternalError}, delivered at the latest when the thread next returns
     * from native code, which this method does before it returns (the size check, the unmapping). It is caught
     * here: the size is then returned (a shrink), or, if the file did not shrink (an I/O error reading a page
     * in), an {@link IOException} naming the file and offset is thrown. It never leaves this method.
     */
    public long readMapped(long position, long length, MappedCopy copy) throws IOException {
        if (isPortable()) {
            return -1;   // mapping for one call and its residency check are native calls
        }
        try {
            return mapAndCopy(position, length, copy);
        } catch (InternalError fault) {
            forgetSize();
            long sizeNow = size();
            if (sizeNow >= position + length) {
                throw new IOException("a fault reading the mapped pages of " + path + " at offsets " + position
                        + " to " + (position + length) + " (an I/O error reading the file in?): " + fault.getMessage(),
                        fault);
            }
            return sizeNow;
        }
    }

    private long mapAndCopy(long position, long length, MappedCopy copy) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pages;
            acquire();
            try {
                pages = FileMapping.mapForReading(calls.descriptor(), position, length, path, arena);
            } catch (IOException notMappable) {
                return -1;
            } finally {
                release();
            }
            if (!FileMapping.likelyResident(pages, arena)) {
                return -1;
            }
            copy.copyFrom(pages.asSlice(FileMapping.offsetInPage(position), length));
            return size();   // a native transition: a fault's pending InternalError is delivered here at the latest
        }
    }

    /** One pwrite: up to {@code buffer.byteSize()} bytes at {@code position}; returns the count written. */
    public long write(MemorySegment buffer, long position) throws IOException {
        acquire();
        try {
            long written = calls.write(buffer, position);
            sawSize(position + written);
            return written;
        } finally {
            release();
        }
    }

    /**
     * statx(2) of the open descriptor (AT_EMPTY_PATH), asking {@code mask}: what the descriptor is, whatever its
     * name leads to now. A descriptor's call only (not {@link #isPortable()}); it leaves O_NONBLOCK as it is.
     */
    public Statx statx(int mask) throws IOException {
        acquire();
        try {
            return Statx.of(calls.descriptor(), path, mask);
        } finally {
            release();
        }
    }

    /** For a named pipe's descriptor: whether a read would answer at once ({@link Syscalls#readableNow}). */
    public boolean readableNow() throws IOException {
        acquire();
        try {
            return Syscalls.readableNow(calls.descriptor(), path);
        } finally {
            release();
        }
    }

    /** The magic number of the file system the open file lives on (fstatfs: {@link FileSystemType#of(int, String)}). */
    public int fileSystemType() throws IOException {
        acquire();
        try {
            return FileSystemType.of(calls.descriptor(), path);
        } finally {
            release();
        }
    }

    /**
     * The name that opens the file this descriptor has open, whatever its own name leads to now
     * ({@code /proc/self/fd/N}); valid while this file is open. A descriptor's call only.
     */
    public String procName() {
        return "/proc/self/fd/" + calls.descriptor();
    }

    /** The file's size now (lseek SEEK_END); also refreshes {@link #sizeAtLeast}'s hint. */
    public long size() throws IOException {
        acquire();
        try {
            long size = calls.size();
            sizeSeen = size;
            return size;
        } finally {
            release();
        }
    }

    /**
     * A size of at least {@code needed} without a system call when this handle already saw the file that long
     * (its own {@link #size()} or {@link #write}), else {@link #size()}. A hint for end-of-file checks: another
     * handle or process may have shrunk the file since, which the caller then meets as a short read (as it
     * would when the file shrinks during the read). Call {@link #forgetSize()} after truncating the file
     * through another handle of this process.
     */
    public long sizeAtLeast(long needed) throws IOException {
        long seen = sizeSeen;
        return seen >= needed ? seen : size();
    }

    /** Drops the size hint: the next {@link #sizeAtLeast} asks the kernel. */
    public void forgetSize() {
        sizeSeen = -1;
    }

    private void sawSize(long atLeast) {
        long seen;
        while ((seen = sizeSeen) < atLeast && !SIZE_SEEN.compareAndSet(this, seen, atLeast)) {
            Thread.onSpinWait();
        }
    }

    /** fdatasync, or fsync when {@code metadata}. */
    public void force(boolean metadata) throws IOException {
        acquire();
        try {
            calls.force(metadata);
        } finally {
            release();
        }
    }

    /** posix_fadvise over the whole file (e.g. {@link Syscalls#POSIX_FADV_DONTNEED}); a hint, ignored when portable. */
    public void advise(int advice) throws IOException {
        acquire();
        try {
            calls.advise(advice);
        } finally {
            release();
        }
    }

    /**
     * The descriptor, held open until the lease is closed: what an asynchronous operation holds from its
     * submission to its completion, so that the file cannot close under it (close waits for it instead).
     */
    public Lease lease() throws IOException {
        acquire();
        return new Lease();
    }

    /** A use of the descriptor; {@link #close()} exactly once. Not thread-safe. */
    public final class Lease implements AutoCloseable {
        private boolean released;

        private Lease() {
        }

        /**
         * The descriptor, for an engine or another caller that hands it to the kernel itself; there is none where
         * native calls are off ({@link #isPortable()}). O_NONBLOCK from {@link #openNonBlocking} is cleared first.
         */
        public int fd() {
            checkHeld();
            if (nonBlocking) {
                clearNonBlocking();
            }
            return calls.descriptor();
        }

        /**
         * One positional read on the held file (a descriptor's pread, or the JDK channel's): what an engine
         * worker does for a request, which holds this lease from submission to completion (so it still works
         * after {@link NativeFile#close()} was asked for, which waits for the lease).
         */
        public long read(MemorySegment buffer, long position) throws IOException {
            checkHeld();
            return calls.read(buffer, position);
        }

        /**
         * A read of all of {@code buffer} served at once from the page cache (preadv2 RWF_NOWAIT; never waits for
         * the device), or, when {@code toEndOfFile}, of all of it up to the end of the file (a short read, or
         * none, whose end is the file's size asked right after): the bytes read; else
         * {@link Syscalls#WOULD_BLOCK} (none or only part of it cached, or the file system cannot read without
         * waiting), and whatever was read is not to be used. None at all is the end of the file: RWF_NOWAIT says
         * EAGAIN, not 0, for data not cached, so 0 needs no size. A descriptor's call only (not
         * {@link #isPortable()}); a failure of the call is thrown.
         */
        public long readNow(MemorySegment buffer, long position, boolean toEndOfFile) throws IOException {
            return readNow(buffer, buffer.byteSize(), position, toEndOfFile);
        }

        /** {@link #readNow(MemorySegment, long, boolean)} into the first {@code length} bytes of {@code buffer}. */
        public long readNow(MemorySegment buffer, long length, long position, boolean toEndOfFile)
                throws IOException {
            checkHeld();
            long bytes = Syscalls.preadNoWait(calls.descriptor(), buffer, length, position, path);
            boolean served = bytes == length
                    || toEndOfFile && (bytes == 0 || bytes > 0 && position + bytes >= size());
            return served ? bytes : Syscalls.WOULD_BLOCK;
        }

        /** One positional write on the held file; see {@link #read}. */
        public long write(MemorySegment buffer, long position) throws IOException {
            checkHeld();
            long written = calls.write(buffer, position);
            sawSize(position + written);
            return written;
        }

        /** fdatasync, or fsync when {@code metadata}, on the held file; see {@link #read}. */
        public void force(boolean metadata) throws IOException {
            checkHeld();
            calls.force(metadata);
        }

        private void checkHeld() {
            if (released) {
                throw new IllegalStateException("lease of " + path + " already released");
            }
        }

        public NativeFile file() {
            return NativeFile.this;
        }

        @Override
        public void close() {
            if (!released) {
                released = true;
                release();
            }
        }
    }

    private void acquire() throws IOException {
        long s = state.incrementAndGet();
        if ((s & CLOSED) != 0) {
            release();
            throw new IOException("file is closed: " + path);
        }
    }

    private void release() {
        if (state.decrementAndGet() == CLOSED && state.compareAndSet(CLOSED, CLOSED | RELEASED)) {
            closeDescriptor();
        }
    }

    @Override
    public void close() throws IOException {
        long s;
        do {
            s = state.get();
            if ((s & CLOSED) != 0) {
                return;
            }
        } while (!state.compareAndSet(s, s | CLOSED));
        if (state.compareAndSet(CLOSED, CLOSED | RELEASED)) {
            calls.close();
        }
    }

    /**
     * After {@link #close()}: waits until the descriptor itself is closed, that is until every call and lease
     * in flight let go of it (each is a system call or an engine request on this file; on a regular file, which
     * is all an engine serves, each ends in the device's time). An interrupt does not end the wait; it stays
     * set. Throws IllegalStateException if close was not asked for (the wait could never end).
     */
    public void awaitReleased() {
        if (isReleased()) {
            return;
        }
        if ((state.get() & CLOSED) == 0) {
            throw new IllegalStateException("waiting for the descriptor of " + path + ", which is not closed");
        }
        boolean interrupted = false;
        long pauseNanos = 1_000;
        while ((state.get() & RELEASED) == 0) {
            LockSupport.parkNanos(this, pauseNanos);
            pauseNanos = Math.min(2 * pauseNanos, 1_000_000);
            interrupted |= Thread.interrupted();   // else an interrupted thread's park returns at once, for ever
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the descriptor is closed for good: close was asked for and no call holds it any more. */
    public boolean isReleased() {
        return (state.get() & RELEASED) != 0;
    }

    /**
     * A handle that closes {@code descriptor} when the handle becomes unreachable, if nothing closed it before, as
     * the JDK's channels close theirs: kept in a field of the descriptor's owner (a channel, a file) that a program
     * may drop unclosed, it goes with the owner, and the descriptor does not stay open for good. The owner's close
     * closes it through the handle, once: {@link DescriptorCloser#close} (a failure thrown) or
     * {@link DescriptorCloser#clean} (a failure logged, DEBUG). {@code descriptor} must not refer to the owner.
     * Where native calls are off the descriptor is the JDK's channel ({@link FileCalls}), which its own cleaner
     * closes: the handle then closes only when asked.
     *
     * <p>The handle is watched by {@link DroppedDescriptors}, which closes a dropped one's descriptor after the
     * collection that found it, without a thread of hpio's; a close ends the watch at once, as the JDK's
     * {@code FileChannelImpl} does with its cleaner, so a closed channel leaves the collector nothing to process.
     */
    public static DescriptorCloser closeWhenUnreachable(Closeable descriptor) {
        return new DescriptorCloser(descriptor, NativeAccess.available(), true);
    }

    /**
     * Starts {@link DroppedDescriptors}' watch after each collection, for the handles of
     * {@link DescriptorCloser#forDescriptorNotOpenedYet} too: for whoever has made hpio's native calls ready (the
     * warm-up), or has just opened the descriptor such a handle watches. Native access must be available.
     */
    public static void watchDroppedDescriptors() {
        DroppedDescriptors.allowWatch();
    }

    /**
     * For a warm-up thread, ahead of a program's first file: loads and initializes the classes a first
     * {@link #open} and {@link #closeWhenUnreachable} need (each loaded from the jar and verified: a few tenths
     * of a millisecond in a cold JVM).
     */
    public static void prepareFirstOpen() throws IllegalAccessException {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        for (Class<?> c : List.of(DescriptorCalls.class, ChannelCalls.class)) {
            lookup.ensureInitialized(c);
        }
        DescriptorCloser.prepare();
    }

    /** See {@link #closeWhenUnreachable}: refers to the descriptor only, never to its owner. */
    public static final class DescriptorCloser implements Closeable, Cleaner.Cleanable {
        private final Closeable descriptor;
        /** 1 once closed or cleaned (not an AtomicBoolean: see {@code DroppedDescriptors.WATCHING}). */
        private final AtomicInteger done = new AtomicInteger();
        /** Closes the descriptor once this handle is collected unclosed (null: native calls off). */
        private final DroppedDescriptors.Registration registration;

        /**
         * As {@link #closeWhenUnreachable}, for a descriptor hpio has not opened yet and opens only once its
         * native calls are ready (a channel opened while the warm-up links them): nothing here touches the Foreign
         * Function API, whose start-up (10-13 ms of a cold JVM, {@code Arena}, {@code MemorySegment}) would
         * otherwise fall on a program's first open, beside the warm-up doing the same; nor initializes
         * {@link NativeFile} (hence a method of this class), whose variable handle costs 2-3 ms there. The handle
         * is watched; the watch after each collection starts once {@link #watchDroppedDescriptors} was called or a
         * descriptor hpio opened was registered, and until then dropped handles are closed at the next
         * registration.
         */
        public static DescriptorCloser forDescriptorNotOpenedYet(Closeable descriptor) {
            return new DescriptorCloser(descriptor, true, false);
        }

        /**
         * For a warm-up thread: loads and initializes the classes a first handle needs (its watch's), and nothing
         * of {@link NativeFile}'s or of the Foreign Function API.
         */
        public static void prepare() throws IllegalAccessException {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            for (Class<?> c : List.of(DescriptorCloser.class, DroppedDescriptors.class,
                    DroppedDescriptors.Registration.class)) {
                lookup.ensureInitialized(c);
            }
        }

        private DescriptorCloser(Closeable descriptor, boolean onCollection, boolean nativeCallsMade) {
            this.descriptor = descriptor;
            this.registration = onCollection
                    ? DroppedDescriptors.register(this, descriptor, done, nativeCallsMade) : null;
        }

        /** Closes the descriptor now, if not yet; its failure is thrown. */
        @Override
        public void close() throws IOException {
            if (done.compareAndSet(0, 1)) {
                unregister();
                descriptor.close();
            }
        }

        /** Closes the descriptor now, if not yet; its failure is logged. */
        @Override
        public void clean() {
            if (done.get() == 0) {
                unregister();
                DroppedDescriptors.closeLogged(descriptor, done);
            }
        }

        private void unregister() {
            if (registration != null) {
                registration.unregister();
            }
        }
    }

    /**
     * Clears O_NONBLOCK from a descriptor {@link #openNonBlocking} opened, once (a lease's {@link Lease#fd} does
     * it first); nothing for any other. Should the call fail, the descriptor keeps it: logged.
     */
    public void clearNonBlocking() {
        if (!nonBlocking) {
            return;
        }
        try {
            acquire();   // held: a descriptor closed meanwhile, and its number reused, is never touched
        } catch (IOException closed) {
            return;
        }
        try {
            synchronized (calls) {   // private to this file; nothing else locks it
                if (nonBlocking) {
                    Syscalls.setStatusFlags(calls.descriptor(), flags, path);
                    nonBlocking = false;
                }
            }
        } catch (IOException | RuntimeException | LinkageError e) {
            nonBlocking = false;
            System.getLogger(NativeFile.class.getName()).log(System.Logger.Level.WARNING,
                    "O_NONBLOCK stays on " + path + ": " + e);
        } finally {
            release();
        }
    }

    private void closeDescriptor() {
        try {
            calls.close();
        } catch (IOException e) {
            // The last call in flight closed the descriptor after close() returned: nobody waits, so log it.
            System.getLogger(NativeFile.class.getName()).log(System.Logger.Level.WARNING, e.getMessage());
        }
    }
}
