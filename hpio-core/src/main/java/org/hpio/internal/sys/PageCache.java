package org.hpio.internal.sys;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Whether a file's byte range is in the page cache, from {@code cachestat(2)} (Linux 6.5): one system call that
 * counts the range's cached pages without touching them. An O_DIRECT reader asks it before each read, so that
 * data already cached is copied from memory instead of read from the device again, and only what is not cached
 * bypasses the cache (issue 20: the look-ahead loader's cold reads skip the page cache's insertion cost, its warm
 * ones keep the copy from memory).
 *
 * <p>Owns one read-only descriptor of the file, closed by {@link #close}. Where the kernel has no cachestat
 * (ENOSYS), a seccomp filter refuses it (EPERM), or native calls are off, every range answers "not cached" (the
 * reader then reads directly, as it would without this class).
 */
public final class PageCache implements AutoCloseable {
    private static final long SYS_CACHESTAT = 451; // x86_64 and aarch64 alike (the unified syscall table)
    private static final int PAGE = 4096;
    /** struct cachestat_range: off, len (two u64); struct cachestat: nr_cache first of five u64. */
    private static final int RANGE_BYTES = 16;
    private static final int STAT_BYTES = 40;
    private static volatile boolean unsupported = !NativeAccess.available();

    /** The handle, in a class of its own: made on first native use, never where native calls are off. */
    private static final class Calls {
        static final MethodHandle CACHESTAT = Syscalls.downcall("syscall",
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT),
                Linker.Option.firstVariadicArg(1));
    }

    private final int fd;
    private final String path;

    private PageCache(int fd, String path) {
        this.fd = fd;
        this.path = path;
    }

    /** A probe of {@code file}'s cached pages; one that always answers "not cached" where cachestat is missing. */
    public static PageCache of(Path file) throws IOException {
        if (unsupported) {
            return new PageCache(-1, file.toString());
        }
        return new PageCache(Syscalls.open(file.toString(), Syscalls.O_RDONLY, 0), file.toString());
    }

    /** Whether cachestat may be asked: false where native calls are off or once the kernel has refused it. */
    public static boolean supported() {
        return !unsupported;
    }

    /**
     * Whether every page of {@code [position, position + length)} is in the page cache now (a hint: pages may be
     * evicted the moment after). False where cachestat is missing or fails.
     */
    public boolean holds(long position, long length) {
        if (fd < 0 || unsupported || length <= 0) {
            return false;
        }
        long pages = (position + length + PAGE - 1) / PAGE - position / PAGE;
        long cached = cachedPages(position, length);
        return cached >= pages;
    }

    /** The count of cached pages in the range, or -1 where cachestat is missing or fails. */
    public long cachedPages(long position, long length) {
        if (fd < 0 || unsupported) {
            return -1;
        }
        CallMemory block = CallMemory.take();
        long r;
        long cached;
        try {
            MemorySegment scratch = block.arguments(RANGE_BYTES + STAT_BYTES);
            scratch.set(JAVA_LONG, 0, position);
            scratch.set(JAVA_LONG, 8, length);
            MemorySegment range = scratch.asSlice(0, RANGE_BYTES);
            MemorySegment stat = scratch.asSlice(RANGE_BYTES, STAT_BYTES);
            r = Syscalls.callOrErrno("cachestat", block,
                    c -> (long) Calls.CACHESTAT.invokeExact(c, SYS_CACHESTAT, fd, range, stat, 0));
            cached = r < 0 ? -1 : stat.get(JAVA_LONG, 0);
        } finally {
            CallMemory.give(block);
        }
        if (r == -Errno.ENOSYS || r == -Errno.EPERM) {
            unsupported = true;
        }
        return cached;
    }

    @Override
    public void close() throws IOException {
        if (fd >= 0) {
            Syscalls.close(fd, path);
        }
    }
}
