package org.hpio.internal.sys;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Loose files under a root directory, opened in as few system calls as a load allows: {@code openat2(2)} with
 * {@code RESOLVE_BENEATH} relative to the root's descriptor (one call that both opens the file and refuses a
 * path or a symbolic link leading out of the root, where a {@code realpath} check costs a call per component),
 * then {@code fstat(2)} for its type and size. What a mount of loose files does per load (002 §3.1: the per-file
 * cost is what an asset loader pays thousands of times).
 *
 * <p>Kernels before 5.6 (or a seccomp filter) refuse {@code openat2} with ENOSYS or EPERM, and other
 * architectures than x86_64 lay out {@code struct stat} differently: {@link #openBeneath} then answers
 * {@link #UNSUPPORTED} and the caller checks the path its own way.
 */
public final class LooseFiles {
    /** What {@link #openBeneath} answers when the kernel has no openat2. */
    public static final int UNSUPPORTED = Integer.MIN_VALUE;
    private static final long SYS_OPENAT2 = 437;   // x86_64 and aarch64 alike (the unified syscall table)
    private static final long RESOLVE_BENEATH = 0x08;
    private static final int O_DIRECTORY = 0200000;
    private static final int O_PATH = 010000000;
    private static final int O_NONBLOCK = 04000;
    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    /** struct stat on x86_64: st_mode at 24, st_size at 48, 144 bytes in all. */
    private static final int STAT_BYTES = 144;
    private static final int STAT_MODE = 24;
    private static final int STAT_SIZE = 48;
    /** struct open_how: flags, mode, resolve (three u64). */
    private static final int HOW_BYTES = 24;
    /** The handles, in a class of their own: made on first native use, never where native calls are off. */
    private static final class Calls {
        static final MethodHandle OPENAT2 = Syscalls.downcall("syscall",
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG),
                Linker.Option.firstVariadicArg(1));
        static final MethodHandle FSTAT = Syscalls.downcall("fstat",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    }
    /** The struct stat offsets above are x86_64's: elsewhere {@link #openBeneath} answers {@link #UNSUPPORTED}. */
    private static volatile boolean unsupported = !System.getProperty("os.arch", "").matches("amd64|x86_64")
            || !NativeAccess.available();

    private LooseFiles() {
    }

    /**
     * A descriptor of directory {@code dir} for {@link #openBeneath} (O_PATH: no read access needed), or
     * {@link #UNSUPPORTED} where native calls are off (then {@link #openBeneath} answers that too).
     */
    public static int openRoot(Path dir) throws IOException {
        if (!NativeAccess.available()) {
            return UNSUPPORTED;
        }
        return Syscalls.open(dir.toString(), O_PATH | O_DIRECTORY, 0);
    }

    /** Closes a descriptor from {@link #openRoot} or {@link #openBeneath} ({@link #UNSUPPORTED}: nothing). */
    public static void close(int fd, String path) throws IOException {
        if (fd != UNSUPPORTED) {
            Syscalls.close(fd, path);
        }
    }

    /**
     * Opens {@code relative} ('/'-separated, relative) beneath the directory {@code rootFd} for reading: the new
     * descriptor, or {@code -errno} (ENOENT, ENOTDIR: no such file; EXDEV or ELOOP: the path or a symbolic link
     * leaves the root, or is absolute; others: a failure), or {@link #UNSUPPORTED}.
     */
    public static int openBeneath(int rootFd, String relative) {
        if (unsupported) {
            return UNSUPPORTED;
        }
        CallMemory block = CallMemory.take();
        int fd;
        try {
            MemorySegment path = block.name(relative.getBytes(StandardCharsets.UTF_8));
            if (path == null) {
                return -Errno.ENAMETOOLONG;
            }
            MemorySegment how = block.arguments(HOW_BYTES);
            how.set(JAVA_LONG, 0, Syscalls.O_RDONLY | Syscalls.O_CLOEXEC | O_NONBLOCK); // a FIFO must not block the open
            how.set(JAVA_LONG, 8, 0L);
            how.set(JAVA_LONG, 16, RESOLVE_BENEATH);
            fd = (int) Syscalls.callOrErrno("openat2", block,
                    c -> (long) Calls.OPENAT2.invokeExact(c, SYS_OPENAT2, rootFd, path, how, (long) HOW_BYTES));
        } finally {
            CallMemory.give(block);
        }
        if (fd == -Errno.ENOSYS || fd == -Errno.EPERM && !relative.isEmpty() && seccompRefused(rootFd)) {
            unsupported = true;
            return UNSUPPORTED;
        }
        return fd;
    }

    /** Whether EPERM came from a filter refusing openat2 itself: "." beneath the root is then refused too. */
    private static boolean seccompRefused(int rootFd) {
        int fd = openBeneath(rootFd, "");
        return fd == -Errno.EPERM;
    }

    /**
     * The size of the regular file open at {@code fd}, or -1 when it is not a regular file (a directory, a
     * device, a pipe).
     */
    public static long regularFileSize(int fd, String path) throws IOException {
        CallMemory block = CallMemory.take();
        try {
            MemorySegment stat = block.arguments(STAT_BYTES);
            Syscalls.call("fstat", path, -1, false, 0, block, c -> (int) Calls.FSTAT.invokeExact(c, fd, stat));
            return (stat.get(JAVA_INT, STAT_MODE) & S_IFMT) == S_IFREG ? stat.get(JAVA_LONG, STAT_SIZE) : -1;
        } finally {
            CallMemory.give(block);
        }
    }

    /** One pread(2) (see {@link Syscalls#pread}) on a descriptor from {@link #openBeneath}. */
    public static long pread(int fd, MemorySegment buffer, long position, String path) throws IOException {
        return Syscalls.pread(fd, buffer, position, path);
    }
}
