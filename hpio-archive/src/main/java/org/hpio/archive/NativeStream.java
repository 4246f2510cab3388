package org.hpio.archive;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;

/**
 * A compressed stream decoded piece by piece by a native library ({@link ZstdStream}, {@link Bzip2Stream}).
 * Direct buffers are handed to the library in place; heap ones go through a staging buffer of {@value #STAGE}
 * bytes each way (automatic memory: a stream may move between threads).
 */
abstract class NativeStream implements StreamDecompressor {
    private static final int STAGE = 1 << 16;

    private MemorySegment stagedIn;
    private MemorySegment stagedOut;
    private ByteBuffer input = ByteBuffer.allocate(0);
    private boolean finished;

    /** One library call from {@code in} into {@code out} (both off-heap); null, or the library's error. */
    abstract String step(MemorySegment in, MemorySegment out);

    /** Input bytes the last step took. */
    abstract long consumed();

    /** Output bytes the last step wrote. */
    abstract long produced();

    /** Whether the stream has ended (and all its bytes have been written out). */
    abstract boolean ended();

    @Override
    public void setInput(ByteBuffer input) {
        this.input = input;
    }

    @Override
    public int decompress(ByteBuffer out) throws DataFormatException {
        if (finished || !out.hasRemaining()) {
            return 0;
        }
        MemorySegment in = input.isDirect() ? MemorySegment.ofBuffer(input) : staged(input);
        MemorySegment to = out.isDirect() ? MemorySegment.ofBuffer(out)
                : staging(false).asSlice(0, Math.min(out.remaining(), STAGE));
        String error = step(in, to);
        if (error != null) {
            throw new DataFormatException(error);
        }
        int produced = (int) produced();
        if (!out.isDirect()) {
            MemorySegment.ofBuffer(out).copyFrom(to.asSlice(0, produced));
        }
        input.position(input.position() + (int) consumed());
        out.position(out.position() + produced);
        finished = ended();
        return produced;
    }

    /** {@code buffer}'s remaining bytes (at most {@value #STAGE}) copied off-heap. */
    private MemorySegment staged(ByteBuffer buffer) {
        int n = Math.min(buffer.remaining(), STAGE);
        MemorySegment s = staging(true).asSlice(0, n);
        s.copyFrom(MemorySegment.ofBuffer(buffer).asSlice(0, n));
        return s;
    }

    private MemorySegment staging(boolean in) {
        if (in && stagedIn == null) {
            stagedIn = Arena.ofAuto().allocate(STAGE);
        } else if (!in && stagedOut == null) {
            stagedOut = Arena.ofAuto().allocate(STAGE);
        }
        return in ? stagedIn : stagedOut;
    }

    @Override
    public boolean finished() {
        return finished;
    }

    @Override
    public boolean needsInput() {
        return !finished && !input.hasRemaining();
    }

    @Override
    public boolean needsDictionary() {
        return false;
    }

    @Override
    public int remaining() {
        return input.remaining();
    }
}
