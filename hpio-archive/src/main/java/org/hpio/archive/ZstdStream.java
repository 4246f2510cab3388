package org.hpio.archive;

import org.hpio.internal.sys.Libzstd;

import java.lang.foreign.MemorySegment;

/** A Zstandard frame decoded piece by piece by libzstd ({@link Libzstd.Decompressor}). */
final class ZstdStream extends NativeStream {
    private final Libzstd.Decompressor zstd = new Libzstd.Decompressor();

    @Override
    public String method() {
        return "Zstandard";
    }

    @Override
    String step(MemorySegment in, MemorySegment out) {
        return zstd.step(in, out);
    }

    @Override
    long consumed() {
        return zstd.consumed();
    }

    @Override
    long produced() {
        return zstd.produced();
    }

    @Override
    boolean ended() {
        return zstd.frameEnded();
    }

    @Override
    public void close() {
        zstd.close();
    }
}
