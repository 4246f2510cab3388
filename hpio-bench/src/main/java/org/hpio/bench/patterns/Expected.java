package org.hpio.bench.patterns;

import org.hpio.bench.data.Elements;
import org.hpio.bench.data.FileChecksum;
import org.hpio.bench.data.TestData;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * What a point's run must produce, computed from the {@link Source} outside the clock and kept per operation
 * set (every way of a point does the same operations): a read's {@link Fold} checksum, or for a write, the
 * {@link FileChecksum} of the whole file, which started as zeros (a fresh sparse file) and must hold the
 * source's bytes exactly where operations wrote.
 */
final class Expected {
    private final Source source;
    private final Map<String, Long> memo = new HashMap<>();

    Expected(Source source) {
        this.source = source;
    }

    /** Throws unless {@code actual} is the checksum of what {@code p}'s reads must have read. */
    void checkRead(String config, Point p, long actual) throws IOException {
        long expected = memo.computeIfAbsent(key("read", p), k -> readSum(p));
        if (actual != expected) {
            throw new IOException(config + " read wrong data (" + p.access().key() + ", op " + p.opSize() + " B, buffer "
                    + p.bufferSize() + " B, " + p.ops() + " ops): checksum " + Long.toHexString(actual) + ", expected "
                    + Long.toHexString(expected));
        }
    }

    /** Throws unless {@code file} holds the source's bytes where {@code p}'s writes went, and zeros elsewhere. */
    void checkWrite(String config, Point p, Path file) throws IOException {
        long expected = memo.computeIfAbsent(key("write", p), k -> writeSum(p));
        FileChecksum.verify(config + " (" + p.access().key() + ", op " + p.opSize() + " B, buffer " + p.bufferSize()
                + " B, " + p.ops() + " ops)", file, Elements.LONG, ByteOrder.BIG_ENDIAN, 0, p.fileSize() / Long.BYTES,
                expected);
    }

    private static String key(String kind, Point p) {
        return kind + "/" + p.access() + "/" + p.opSize() + "/" + p.ops() + "/" + p.fileSize();
    }

    private long readSum(Point p) {
        long sum = 0;
        for (long k = 0; k < p.ops(); k++) {
            long pos = p.position(k);
            sum += Fold.bytes(source.bytes, (int) pos, p.opSize(), pos);
        }
        return sum;
    }

    /** The long-wise checksum of a zero file with the source's bytes written at every operation's range. */
    private long writeSum(Point p) {
        BitSet written = new BitSet();
        for (long k = 0; k < p.ops(); k++) {
            long pos = p.position(k);
            written.set((int) pos, (int) pos + p.opSize());
        }
        long sum = 0;
        for (int b = written.nextSetBit(0); b >= 0; b = written.nextSetBit((b | 7) + 1)) {
            int first = b & ~7;
            long value = 0;
            for (int i = 0; i < Long.BYTES; i++) {
                value = value << 8 | (written.get(first + i) ? source.bytes[first + i] & 0xff : 0);
            }
            sum += TestData.term(first / Long.BYTES, value);
        }
        return sum;
    }
}
