package org.hpio.bulk;

import org.hpio.internal.array.ArrayKind;
import org.hpio.internal.mem.StagingSlots;
import org.hpio.internal.sys.NativeFile;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * A read through an off-heap staging buffer: one {@code pread} per {@value #BUFFER_BYTES} bytes into a
 * page-aligned buffer, then one bulk copy (a swapping one in a foreign byte order) into the array. The read of
 * transfers from {@link FileTransfer#DIRECT_MAX} to {@link FileTransfer#MAPPED_MIN}, of booleans, and of any
 * transfer the file cannot be mapped for (or that is not in the page cache).
 *
 * <p>Why not {@code pread} straight into the array: the kernel's copy ({@code rep movsb} on current x86) is
 * far slower into a destination that is not cache-line aligned, and an array's elements start 16 bytes into
 * its object: straight into a long[] measured 6.4 GB/s against 13.3 GB/s into page-aligned memory (AMD EPYC,
 * 256 MiB warm, 1 MiB calls). Through this buffer the kernel writes aligned memory and the JVM's vectorised
 * copy, which does not care, moves it on from the cache: 10.2 GB/s, and faster at every size from 1 KiB up
 * (see {@link FileTransfer}).
 *
 * <p>Buffers: from {@link StagingSlots} of {@value #BUFFER_BYTES} buffers shared by all threads (no allocation
 * per call); owned by one call from acquire to release, which happens before the call returns, so nothing
 * outlives it. Thread-safe.
 */
final class StagedRead {
    static final int BUFFER_BYTES = 1 << 20;
    /**
     * The staging buffers of bulk transfers: these reads, big-endian writes (FileTransfer) and the bulk streams'
     * over a file (FileStreamChannel).
     */
    static final StagingSlots POOL =
            new StagingSlots(BUFFER_BYTES, 2 * Runtime.getRuntime().availableProcessors());

    private StagedRead() {
    }

    /** Reads {@code count} elements at {@code position}; stops early, with an EOFException, if the file ends. */
    static void read(NativeFile file, long position, ArrayKind kind, Object array, int offset, int count,
                     ByteOrder order) throws IOException {
        MemorySegment staging = POOL.acquire();
        try {
            int perChunk = (int) (staging.byteSize() / kind.elementSize());
            int done = 0;
            while (done < count) {
                int n = Math.min(perChunk, count - done);
                long want = kind.byteSize(n);
                long got = FileTransfer.readUpTo(file, staging.asSlice(0, want), position + kind.byteSize(done));
                int whole = (int) (got / kind.elementSize());
                kind.decode(staging, 0, order, array, offset + done, whole);
                done += whole;
                if (got < want) {
                    throw FileTransfer.shrunk(file, position, kind, done, count);
                }
            }
        } finally {
            POOL.release(staging);
        }
    }
}
