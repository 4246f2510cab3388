package org.hpio.archive;

import org.hpio.internal.sys.Libzstd;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * Decodes a Zstandard entry of a {@link ReadRun} while the run's later pieces are still being read: 002 §3.2's
 * overlap of reading and decompressing within one file, for the entries an {@link ArchiveLoader} reads in
 * several pieces. libzstd writes straight into the entry's place in the run's memory (its stable output buffer:
 * no window of its own, no copy), so decoding as the pieces arrive costs what one whole-buffer call costs
 * (libpython's 23 MB, warm: 15.5 to 16.3 ms either way, AMD EPYC), and a cold load's decoding starts with its
 * first piece instead of its last (measured on the python trace's first load, O_DIRECT, cold: about 22 ms
 * instead of 27).
 *
 * <p>Only a clean end of the frame within the entry's data is reported; anything else (bad data, a frame longer
 * than the entry's size, data that ends first) returns null, and the caller decodes the whole entry the usual
 * way ({@link WholeEntryDecoder}) for the verdict and its words, the same on every path.
 */
final class ArrivingZstd {
    /**
     * A frame that ended cleanly.
     *
     * @param left     compressed bytes after the frame's end, within the entry's data
     * @param produced bytes written
     */
    record Decoded(long left, long produced) {
    }

    private ArrivingZstd() {
    }

    /**
     * Whether an entry is decoded this way: Zstandard, longer than one piece of {@code pieceBytes}, and a libzstd
     * whose stable output buffer hpio knows.
     */
    static boolean applies(ArchiveEntry entry, int pieceBytes) {
        return entry.method() == ZipFormat.ZSTD && entry.compressedSize() > pieceBytes
                && Libzstd.stableOutputSupported();
    }

    /**
     * Decodes the frame at file offset {@code data} ({@code size} bytes of compressed data in {@code run}) into
     * {@code contents}, waiting for each piece of the run as it needs it (every piece must have been started).
     * Returns null when the frame does not end cleanly within the data and {@code contents}.
     *
     * @throws IOException a failed read of the run (an {@link java.io.InterruptedIOException} when interrupted)
     */
    static Decoded decode(ReadRun run, long data, long size, MemorySegment contents) throws IOException {
        long end = data + size;
        long readTo = run.awaitReadThrough(Math.min(end, data + 1));
        long fed = data;
        long produced = 0;
        try (Libzstd.Decompressor zstd = new Libzstd.Decompressor()) {
            while (true) {
                long available = Math.min(end, readTo);
                if (available == fed) {
                    if (fed == end) {
                        return null;   // the data ends before the frame does
                    }
                    long readNow = run.awaitReadThrough(fed + 1);
                    if (readNow <= fed) {
                        return null;   // the run ends before the data does: the file was cut short since it was opened
                    }
                    readTo = readNow;
                    continue;
                }
                if (zstd.stepInto(run.fileBytes(fed, available - fed), contents, produced) != null) {
                    return null;
                }
                boolean progress = zstd.consumed() > 0 || zstd.produced() > produced;
                fed += zstd.consumed();
                produced = zstd.produced();
                if (zstd.frameEnded()) {
                    return new Decoded(end - fed, produced);
                }
                if (!progress) {
                    return null;
                }
            }
        }
    }
}
