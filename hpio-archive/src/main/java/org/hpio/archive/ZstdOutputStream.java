package org.hpio.archive;

import org.hpio.internal.sys.Libzstd;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Compresses what is written to it into one Zstandard frame of a size known in advance (written into the frame
 * header) and writes the frame to a sink, which it does not close. {@link #finish()} ends the frame. Buffers
 * {@value #CHUNK} bytes each way off-heap (automatic memory). One thread at a time; close it.
 */
final class ZstdOutputStream extends OutputStream {
    private static final int CHUNK = 1 << 17;

    private final OutputStream sink;
    private final Libzstd.Compressor zstd;
    private final MemorySegment in = Arena.ofAuto().allocate(CHUNK);
    private final MemorySegment out = Arena.ofAuto().allocate(CHUNK);
    private final byte[] outBytes = new byte[CHUNK];
    private int buffered;

    /** A stream compressing {@code size} bytes by {@code settings} into {@code sink}. */
    ZstdOutputStream(OutputStream sink, Libzstd.Settings settings, long size) {
        this.sink = sink;
        this.zstd = new Libzstd.Compressor(settings, size);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[]{(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            int n = Math.min(len, CHUNK - buffered);
            MemorySegment.copy(b, off, in, ValueLayout.JAVA_BYTE, buffered, n);
            buffered += n;
            off += n;
            len -= n;
            if (buffered == CHUNK) {
                compress(false);
            }
        }
    }

    /** Compresses what is buffered; with {@code end}, ends the frame and flushes it all. */
    private void compress(boolean end) throws IOException {
        long at = 0;
        while (true) {
            long left = zstd.step(in.asSlice(at, buffered - at), out, end);
            at += zstd.consumed();
            int produced = (int) zstd.produced();
            MemorySegment.copy(out, ValueLayout.JAVA_BYTE, 0, outBytes, 0, produced);
            sink.write(outBytes, 0, produced);
            if (at == buffered && (!end || left == 0)) {
                break;
            }
        }
        buffered = 0;
    }

    /** Ends the frame (the sink stays open). */
    void finish() throws IOException {
        compress(true);
    }

    @Override
    public void close() {
        zstd.close();
    }
}
