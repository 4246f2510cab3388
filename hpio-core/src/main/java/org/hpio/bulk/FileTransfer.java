package org.hpio.bulk;

import org.hpio.internal.array.ArrayKind;
import org.hpio.internal.mem.StagingSlots;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * Positional transfers between a file and a primitive array: the data path of {@link BulkRandomAccessFile}
 * (001 §6, without JNI).
 *
 * <p><b>Reads, by transfer size</b>:
 * <ul>
 * <li>below {@link #DIRECT_MAX} (256 KiB): {@link DirectRead}, the kernel copies straight into the array,
 *     swapped in place in a foreign order (the path before issue 16), so small reads keep their cost;</li>
 * <li>from there below {@link #MAPPED_MIN} (1 MiB), and booleans at any size: {@link StagedRead}, one
 *     {@code pread} into a page-aligned off-heap buffer, then the JVM's bulk copy (swapping when the order is
 *     foreign) into the array;</li>
 * <li>from {@link #MAPPED_MIN} up: {@link MappedRead}, the range mapped for the call and copied (swapped)
 *     straight into the array, when it is in the page cache (mincore on sampled pages);
 *     staged otherwise (a fault that reads the disk would hold off the JVM's safepoints) or when the file
 *     cannot be mapped.</li>
 * </ul>
 * Measured side by side in one process (AMD EPYC, 2 cores, JDK 25, Linux 6.18, ext4, warm page cache;
 * microseconds per call, native order / big-endian, medians of 5 interleaved rounds of a harness making the same
 * calls into a 256 MiB long[]; the 256 MiB rows in GB/s):
 * <pre>
 * transfer   pread into array   staged (1 MiB buffer)   mapped for the call
 * 1 KiB      0.64 / 0.70        0.56 / 0.62             6.5 / 6.1
 * 4 KiB      0.98 / 1.11        0.75 / 0.81             6.9 / 6.8
 * 64 KiB     8.1  / 10.2        6.6  / 8.2              11.4 / 13.9
 * 256 KiB    28.9 / 39.1        24.0 / 30.2             30.1 / 38.0
 * 1 MiB      116  / 159         72   / 99               59   / 70
 * 16 MiB     2106 / 3012        1402 / 1733             891  / 1096
 * 256 MiB    6.4 / 5.0 GB/s     10.2 / 9.7 GB/s         17.8 / 13.9 GB/s
 * </pre>
 * ("pread into array" was the only path before: critical {@code pread} straight into the heap array, swapped in
 * place.) Into a large array it loses at every size (see {@link StagedRead} for why), but into a small, freshly
 * allocated array, old against new in one process (two class loaders, both orders of running them, 11 rounds),
 * staging did not pay below 256 KiB (64 KiB: direct 9.1 against staged 11.9 microseconds native, in a noisy
 * run; direct and swapped 7.6 against staged 8.2 big-endian, in a quiet one), so reads below 256 KiB stay
 * direct; from 512 KiB staging won in every run (512 KiB: 45 against 61 native, 57 against 82 big-endian). Mapping and unmapping cost about 7 microseconds a call, so the
 * mapping wins from about 1 MiB (1 MiB: 59 against 72). A cached mapping per file would save those microseconds
 * but needs a shared arena (a JVM-wide handshake, ~53 microseconds, to close) and re-validation whenever the
 * file changes size; not worth it at the sizes where mapping is chosen. 256 MiB of longs, warm, the rows of bench
 * bulk interleaved in one process (9 rounds, the old and new jar side by side): bulkraf / nio 1.19, bulkraf / mmap
 * 1.00, bulk-native / mmap-native 0.99; before: 0.52, 0.44, 0.52. Bench bulk itself (rows one after another,
 * results/2026-11-24-bulk/bulk): 1.33, 0.97, 1.00, bulkraf / c write 0.95; on this shared machine, in busier
 * moments, its read ratios ranged down to 1.05, 0.63 and 0.58 (other sessions dropped the page cache).
 *
 * <p><b>Writes</b>: when the array's memory is the file's byte form (native order) straight from the array, in
 * critical calls of at most {@link Syscalls#CRITICAL_CHUNK} bytes (staging them measured no faster: 4.6 against
 * 4.6 and 4.1 GB/s); otherwise through one {@link StagedRead} 1 MiB buffer (owned by the call, given back before
 * it ends), swapped in bulk, since the caller's array must not change: 4.4 GB/s, where the 256 KiB buffers used
 * before made 3.1-3.5 (256 MiB, old and new interleaved in one process).
 *
 * <p>One system call per chunk, never one per element. Safe from many threads at once: nothing here is shared
 * but the staging slots.
 */
final class FileTransfer {
    /** The smallest read copied out of a mapping; smaller ones are staged (see the table above). */
    static final long MAPPED_MIN = 1 << 20;
    /** Reads below this go straight into the array (see the table above). */
    static final long DIRECT_MAX = 256 << 10;

    private FileTransfer() {
    }

    /**
     * Reads {@code count} elements at {@code position} into {@code array[offset ..]}. Bounds and end of file
     * are checked before any I/O (against the size this handle last saw or wrote, asking the kernel only when
     * that is too short: {@link NativeFile#sizeAtLeast}); if the file shrank meanwhile, through another handle
     * or during the read, the EOFException says how many elements arrived.
     */
    static void read(NativeFile file, long position, ArrayKind kind, Object array, int offset, int count,
                     ByteOrder order) throws IOException {
        kind.checkRange(array, offset, count);
        checkPosition(position);
        if (count == 0) {
            return; // a no-op wherever the position is, even past the end of the file
        }
        long bytes = kind.byteSize(count);
        long available = file.sizeAtLeast(position + bytes) - position;
        if (bytes > available) {
            throw new EOFException("end of file: " + count + " " + kind.typeName() + "s requested at offset "
                    + position + " of " + file.path() + " but only " + Math.max(0, available) / kind.elementSize()
                    + " remain; 0 read, nothing changed");
        }
        if (bytes < DIRECT_MAX && kind != ArrayKind.BOOLEAN) {
            DirectRead.read(file, position, kind, array, offset, count, order);
            return;
        }
        boolean mapped = bytes >= MAPPED_MIN && kind != ArrayKind.BOOLEAN
                && MappedRead.read(file, position, kind, array, offset, count, order);
        if (!mapped) {
            StagedRead.read(file, position, kind, array, offset, count, order);
        }
    }

    /** Reads until {@code buffer} is full or the file ends; returns the bytes read. */
    static long readUpTo(NativeFile file, MemorySegment buffer, long position) throws IOException {
        long done = 0;
        while (done < buffer.byteSize()) {
            long got = file.read(buffer.asSlice(done), position + done);
            if (got == 0) {
                break;
            }
            done += got;
        }
        return done;
    }

    static EOFException shrunk(NativeFile file, long position, ArrayKind kind, long read, long count) {
        file.forgetSize();   // the next check asks the kernel
        return new EOFException("end of file: " + file.path() + " ended during a read of " + count + " "
                + kind.typeName() + "s at offset " + position + "; " + read + " read");
    }

    /** Writes {@code count} elements of {@code array[offset ..]} at {@code position}, extending the file. */
    static void write(NativeFile file, long position, ArrayKind kind, Object array, int offset, int count,
                      ByteOrder order) throws IOException {
        kind.checkRange(array, offset, count);
        checkPosition(position);
        if (count == 0) {
            return;
        }
        if (kind.isMemoryForm(order)) {
            MemorySegment source = kind.heapSegment(array).asSlice(kind.byteSize(offset), kind.byteSize(count));
            for (long done = 0; done < source.byteSize(); ) {
                long chunk = Math.min(Syscalls.CRITICAL_CHUNK, source.byteSize() - done);
                done += writeFully(file, source.asSlice(done, chunk), position + done);
            }
        } else {
            writeStaged(file, position, kind, array, offset, count, order);
        }
    }

    private static void writeStaged(NativeFile file, long position, ArrayKind kind, Object array, int offset,
                                    int count, ByteOrder order) throws IOException {
        StagingSlots pool = StagedRead.POOL;
        MemorySegment staging = pool.acquire();
        try {
            int perChunk = (int) (staging.byteSize() / kind.elementSize());
            for (int done = 0; done < count; ) {
                int n = Math.min(perChunk, count - done);
                kind.encode(array, offset + done, n, order, staging, 0);
                writeFully(file, staging.asSlice(0, kind.byteSize(n)), position + kind.byteSize(done));
                done += n;
            }
        } finally {
            pool.release(staging);
        }
    }

    /** Writes all of {@code buffer}, continuing after short writes; returns its size. */
    private static long writeFully(NativeFile file, MemorySegment buffer, long position) throws IOException {
        long done = 0;
        while (done < buffer.byteSize()) {
            long wrote = file.write(buffer.asSlice(done), position + done);
            if (wrote == 0) {
                throw new IOException("pwrite wrote nothing at offset " + (position + done) + " of " + file.path());
            }
            done += wrote;
        }
        return done;
    }

    static void checkPosition(long position) {
        if (position < 0) {
            throw new IllegalArgumentException("negative file position: " + position);
        }
    }
}
