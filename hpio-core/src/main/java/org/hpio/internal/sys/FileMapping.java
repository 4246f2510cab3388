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
 * Read-only shared mappings of a file range ({@code mmap(PROT_READ, MAP_SHARED)}), to copy a large read out of
 * the page cache with the JVM's vectorised copy instead of the kernel's {@code copy_to_user}.
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
final class FileMapping {
    private static final String MAPPING = "file mapping";
    private static final int PROT_READ = 1;
    private static final int MAP_SHARED = 0x01;
    private static final long PAGE = 4096;

    private static final MethodHandle MMAP = Syscalls.downcall("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MUNMAP = Syscalls.downcall("munmap",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));

    private FileMapping() {
    }

    /**
     * The bytes {@code [position, position + length)} of {@code fd}, mapped read-only and shared, unmapped when
     * {@code arena} closes. The mapping starts at the page that holds {@code position}; the segment returned
     * starts at {@code position} itself.
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
        return mapped[0].asSlice(position - start, length);
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
