package org.hpio.archive;

import org.hpio.internal.sys.Libbz2;

import java.lang.foreign.MemorySegment;

/** A bzip2 stream (Zip method 12) decoded piece by piece by libbz2 ({@link Libbz2.Decompressor}). */
final class Bzip2Stream extends NativeStream {
    private final Libbz2.Decompressor bzip2 = new Libbz2.Decompressor();

    @Override
    public String method() {
        return "bzip2";
    }

    @Override
    String step(MemorySegment in, MemorySegment out) {
        return bzip2.step(in, out);
    }

    @Override
    long consumed() {
        return bzip2.consumed();
    }

    @Override
    long produced() {
        return bzip2.produced();
    }

    @Override
    boolean ended() {
        return bzip2.streamEnded();
    }

    @Override
    public void close() {
        bzip2.close();
    }
}
