package org.hpio.internal.sys;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

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
 * <p>Where native calls are off ({@link NativeAccess}) the JDK's own mapping of a sparse temporary file, privately,
 * gives the same contract ({@link #reservePortably}).
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

    /** The handles, in a class of their own: made on first native use, never where native calls are off. */
    private static final class Calls {
        static final MethodHandle MMAP = Syscalls.downcall("mmap",
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
        static final MethodHandle MUNMAP = Syscalls.downcall("munmap",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        static final MethodHandle MADVISE = Syscalls.downcall("madvise",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    }

    /** madvise's advice for transparent huge pages (linux/mman.h). */
    private static final int MADV_HUGEPAGE = 14;
    /** The size of a transparent huge page on x86_64 (a PMD: 2 MiB). */
    public static final long HUGE_PAGE_BYTES = 2L << 20;
    /** The most {@link #reserve} takes: 2^56 bytes, beyond the address space of any machine hpio runs on. */
    private static final long MAX_RESERVE = 1L << 56;
    private static final Path THP_ENABLED = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");

    private VirtualMemory() {
    }

    /**
     * Reserves {@code bytes} (rounded up to whole 4 KiB pages) of readable and writable address space, page
     * aligned, reading as zero, committed page by page as it is touched. Unmapped when {@code arena} closes.
     *
     * @throws IOException if the kernel refuses the mapping (ENOMEM: address space or overcommit limits), or
     *                     {@code bytes} is beyond any address space
     */
    public static MemorySegment reserve(long bytes, Arena arena) throws IOException {
        requireReservable("reserve", bytes);
        long size = (bytes + 4095) & ~4095L;
        if (!NativeAccess.available()) {
            return reservePortably(size, arena);
        }
        MemorySegment[] mapped = new MemorySegment[1];
        Syscalls.call("mmap", WHAT, -1, false, c -> {
            MemorySegment address = (MemorySegment) Calls.MMAP.invokeExact(c, MemorySegment.NULL, size,
                    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0L);
            if (address.address() == -1L) {
                return -1;
            }
            long start = address.address();
            try {
                mapped[0] = address.reinterpret(size, arena, unused -> unmap(start, size));
            } catch (RuntimeException arenaUnusable) {   // closed, or confined to another thread: nothing owns it
                unmap(start, size);
                throw arenaUnusable;
            }
            return 0;
        });
        return mapped[0];
    }

    /**
     * The same without native calls: a private (copy-on-write) mapping of a sparse temporary file of {@code size}
     * bytes, through the JDK's {@code FileChannel.map}. Its holes read as zero and cost nothing until touched; a
     * written page becomes the process's own and never reaches the file, which is deleted at once (on Windows,
     * which cannot delete a mapped file, at exit).
     */
    private static MemorySegment reservePortably(long size, Arena arena) throws IOException {
        Path file = Files.createTempFile("hpio-reserve", ".mem");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(1), size - 1);   // a sparse file of exactly size bytes
            return channel.map(FileChannel.MapMode.PRIVATE, 0, size, arena);
        } finally {
            try {
                Files.delete(file);
            } catch (IOException stillMapped) {
                file.toFile().deleteOnExit();
            }
        }
    }

    /**
     * Whether the kernel backs anonymous memory with transparent huge pages when asked ({@code madvise}): its
     * setting is {@code always} or {@code madvise}, not {@code never}, and native calls are on. False where
     * the setting cannot be read (no THP in the kernel).
     */
    public static boolean hugePagesOnRequest() {
        if (!NativeAccess.available()) {
            return false;
        }
        try {
            return hugePagesOnRequest(Files.readString(THP_ENABLED));
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    /** Turns hpio's huge pages for I/O memory off ({@code -Dhpio.memory.hugePages=false}). */
    public static final String HUGE_PAGES_PROPERTY = "hpio.memory.hugePages";

    /**
     * Whether hpio puts I/O memory (staging slabs, {@code IoMemory}) in huge pages: {@link #hugePagesOnRequest()}
     * and not turned off by {@value #HUGE_PAGES_PROPERTY}. Decided once, at first use.
     */
    public static boolean hugePagesForIo() {
        return HugePagesForIo.ON;
    }

    /** Why {@link #hugePagesForIo()} is false; null when it is true. Decided with it. */
    public static String hugePagesForIoOffReason() {
        return HugePagesForIo.WHY_NOT;
    }

    private static final class HugePagesForIo {
        static final String WHY_NOT = whyNot();
        static final boolean ON = WHY_NOT == null;

        private static String whyNot() {
            if (!NativeAccess.available()) {
                return "native calls are off: " + NativeAccess.unavailableReason();
            }
            if ("false".equals(System.getProperty(HUGE_PAGES_PROPERTY))) {
                return "turned off (-D" + HUGE_PAGES_PROPERTY + "=false)";
            }
            return hugePagesOnRequest() ? null
                    : "the kernel's transparent huge pages are off (" + THP_ENABLED + " says never, or is missing)";
        }
    }

    /** {@link #hugePagesOnRequest()} from the setting's text, e.g. "always [madvise] never": the bracketed one. */
    public static boolean hugePagesOnRequest(String setting) {
        return setting.contains("[always]") || setting.contains("[madvise]");
    }

    /**
     * Reserves {@code HUGE_PAGE_BYTES} of address space as {@link #reserve} does, aligned to a huge page and
     * advised for one ({@code MADV_HUGEPAGE}): where the kernel has a free huge page when the range is first
     * touched, the whole range is one physically contiguous page, which a device reads into or writes from as
     * one segment instead of 512 (on a virtio disk, a 1 MiB O_DIRECT read into such memory took 0.4 of the
     * time it took into 4 KiB pages: C harness, AMD EPYC). Otherwise it is ordinary memory. Unmapped when
     * {@code arena} closes.
     *
     * @throws IOException if the kernel refuses the mapping
     */
    public static MemorySegment reserveHugePage(Arena arena) throws IOException {
        return reserveHugePages(HUGE_PAGE_BYTES, arena);
    }

    /**
     * As {@link #reserveHugePage}, for {@code bytes} rounded up to whole huge pages: the segment returned is that
     * rounded size, starts on a huge page boundary and is advised for huge pages throughout.
     *
     * @throws IOException if the kernel refuses the mapping
     */
    public static MemorySegment reserveHugePages(long bytes, Arena arena) throws IOException {
        requireReservable("reserveHugePages", bytes);
        long size = (bytes + HUGE_PAGE_BYTES - 1) & -HUGE_PAGE_BYTES;
        MemorySegment reserved = reserve(size + HUGE_PAGE_BYTES, arena);   // room to align; the rest never touched
        long skip = -reserved.address() & (HUGE_PAGE_BYTES - 1);
        MemorySegment pages = reserved.asSlice(skip, size);
        if (NativeAccess.available()) {
            // Advice only: a kernel that refuses it (EINVAL without THP) leaves ordinary memory, still usable.
            Syscalls.callOrErrno("madvise", c -> (int) Calls.MADVISE.invokeExact(c, pages, size, MADV_HUGEPAGE));
        }
        return pages;
    }

    /** The sizes {@code caller} takes: positive (else IllegalArgumentException), within an address space. */
    private static void requireReservable(String caller, long bytes) throws IOException {
        if (bytes <= 0) {
            throw new IllegalArgumentException(caller + ": size must be positive, was " + bytes);
        }
        if (bytes > MAX_RESERVE) {
            throw new IOException("cannot reserve " + bytes + " bytes: more than any address space");
        }
    }

    private static void unmap(long address, long size) {
        MemorySegment mapping = MemorySegment.ofAddress(address);
        try {
            Syscalls.call("munmap", WHAT, -1, false, c -> (int) Calls.MUNMAP.invokeExact(c, mapping, size));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
