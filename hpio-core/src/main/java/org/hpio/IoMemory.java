package org.hpio;

import org.hpio.internal.sys.VirtualMemory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Off-heap memory for I/O buffers: aligned for O_DIRECT, and large buffers in transparent huge pages where the
 * kernel grants them, each 2 MiB of physically contiguous memory, which a device fills or drains in fewer, larger
 * pieces (2 MiB: the huge page of x86-64, and of arm64 with 4 KiB pages).
 *
 * <p>A transfer reaches a block device as one segment per physically contiguous run of its memory. Ordinary
 * memory ({@code Arena.allocate}, {@code ByteBuffer.allocateDirect}) is 4 KiB pages wherever the kernel found
 * them, so a 1 MiB O_DIRECT read is up to 256 segments; a transparent huge page is 2 MiB in one piece. On the
 * project's virtio disk (AMD EPYC, 1 MiB O_DIRECT reads one at a time, C harness and {@code bench engine}) that
 * took a read from about 850 to 420 µs. Small transfers gain nothing (4 KiB is one page either way), so only
 * segments from {@link #HUGE_PAGES_FROM} on are put in huge pages; to put many smaller buffers in them,
 * allocate one segment for all of them and slice it.
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined();
 *      AsyncFile file = new AsyncFile(path, "r", AsyncFileOptions.defaults().withDirect(true))) {
 *     MemorySegment buffer = IoMemory.allocate(8 << 20, arena);   // 8 MiB in four huge pages
 *     file.read(0, buffer).awaitUninterruptibly();
 * }
 * }</pre>
 *
 * <p>Ownership: the memory belongs to {@code arena} and is freed when it closes (an automatic arena's, once
 * no segment of it is reachable); it must outlive every transfer into or out of it. It starts zeroed.
 */
public final class IoMemory {
    /** Every segment {@link #allocate} returns starts on a multiple of this (the O_DIRECT alignment). */
    public static final long ALIGNMENT = 4096;
    /**
     * The size from which {@link #allocate} puts a segment in huge pages where the kernel grants them: 1 MiB, so
     * a segment takes at most twice its size (rounded up to whole 2 MiB pages); the address space beyond it is
     * never touched.
     */
    public static final long HUGE_PAGES_FROM = 1L << 20;

    private IoMemory() {
    }

    /**
     * A zeroed segment of {@code bytes}, {@value #ALIGNMENT}-aligned, owned by {@code arena}; from
     * {@link #HUGE_PAGES_FROM} on, in memory advised for transparent huge pages ({@code MADV_HUGEPAGE}) where
     * {@link #hugePages()} says the kernel grants them, else ordinary memory (as also when the kernel refuses
     * the mapping, or has no free huge page when the memory is first touched).
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     * @throws IllegalStateException     if {@code arena} is closed
     * @throws WrongThreadException      if {@code arena} is confined to another thread
     */
    public static MemorySegment allocate(long bytes, Arena arena) {
        if (bytes < 0) {
            throw new IllegalArgumentException("IoMemory.allocate: size must not be negative, was " + bytes);
        }
        if (bytes >= HUGE_PAGES_FROM && hugePages()) {
            try {
                return VirtualMemory.reserveHugePages(bytes, arena).asSlice(0, bytes);
            } catch (IOException refused) {   // ENOMEM for address space: ordinary memory still serves
                return arena.allocate(bytes, ALIGNMENT);
            }
        }
        return arena.allocate(bytes, ALIGNMENT);
    }

    /**
     * Whether {@link #allocate} asks for huge pages here: native calls are on, the kernel's transparent huge
     * pages are {@code always} or {@code madvise}, and {@code -Dhpio.memory.hugePages=false} is not set.
     */
    public static boolean hugePages() {
        return VirtualMemory.hugePagesForIo();
    }
}
