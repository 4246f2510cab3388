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
    }

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
            mapped[0] = address.reinterpret(size, arena, unused -> unmap(start, size));
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

    private static void unmap(long address, long size) {
        MemorySegment mapping = MemorySegment.ofAddress(address);
        try {
            Syscalls.call("munmap", WHAT, -1, false, c -> (int) Calls.MUNMAP.invokeExact(c, mapping, size));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
