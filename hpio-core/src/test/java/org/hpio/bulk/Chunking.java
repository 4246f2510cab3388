package org.hpio.bulk;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.Random;

/**
 * How an underlying stream is cut up: every read returns, and every write forwards, a random number of bytes
 * between 1 and {@code maxChunk} (1 means one byte per call). Deterministic for a seed.
 */
record Chunking(long seed, int maxChunk) {
    Chunking {
        if (maxChunk < 1) {
            throw new IllegalArgumentException("maxChunk " + maxChunk);
        }
    }

    InputStream in(InputStream in) {
        return new ChunkedInputStream(in, new Random(seed), maxChunk);
    }

    OutputStream out(OutputStream out) {
        return new ChunkedOutputStream(out, new Random(~seed), maxChunk);
    }

    /** An InputStream that returns short reads: 1 .. maxChunk bytes at a time. */
    static final class ChunkedInputStream extends InputStream {
        private final InputStream in;
        private final Random random;
        private final int maxChunk;
        int reads;

        ChunkedInputStream(InputStream in, Random random, int maxChunk) {
            this.in = in;
            this.random = random;
            this.maxChunk = maxChunk;
        }

        @Override
        public int read() throws IOException {
            reads++;
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            reads++;
            int n = 1 + random.nextInt(Math.min(len, maxChunk));
            return in.read(b, off, n);
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** An OutputStream that forwards every write in pieces of 1 .. maxChunk bytes. */
    static final class ChunkedOutputStream extends OutputStream {
        private final OutputStream out;
        private final Random random;
        private final int maxChunk;

        ChunkedOutputStream(OutputStream out, Random random, int maxChunk) {
            this.out = out;
            this.random = random;
            this.maxChunk = maxChunk;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            while (len > 0) {
                int n = 1 + random.nextInt(Math.min(len, maxChunk));
                out.write(b, off, n);
                off += n;
                len -= n;
            }
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
