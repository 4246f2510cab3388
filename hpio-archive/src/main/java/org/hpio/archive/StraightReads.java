package org.hpio.archive;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.zip.CRC32;

/**
 * Reads a range of a file straight into its destination (a stored entry, or a loose file): the destination is
 * cut where the block grid cuts the file (002 §3.4), and the pieces are read asynchronously at the queue
 * depth, with no copy. Each piece's bytes go into the CRC as soon as that piece is done, while later pieces are
 * still being read.
 */
final class StraightReads {
    private StraightReads() {
    }

    /**
     * Reads {@code destination.byteSize()} bytes at {@code position} of {@code io}'s file into
     * {@code destination}; when {@code crc} is given, adds to it the bytes of the destination's part
     * {@code [checkFrom, checkFrom + checkLength)} in order. {@code what} names the data in errors.
     * On return (normal or not) no read is in flight into the destination.
     */
    static void read(BlockIo io, long position, MemorySegment destination, CRC32 crc, long checkFrom,
                     long checkLength, String what) throws IOException {
        long total = destination.byteSize();
        ArrayDeque<AsyncFileRequest> inFlight = new ArrayDeque<>();
        ArrayDeque<long[]> pieces = new ArrayDeque<>();
        long issued = 0;
        try {
            while (issued < total || !inFlight.isEmpty()) {
                while (issued < total && inFlight.size() < io.queueDepth()) {
                    long at = position + issued;
                    long length = Math.min(total - issued, io.blockSize() - at % io.blockSize());
                    inFlight.addLast(io.read(at, destination.asSlice(issued, length)));
                    pieces.addLast(new long[]{issued, length});
                    issued += length;
                }
                AsyncFileRequest head = inFlight.peekFirst();
                await(head, io, what);
                inFlight.pollFirst();
                long[] piece = pieces.pollFirst();
                if (crc != null) {
                    long from = Math.max(piece[0], checkFrom);
                    long to = Math.min(piece[0] + piece[1], checkFrom + checkLength);
                    if (to > from) {
                        crc.update(destination.asSlice(from, to - from).asByteBuffer());
                    }
                }
            }
        } finally {
            // After a failure or an interrupt: the reads left are not wanted, but the destination is the kernel's
            // until each is done: cancel them, and wait however the thread is interrupted.
            for (AsyncFileRequest r : inFlight) {
                try {
                    r.cancel();
                } catch (IOException e) {
                    // not cancelled: it finishes by itself, and the wait below covers it
                }
                r.awaitUninterruptibly();
                r.clearException();
            }
        }
    }

    private static void await(AsyncFileRequest r, BlockIo io, String what) throws IOException {
        try {
            r.done(AsyncFile.TIME_INF);
        } catch (IOException e) {
            r.clearException();
            throw new IOException(what + ": reading " + r.length() + " bytes at offset " + r.position() + " of "
                    + io.path() + " failed: " + e.getMessage(), e);
        }
    }
}
