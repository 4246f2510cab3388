package org.hpio.internal.sys;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The system calls hpio makes, as one-line wrappers over {@code static final} downcall handles.
 *
 * <p>Each handle is made when first used, in a holder class of its own: linking a downcall costs a cold JVM
 * 4-6 ms for each new signature (and the first one about 35 ms), so making all of them when this class loads
 * put some 70 ms into the first channel's open, most of it for calls that open never makes.
 *
 * <p>Every restricted Foreign Function call of hpio goes through this package; this class holds the handles.
 * Each wrapper captures {@code errno} and turns a failure into an {@link IOException} through
 * {@link Errno#exception}, the one place where that happens. {@code EINTR} is retried here.
 *
 * <p>Buffers: the wrappers borrow the segment they are given for the duration of the call only. The
 * {@code *Heap} variants are "critical" downcalls that may be given heap segments (a Java array): the kernel
 * then copies straight into or out of the array with no staging copy. A critical call holds off safepoints
 * (garbage collection) while it runs, so callers keep each such call short (see {@link #CRITICAL_CHUNK}).
 */
public final class Syscalls {
    /** The largest transfer one critical (heap-array) call may make: bounds the safepoint delay it causes. */
    public static final int CRITICAL_CHUNK = 1 << 20;

    public static final int O_RDONLY = 0;
    public static final int O_WRONLY = 1;
    public static final int O_RDWR = 2;
    public static final int O_CREAT = 0100;
    public static final int O_EXCL = 0200;
    public static final int O_TRUNC = 01000;
    public static final int O_APPEND = 02000;
    public static final int O_DSYNC = 010000;
    /** O_DIRECT, whose value is the architecture's (see {@link #oDirect}). */
    public static final int O_DIRECT = oDirect(System.getProperty("os.arch", ""));
    public static final int O_SYNC = 04010000;
    public static final int O_CLOEXEC = 02000000;
    /** O_NONBLOCK and O_NOCTTY: the same on every architecture hpio runs on (x86_64, arm64, ppc64, riscv64, s390x). */
    public static final int O_NONBLOCK = 04000;
    public static final int O_NOCTTY = 0400;
    private static final int F_SETFL = 4;
    /** O_NOFOLLOW, whose value is the architecture's (see {@link #oNoFollow}). */
    public static final int O_NOFOLLOW = oNoFollow(System.getProperty("os.arch", ""));

    /**
     * O_DIRECT on {@code arch} (a value of {@code os.arch}): arm64's and powerpc's own (their uapi
     * {@code asm/fcntl.h}), else the generic one (x86_64, riscv64, s390x, loongarch64). On arm64 the generic
     * value is O_DIRECTORY.
     */
    static int oDirect(String arch) {
        return switch (arch) {
            case "aarch64", "arm" -> 0200000;
            case "ppc64", "ppc64le" -> 0400000;
            default -> 040000;
        };
    }

    /** O_NOFOLLOW on {@code arch} (see {@link #oDirect}). */
    static int oNoFollow(String arch) {
        return switch (arch) {
            case "aarch64", "arm", "ppc64", "ppc64le" -> 0100000;
            default -> 0400000;
        };
    }

    public static final int SEEK_END = 2;
    public static final int POSIX_FADV_DONTNEED = 4;

    static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    private static final FunctionDescriptor RW = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG);
    /** preadv2's flag: fail with EAGAIN rather than wait for the device (data not all in the page cache). */
    private static final int RWF_NOWAIT = 0x00000008;
    /** {@link #preadNoWait}'s answer when the data could not be had without waiting. */
    public static final long WOULD_BLOCK = -1;
    // The handles, each made on its first use (see the class comment).
    private static final class Open {
        static final MethodHandle H = downcall("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    }

    private static final class Close {
        static final MethodHandle H = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    }

    private static final class Pread {
        static final MethodHandle H = downcall("pread", RW);
    }

    private static final class Pwrite {
        static final MethodHandle H = downcall("pwrite", RW);
    }

    private static final class PreadHeap {
        static final MethodHandle H = downcall("pread", RW, Linker.Option.critical(true));
    }

    private static final class PwriteHeap {
        static final MethodHandle H = downcall("pwrite", RW, Linker.Option.critical(true));
    }

    /** ssize_t preadv2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags). */
    private static final class Preadv2 {
        static final MethodHandle H = downcall("preadv2",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_INT));
    }

    /** int fcntl(int fd, int cmd, ...), with one int argument. */
    private static final class Fcntl {
        static final MethodHandle H = downcall("fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                Linker.Option.firstVariadicArg(2));
    }

    /** int poll(struct pollfd *fds, nfds_t nfds, int timeout). */
    private static final class Poll {
        static final MethodHandle H = downcall("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    }

    private static final class Lseek {
        static final MethodHandle H = downcall("lseek", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT));
    }

    private static final class Fdatasync {
        static final MethodHandle H = downcall("fdatasync", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    }

    private static final class Fsync {
        static final MethodHandle H = downcall("fsync", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    }

    /** posix_fadvise returns the error number instead of setting errno. */
    private static final class PosixFadvise {
        static final MethodHandle H = LINKER.downcallHandle(LINKER.defaultLookup().find("posix_fadvise").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    }

    private Syscalls() {
    }

    /**
     * Makes each system call a channel's first calls make (open, lseek, preadv2, pread, pwrite, close) once, on
     * harmless arguments, so that their downcalls and call sites are linked: for a thread that prepares them
     * ahead of the first channel (see {@code NativeFiles#warmUpInBackground}). It opens the root directory read
     * only, asks its size, reads from it (refused: EISDIR), writes to no descriptor (EBADF) and closes it. A
     * failure to open or close the directory is thrown; the others are expected.
     */
    public static void exerciseChannelCalls() throws IOException {
        int fd = open("/", O_RDONLY, 0);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(4096, 4096);
            refused(() -> size(fd, "/"));   // a directory's size: some file systems refuse to seek in one
            refused(() -> preadNoWait(fd, buffer, 0, "/"));
            refused(() -> pread(fd, buffer, 0, "/"));
            refused(() -> pwrite(-1, buffer, 0, "(none)"));
            refused(() -> {
                setStatusFlags(fd, O_RDONLY, "/");   // the flags it has: links fcntl (a remembered name's open)
                return 0;
            });
        } finally {
            close(fd, "/");
        }
    }

    /** A call made only to link it (see {@link #refused}). */
    interface Exercise {
        long run() throws IOException;
    }

    /** Runs a call that may fail; a failure is an answer too: the call was made. */
    static void refused(Exercise call) {
        try {
            call.run();
        } catch (IOException expected) {
            // EISDIR, EBADF: the call was made and its call site linked
        }
    }

    /** A downcall handle to libc's {@code name} whose first parameter is the errno capture segment. */
    static MethodHandle downcall(String name, FunctionDescriptor descriptor, Linker.Option... extra) {
        Linker.Option[] options = new Linker.Option[extra.length + 1];
        options[0] = CAPTURE_ERRNO;
        System.arraycopy(extra, 0, options, 1, extra.length);
        MemorySegment symbol = LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    static int errno(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }

    /** A downcall that takes the errno capture segment first and returns a negative value on failure. */
    @FunctionalInterface
    interface Call {
        long invoke(MemorySegment capture) throws Throwable;
    }

    /**
     * Runs {@code call}, retrying on EINTR when {@code retryInterrupted}; a failure becomes the IOException of
     * {@link Errno#exception} for {@code operation} on {@code path} at {@code position} (-1: none).
     */
    static long call(String operation, String path, long position, boolean retryInterrupted, Call call)
            throws IOException {
        return call(operation, path, position, retryInterrupted, 0, call);
    }

    /**
     * {@link #call(String, String, long, boolean, Call)}, except that a failure with errno {@code wouldBlock}
     * or EOPNOTSUPP (0: none) returns {@link #WOULD_BLOCK} instead of throwing: for the non-blocking variants,
     * whose "not now" is an answer, not an error.
     */
    private static long call(String operation, String path, long position, boolean retryInterrupted, int wouldBlock,
                             Call call) throws IOException {
        return answer(operation, path, position, wouldBlock, callOrErrno(operation, retryInterrupted, call));
    }

    /**
     * {@link #call(String, String, long, boolean, int, Call)} with the caller's block of {@link CallMemory}
     * (which holds the call's arguments too).
     */
    static long call(String operation, String path, long position, boolean retryInterrupted, int wouldBlock,
                     CallMemory block, Call call) throws IOException {
        return answer(operation, path, position, wouldBlock, callOrErrno(operation, retryInterrupted, block, call));
    }

    /** A call's result, {@link #WOULD_BLOCK} for {@code wouldBlock}'s errno, or its failure thrown. */
    private static long answer(String operation, String path, long position, int wouldBlock, long result)
            throws IOException {
        if (result >= 0) {
            return result;
        }
        int err = (int) -result;
        if (wouldBlock != 0 && (err == wouldBlock || err == Errno.EOPNOTSUPP)) {
            return WOULD_BLOCK;
        }
        throw Errno.exception(operation, err, path, position);
    }

    /**
     * Runs {@code call}, retrying on EINTR, and returns {@code -errno} instead of throwing when it fails: for
     * callers to whom some errors are answers (ENOENT: no such file), not failures.
     */
    static long callOrErrno(String operation, Call call) {
        return callOrErrno(operation, true, call);
    }

    /** {@link #callOrErrno(String, Call)} with the caller's block of {@link CallMemory}, which holds its arguments. */
    static long callOrErrno(String operation, CallMemory block, Call call) {
        return callOrErrno(operation, true, block, call);
    }

    /** The one loop around a downcall, with a block of {@link CallMemory} taken for it and given back. */
    private static long callOrErrno(String operation, boolean retryInterrupted, Call call) {
        CallMemory block = CallMemory.take();
        try {
            return callOrErrno(operation, retryInterrupted, block, call);
        } finally {
            CallMemory.give(block);
        }
    }

    /**
     * The one loop around a downcall: its result, or {@code -errno}; EINTR is retried when {@code retryInterrupted}.
     * {@code block}: the caller's {@link CallMemory}, whose errno capture the call gets.
     */
    private static long callOrErrno(String operation, boolean retryInterrupted, CallMemory block, Call call) {
        MemorySegment capture = block.capture();
        try {
            while (true) {
                long result = call.invoke(capture);
                if (result >= 0) {
                    return result;
                }
                int err = errno(capture);
                if (err != Errno.EINTR || !retryInterrupted) {
                    return err > 0 ? -err : -Errno.EIO; // a failure that left errno unset is still a failure
                }
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("downcall " + operation + " failed", t);
        }
    }

    /** The size of the errno capture the downcalls write (see {@link CallMemory}). */
    static long captureBytes() {
        return CAPTURE.byteSize();
    }

    /**
     * The charset of file names in system calls: the JDK's own ({@code sun.jnu.encoding}, from the locale), so
     * that a name means the same file to hpio's calls as to the JDK's; UTF-8 where that is missing.
     */
    private static final Charset NAMES = namesCharset();

    private static Charset namesCharset() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (IllegalArgumentException e) {
            return StandardCharsets.UTF_8;
        }
    }

    /**
     * {@code path} as the C string a system call takes, in the JDK's charset for names (the one choke point for
     * names). A name the JDK could not decode in that charset (its bytes shown as U+FFFD) has no string that
     * leads back to its file: refused with an IOException, before any call (the caller lets the JDK's own
     * calls, which keep the name's bytes, serve that file).
     */
    public static MemorySegment cName(Arena arena, String path) throws IOException {
        checkName(path);
        return arena.allocateFrom(path, NAMES);
    }

    /**
     * {@link #cName(Arena, String)} in {@code block}, a {@link CallMemory} block, or null when it does not fit
     * there (longer than {@link CallMemory#NAME_BYTES} bytes).
     */
    static MemorySegment cName(CallMemory block, String path) throws IOException {
        checkName(path);
        return block.name(path.getBytes(NAMES));
    }

    private static void checkName(String path) throws IOException {
        if (path.indexOf('\uFFFD') >= 0) {
            throw new IOException(path + ": the name has bytes that are not characters in " + NAMES
                    + " (sun.jnu.encoding): hpio's system calls cannot name it");
        }
    }

    /** open(2), always with O_CLOEXEC. Returns the new descriptor; {@code path} names the file in errors. */
    public static int open(String path, int flags, int mode) throws IOException {
        CallMemory block = CallMemory.take();
        try {
            MemorySegment cPath = cName(block, path);
            if (cPath == null) {
                try (Arena arena = Arena.ofConfined()) {
                    return open(cName(arena, path), path, flags, mode, block);
                }
            }
            return open(cPath, path, flags, mode, block);
        } finally {
            CallMemory.give(block);
        }
    }

    private static int open(MemorySegment cPath, String path, int flags, int mode, CallMemory block)
            throws IOException {
        return (int) call("open", path, -1, true, 0, block,
                c -> (int) Open.H.invokeExact(c, cPath, flags | O_CLOEXEC, mode));
    }

    /** close(2). Never retried: after EINTR the descriptor is gone on Linux, so EINTR counts as closed. */
    public static void close(int fd, String path) throws IOException {
        call("close", path, -1, false, c -> {
            int r = (int) Close.H.invokeExact(c, fd);
            return r < 0 && errno(c) == Errno.EINTR ? 0 : r;
        });
    }

    /**
     * One pread(2) of up to {@code buffer.byteSize()} bytes at {@code position}; returns the count (0 at end
     * of file). A heap segment is read into directly by a critical call and must be at most
     * {@link #CRITICAL_CHUNK} bytes.
     */
    public static long pread(int fd, MemorySegment buffer, long position, String path) throws IOException {
        long size = buffer.byteSize();
        if (buffer.isNative()) {
            return call("pread", path, position, true, c -> (long) Pread.H.invokeExact(c, fd, buffer, size, position));
        }
        checkCritical(buffer);
        return call("pread", path, position, true, c -> (long) PreadHeap.H.invokeExact(c, fd, buffer, size, position));
    }

    /**
     * One preadv2(2) with RWF_NOWAIT into the native {@code buffer}: the count read (0 at end of file, and
     * possibly fewer bytes than asked when only part of the range is in the page cache), or
     * {@link #WOULD_BLOCK} when none of it could be had without waiting for the device (EAGAIN), or the file
     * system does not read without waiting (EOPNOTSUPP). Never waits for I/O.
     */
    public static long preadNoWait(int fd, MemorySegment buffer, long position, String path) throws IOException {
        return preadNoWait(fd, buffer, buffer.byteSize(), position, path);
    }

    /** {@link #preadNoWait(int, MemorySegment, long, String)} into the first {@code length} bytes of {@code buffer}. */
    public static long preadNoWait(int fd, MemorySegment buffer, long length, long position, String path)
            throws IOException {
        if (!buffer.isNative()) {
            throw new IllegalArgumentException("preadv2 takes a native buffer, not " + buffer);
        }
        if (length < 0 || length > buffer.byteSize()) {
            throw new IndexOutOfBoundsException(length + " bytes into a buffer of " + buffer.byteSize());
        }
        CallMemory block = CallMemory.take();
        try {
            MemorySegment iovec = block.arguments(16);
            iovec.set(JAVA_LONG, 0, buffer.address());
            iovec.set(JAVA_LONG, 8, length);
            return call("preadv2", path, position, true, Errno.EAGAIN, block,
                    c -> (long) Preadv2.H.invokeExact(c, fd, iovec, 1, position, RWF_NOWAIT));
        } finally {
            CallMemory.give(block);
            Reference.reachabilityFence(buffer);   // the iovec has only its address: the memory must live
        }
    }

    /**
     * One pwrite(2) of up to {@code buffer.byteSize()} bytes at {@code position}; returns the count. A heap
     * segment is written from directly by a critical call and must be at most {@link #CRITICAL_CHUNK} bytes.
     */
    public static long pwrite(int fd, MemorySegment buffer, long position, String path) throws IOException {
        long size = buffer.byteSize();
        if (buffer.isNative()) {
            return call("pwrite", path, position, true, c -> (long) Pwrite.H.invokeExact(c, fd, buffer, size, position));
        }
        checkCritical(buffer);
        return call("pwrite", path, position, true,
                c -> (long) PwriteHeap.H.invokeExact(c, fd, buffer, size, position));
    }

    // Each invokeExact above has a constant handle. Choosing the handle at run time (one invokeExact on either of
    // two) crashed the JVM's C2 compiler (SIGSEGV in Compile::final_graph_reshaping_walk, JDK 25.0.3) compiling
    // FileTransfer.writeFully in 5 of 9 runs of `bench bulk` (before and after issue 16's read paths); with
    // constant handles, in none of 14.
    private static void checkCritical(MemorySegment buffer) {
        if (buffer.byteSize() > CRITICAL_CHUNK) {
            throw new IllegalArgumentException("a heap transfer is at most " + CRITICAL_CHUNK + " bytes, not "
                    + buffer.byteSize());
        }
    }

    /** The file's size, by lseek(fd, 0, SEEK_END); hpio never uses a descriptor's own offset otherwise. */
    public static long size(int fd, String path) throws IOException {
        return call("lseek", path, -1, false, c -> (long) Lseek.H.invokeExact(c, fd, 0L, SEEK_END));
    }

    /**
     * Sets the status flags of the open file description of {@code fd} to those of {@code openFlags} (fcntl
     * F_SETFL, one call: it changes only O_APPEND, O_ASYNC, O_DIRECT, O_NOATIME and O_NONBLOCK, and ignores the
     * rest), which clears the O_NONBLOCK an open added to them.
     */
    public static void setStatusFlags(int fd, int openFlags, String path) throws IOException {
        call("fcntl", path, -1, false, c -> (int) Fcntl.H.invokeExact(c, fd, F_SETFL, openFlags));
    }

    private static final short POLLIN = 0x1;
    /** struct pollfd: int fd, short events, short revents. */
    private static final long POLLFD_BYTES = 8;

    /**
     * Whether the pipe (or other pollable file) open at {@code fd} is ready to read now (poll, no wait): bytes
     * in it, or, for a pipe, a writer that came and went since this descriptor was opened (POLLHUP), or an
     * error; all of them a read answers at once.
     */
    public static boolean readableNow(int fd, String path) throws IOException {
        CallMemory block = CallMemory.take();
        try {
            MemorySegment pollfd = block.arguments(POLLFD_BYTES);
            pollfd.set(JAVA_INT, 0, fd);
            pollfd.set(JAVA_SHORT, 4, POLLIN);
            pollfd.set(JAVA_SHORT, 6, (short) 0);   // revents: the arguments part keeps an earlier call's bytes
            return call("poll", path, -1, true, 0, block, c -> (int) Poll.H.invokeExact(c, pollfd, 1L, 0)) > 0;
        } finally {
            CallMemory.give(block);
        }
    }

    /** fdatasync(2) when {@code metadata} is false, else fsync(2). A failure is reported, never retried. */
    public static void force(int fd, boolean metadata, String path) throws IOException {
        call(metadata ? "fsync" : "fdatasync", path, -1, false,
                c -> metadata ? (int) Fsync.H.invokeExact(c, fd) : (int) Fdatasync.H.invokeExact(c, fd));
    }

    /**
     * The same native memory as {@code buffer}, usable from any thread: what a worker thread hands to the
     * kernel for a buffer whose arena is confined to the submitting thread. Only for the life of a request
     * that owns the buffer (the caller keeps the arena open until the request is done, as with io_uring).
     */
    public static MemorySegment anyThreadView(MemorySegment buffer) {
        if (!buffer.isNative()) {
            throw new IllegalArgumentException("not a native segment: " + buffer);
        }
        return MemorySegment.ofAddress(buffer.address()).reinterpret(buffer.byteSize());
    }

    /** posix_fadvise(2) over the whole file. */
    public static void fadvise(int fd, int advice, String path) throws IOException {
        try {
            int err = (int) PosixFadvise.H.invokeExact(fd, 0L, 0L, advice);
            if (err != 0) {
                throw Errno.exception("posix_fadvise", err, path, -1);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
