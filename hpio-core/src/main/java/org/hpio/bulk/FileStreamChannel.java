package org.hpio.bulk;

import org.hpio.internal.array.ArrayKind;
import org.hpio.internal.mem.StagingSlots;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * The fast path of the bulk streams when the stream underneath is a plain {@link FileInputStream} or
 * {@link FileOutputStream}: array transfers go through the stream's own {@link FileChannel} (same file
 * position, so single-value reads and writes interleave as before) and one pooled off-heap staging buffer.
 *
 * <p>Why: {@code FileInputStream.read(byte[])} copies through a buffer its native code mallocs for each call
 * larger than 8 KiB and then into the byte[], which the bulk stream then decodes: three copies of each byte
 * where C's read(2) plus an in-place swap makes two. Through the channel the kernel copies into the staging
 * buffer and the decode reads it from there (two). Measured (64 MiB file, warm cache, 512 KiB arrays, read +
 * write): 47 ms before, 36 ms through the channel, medians of 11 interleaved rounds.
 *
 * <p>Reads choose by size as {@link FileTransfer} does: below {@link FileTransfer#MAPPED_MIN} through a
 * page-aligned 1 MiB staging buffer ({@link StagedRead}'s pool: the kernel's copy is fast only into aligned
 * memory); from there up copied straight out of a mapping made for the call ({@link MappedChannelRead}), one
 * copy in all. Writes go through the same 1 MiB staging buffers (big-endian file writes through them measured
 * 4.4 GB/s against 3.1-3.5 through 256 KiB ones).
 *
 * <p>Only the exact classes qualify (a subclass may override {@code read}/{@code write}). A FileChannel is
 * interruptible: an interrupt of the thread while a transfer is in the kernel closes the channel and so the
 * stream (ClosedByInterruptException), as with {@code FileInputStream.transferTo}; a thread whose interrupt
 * status is already set takes the stream path instead, so a pending interrupt does not close the stream.
 * Standard input, output and error always take the stream path, and {@code -Dhpio.bulk.streamChannel=false}
 * keeps every stream on it.
 * A staging buffer or mapping belongs to one call and is given back (unmapped) before it returns. Stateless.
 */
final class FileStreamChannel {
    private FileStreamChannel() {
    }

    /** {@code -Dhpio.bulk.streamChannel=false} keeps every bulk stream on the stream path (no interruptible channel). */
    private static final boolean ENABLED = !"false".equals(System.getProperty("hpio.bulk.streamChannel"));

    /** The channel to read {@code in} through, or null when the stream path must be taken. */
    static FileChannel of(InputStream in) {
        try {
            return ENABLED && in != null && in.getClass() == FileInputStream.class
                    && !Thread.currentThread().isInterrupted() && !isStandard(((FileInputStream) in).getFD())
                    ? ((FileInputStream) in).getChannel() : null;
        } catch (IOException e) {
            return null;   // no descriptor: the stream path reports what is wrong
        }
    }

    /** The channel to write {@code out} through, or null when the stream path must be taken. */
    static FileChannel of(OutputStream out) {
        try {
            return ENABLED && out != null && out.getClass() == FileOutputStream.class
                    && !Thread.currentThread().isInterrupted() && !isStandard(((FileOutputStream) out).getFD())
                    ? ((FileOutputStream) out).getChannel() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** Standard input, output and error stay on the stream path: closing them by an interrupt would be worse. */
    private static boolean isStandard(FileDescriptor fd) {
        return fd == FileDescriptor.in || fd == FileDescriptor.out || fd == FileDescriptor.err;
    }

    /**
     * Reads up to {@code count} elements into {@code array[offset ..]}, stopping early only at the end of the
     * file; returns the whole elements read (the bytes of a trailing partial element are consumed and lost).
     */
    static int read(FileChannel channel, ArrayKind kind, Object array, int offset, int count, ByteOrder order)
            throws IOException {
        if (kind != ArrayKind.BOOLEAN && kind.byteSize(count) >= FileTransfer.MAPPED_MIN) {
            int read = MappedChannelRead.read(channel, kind, array, offset, count, order);
            if (read >= 0) {
                return read;
            }
        }
        return readStaged(channel, kind, array, offset, count, order);
    }

    private static int readStaged(FileChannel channel, ArrayKind kind, Object array, int offset, int count,
                                  ByteOrder order) throws IOException {
        StagingSlots pool = StagedRead.POOL;
        MemorySegment staging = pool.acquire();
        try {
            ByteBuffer bytes = staging.asByteBuffer();
            int size = kind.elementSize();
            int perChunk = (int) (staging.byteSize() / size);
            int done = 0;
            while (done < count) {
                int n = Math.min(perChunk, count - done);
                bytes.clear().limit(n * size);
                while (bytes.hasRemaining() && channel.read(bytes) > 0) {
                    // until the chunk is full or the file ends (-1; 0 from a non-blocking descriptor ends it too,
                    // rather than spinning)
                }
                int whole = bytes.position() / size;
                kind.decode(staging, 0, order, array, offset + done, whole);
                done += whole;
                if (whole < n) {
                    break;
                }
            }
            return done;
        } finally {
            pool.release(staging);
        }
    }

    /** Writes {@code count} elements of {@code array[offset ..]}. */
    static void write(FileChannel channel, ArrayKind kind, Object array, int offset, int count, ByteOrder order)
            throws IOException {
        StagingSlots pool = StagedRead.POOL;
        MemorySegment staging = pool.acquire();
        try {
            ByteBuffer bytes = staging.asByteBuffer();
            int size = kind.elementSize();
            int perChunk = (int) (staging.byteSize() / size);
            for (int done = 0; done < count; ) {
                int n = Math.min(perChunk, count - done);
                kind.encode(array, offset + done, n, order, staging, 0);
                bytes.clear().limit(n * size);
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                done += n;
            }
        } finally {
            pool.release(staging);
        }
    }
}
