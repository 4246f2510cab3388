package org.hpio.internal.sys;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Read-only shared mappings of a file range ({@code mmap(PROT_READ, MAP_SHARED)}), to copy a large read out of
 * the page cache with the JVM's vectorised copy instead of the kernel's {@code copy_to_user}.
 *
 * <p>Only pages already in the page cache are read this way ({@link #likelyResident}, sampled): a page fault that has to read
 * the disk happens while the thread runs Java code, so it would hold off every safepoint (garbage collection)
 * of the JVM for the length of the disk read; a {@code pread} waits for the disk in native code instead.
 *
 * <p>Ownership: the mapping belongs to the arena passed in and is unmapped when it closes; meant for a
 * confined arena that lives for one call (creating and closing a confined arena needs no JVM-wide handshake,
 * unlike a shared one). The mapping does not hold the descriptor: closing the file does not unmap it.
 *
 * <p>Faults: reading a mapped page past the end of a file that shrank after it was mapped raises SIGBUS, which
 * the JVM turns into an asynchronous {@link InternalError} ("a fault occurred in an unsafe memory access
 * operation") delivered at the thread's next safepoint poll or native transition; the bytes of the rest of
 * a partial last page read as zeros. {@link NativeFile#readMapped} handles both.
 */
public final class FileMapping {
    private static final String MAPPING = "file mapping";
    private static final int PROT_READ = 1;
    private static final int MAP_SHARED = 0x01;
    private static final long PAGE = 4096;
    private static final long PAGES_PER_SAMPLE = 4096;
    private static final long MAX_SAMPLES = 16;

    private static final MethodHandle MMAP = Syscalls.downcall("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MUNMAP = Syscalls.downcall("munmap",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle MINCORE = Syscalls.downcall("mincore",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));

    private FileMapping() {
    }

    /**
     * The pages that hold {@code [position, position + length)} of {@code fd}, mapped read-only and shared,
     * unmapped when {@code arena} closes: the segment starts at the page that holds {@code position}, at offset
     * {@link #offsetInPage}{@code (position)} of it.
     */
    static MemorySegment mapForReading(int fd, long position, long length, String path, Arena arena)
            throws IOException {
        long start = position & -PAGE;
        long size = position - start + length;
        MemorySegment[] mapped = new MemorySegment[1];
        Syscalls.call("mmap", path, position, true, c -> {
            MemorySegment address = (MemorySegment) MMAP.invokeExact(c, MemorySegment.NULL, size, PROT_READ,
                    MAP_SHARED, fd, start);
            if (address.address() == -1L) {
                return -1;
            }
            long base = address.address();
            mapped[0] = address.reinterpret(size, arena, unused -> unmap(base, size));
            return 0;
        });
        return mapped[0];
    }

    public static long offsetInPage(long position) {
        return position & (PAGE - 1);
    }

    /**
     * True when the sampled pages of {@code pages} (a file mapping that starts at a page boundary) are in the
     * page cache, by mincore(2) on each: the first and last page and evenly spaced ones between, one per
     * {@value #PAGES_PER_SAMPLE} pages, at most {@value #MAX_SAMPLES}. A sample, not every page: mincore over
     * every page cost 3.7 ms for 256 MiB (a fifth of the copy) and 25 microseconds for 1 MiB; a file read cold
     * or dropped from the cache is caught by any sample. The one-byte vector is allocated in {@code arena}.
     */
    public static boolean likelyResident(MemorySegment pages, Arena arena) throws IOException {
        long pageCount = (pages.byteSize() + PAGE - 1) / PAGE;
        long samples = Math.min(MAX_SAMPLES, Math.max(2, pageCount / PAGES_PER_SAMPLE));
        MemorySegment vector = arena.allocate(1);
        for (long i = 0; i < samples; i++) {
            MemorySegment page = pages.asSlice(i * (pageCount - 1) / (samples - 1) * PAGE, 1);
            Syscalls.call("mincore", MAPPING, -1, true, c -> (int) MINCORE.invokeExact(c, page, 1L, vector));
            if ((vector.get(ValueLayout.JAVA_BYTE, 0) & 1) == 0) {
                return false;
            }
        }
        return true;
    }

    private static void unmap(long address, long size) {
        MemorySegment mapping = MemorySegment.ofAddress(address);
        try {
            Syscalls.call("munmap", MAPPING, -1, false, c -> (int) MUNMAP.invokeExact(c, mapping, size));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
