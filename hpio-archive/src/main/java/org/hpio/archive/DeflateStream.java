package org.hpio.archive;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/** A raw Deflate stream decoded piece by piece by {@code java.util.zip.Inflater}. */
final class DeflateStream implements StreamDecompressor {
    private final Inflater inflater = new Inflater(true);

    @Override
    public String method() {
        return "Deflate";
    }

    @Override
    public void setInput(ByteBuffer input) {
        inflater.setInput(input);
    }

    @Override
    public int decompress(ByteBuffer out) throws DataFormatException {
        return inflater.inflate(out);
    }

    @Override
    public boolean finished() {
        return inflater.finished();
    }

    @Override
    public boolean needsInput() {
        return inflater.needsInput();
    }

    @Override
    public boolean needsDictionary() {
        return inflater.needsDictionary();
    }

    @Override
    public int remaining() {
        return inflater.getRemaining();
    }

    @Override
    public void close() {
        inflater.end();
    }
}
