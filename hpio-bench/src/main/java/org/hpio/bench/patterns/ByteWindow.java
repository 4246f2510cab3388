package org.hpio.bench.patterns;

import java.io.IOException;

/**
 * A hand-rolled buffer of 1-byte operations (004 Test 3, "direct buffering"): a window of the file, aligned to
 * its size, filled by one {@link BlockIo} read when an operation falls outside it. Writes go into the window and
 * the window is written back before it moves: a random write reads the window first (read-modify-write); a
 * sequential write, which overwrites every byte in order, does not, and writes back only what it filled. The
 * window array is this run's.
 */
final class ByteWindow {
    private ByteWindow() {
    }

    /** Runs {@code p}'s operations through a window of {@code p.bufferSize()} bytes; returns the read checksum. */
    static long run(Point p, BlockIo io, Source source) throws IOException {
        byte[] window = new byte[p.bufferSize()];
        boolean write = p.access().write();
        boolean overwrite = write && !p.access().random();
        long start = 0;
        int length = 0;
        int filled = 0;
        long sum = 0;
        for (long k = 0; k < p.ops(); k++) {
            long pos = p.position(k);
            if (pos < start || pos >= start + length) {
                if (filled > 0) {
                    io.write(start, window, overwrite ? filled : length);
                    filled = 0;
                }
                start = pos - pos % window.length;
                length = (int) Math.min(window.length, p.fileSize() - start);
                if (!overwrite) {
                    io.read(start, window, length);
                }
            }
            int i = (int) (pos - start);
            if (write) {
                window[i] = source.bytes[(int) pos];
                filled = Math.max(filled, i + 1);
            } else {
                sum += Fold.one(window[i], pos);
            }
        }
        if (filled > 0) {
            io.write(start, window, overwrite ? filled : length);
        }
        return sum;
    }
}
