package org.hpio.internal.sys;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Reserved virtual address space whose pages are committed only when first touched (002 §3.5.1: "due to
 * on-demand committing of the virtual memory, only as much physical memory as necessary is used").
 *
 * <p>{@code Arena.allocate} zero-fills what it allocates, which commits every page at once; a private anonymous
 * {@code mmap} with {@code MAP_NORESERVE} instead gives pages that the kernel fills on first touch.
 *
 * <p>Ownership: the segment returned by {@link #reserve} belongs to the arena passed in; closing that arena
 * unmaps the range, after which any access through the segment or its slices throws instead of faulting.
 */
public final class VirtualMemory {
    private static final String WHAT = "anonymous memory";
    private static final int PROT_READ = 1;
    private static final int PROT_WRITE = 2;
    private static final int MAP_PRIVATE = 0x02;
    private static final int MAP_ANONYMOUS = 0x20;
    private static final int MAP_NORESERVE = 0x4000;

    private static final MethodHandle MMAP = Syscalls.downcall("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MUNMAP = Syscalls.downcall("munmap",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));

    private VirtualMemory() {
    }

    /**
     * Reserves {@code bytes} (rounded up to whole 4 KiB pages) of readable and writable address space, page
     * aligned, reading as zero, committed page by page as it is touched. Unmapped when {@code arena} closes.
     *
     * @throws IOException if the kernel refuses the mapping (ENOMEM: address space or overcommit limits)
     */
    public static MemorySegment reserve(long bytes, Arena arena) throws IOException {
        if (bytes <= 0) {
            throw new IllegalArgumentException("reserve: size must be positive, was " + bytes);
        }
        long size = (bytes + 4095) & ~4095L;
        MemorySegment[] mapped = new MemorySegment[1];
        Syscalls.call("mmap", WHAT, -1, false, c -> {
            MemorySegment address = (MemorySegment) MMAP.invokeExact(c, MemorySegment.NULL, size,
                    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0L);
            if (address.address() == -1L) {
                return -1;
            }
            long start = address.address();
            mapped[0] = address.reinterpret(size, arena, unused -> unmap(start, size));
            return 0;
        });
        return mapped[0];
    }

    private static void unmap(long address, long size) {
        MemorySegment mapping = MemorySegment.ofAddress(address);
        try {
            Syscalls.call("munmap", WHAT, -1, false, c -> (int) MUNMAP.invokeExact(c, mapping, size));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
