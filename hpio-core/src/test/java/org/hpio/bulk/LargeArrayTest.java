package org.hpio.bulk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Spec 8: arrays far larger than every internal chunk (file staging 256 KiB, stream staging 128 KiB, critical
 * heap transfers 1 MiB), with odd element counts, unaligned array offsets and unaligned file positions, in both
 * orders, for every type: the bytes are exactly the reference bytes and come back bit for bit.
 */
class LargeArrayTest {
    static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    /** About 2.5 MiB of elements, odd count, so that no chunk boundary falls on the end. */
    private static int elements(Prim p) {
        return (5 * MIB / 2) / p.size + 3;
    }

    @ParameterizedTest
    @EnumSource(Prim.class)
    void largeArraysThroughTheFile(Prim p) throws IOException {
        int n = elements(p);
        Object a = p.random(new Random(p.ordinal() + 100), n);
        int offset = 3;
        int count = n - 5;
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            byte[] expected = p.rawBytes(a, offset, count, order);
            Path file = dir.resolve(p + "-" + order);
            long at = 5; // unaligned file position
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw", order)) {
                f.seek(at);
                p.write(f, a, offset, count);
                assertEquals(at + expected.length, f.getFilePointer());
                p.writeAt(f, at + expected.length, a, offset, count);
                assertEquals(at + expected.length, f.getFilePointer());

                Object back = p.newArray(n);
                f.seek(at);
                p.read(f, back, offset, count);
                assertEquals(at + expected.length, f.getFilePointer());
                Prim.assertBits(a, offset, back, offset, count, p + " " + order + " at the pointer");
                Object back2 = p.newArray(n + 1);
                p.readAt(f, at + expected.length, back2, offset + 1, count);
                Prim.assertBits(a, offset, back2, offset + 1, count, p + " " + order + " positional");
            }
            byte[] contents = Files.readAllBytes(file);
            assertEquals(at + 2L * expected.length, contents.length);
            assertArrayEquals(expected, Arrays.copyOfRange(contents, (int) at, (int) at + expected.length),
                    p + " " + order + " bytes at the pointer");
            assertArrayEquals(expected, Arrays.copyOfRange(contents, (int) at + expected.length, contents.length),
                    p + " " + order + " positional bytes");
        }
    }

    @ParameterizedTest
    @EnumSource(Prim.class)
    void largeArraysThroughStreams(Prim p) throws IOException {
        int n = elements(p);
        Object a = p.random(new Random(p.ordinal() + 200), n);
        int offset = 1;
        int count = n - 2;
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            byte[] expected = p.rawBytes(a, offset, count, order);
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            BulkDataOutputStream out = new BulkDataOutputStream(new Chunking(p.ordinal(), 50_000).out(sink), order);
            out.writeByte(0x42); // an odd start
            p.write(out, a, offset, count);
            assertEquals(1L + expected.length, out.size());
            byte[] written = sink.toByteArray();
            assertEquals(0x42, written[0]);
            assertArrayEquals(expected, Arrays.copyOfRange(written, 1, written.length), p + " " + order);

            BulkDataInputStream in = new BulkDataInputStream(
                    new Chunking(p.ordinal(), 70_000).in(new ByteArrayInputStream(written)), order);
            assertEquals(0x42, in.readByte());
            Object back = p.newArray(n);
            p.read(in, back, offset, count);
            Prim.assertBits(a, offset, back, offset, count, p + " " + order + " stream");
            assertEquals(-1, in.read());
        }
    }

    /** A few MiB of longs, DataOutputStream's bytes, read with one byte per read() of the underlying stream. */
    @Test
    void megabytesOfLongsOneByteAtATime() throws IOException {
        int n = 3 * MIB / 8 + 1;
        long[] a = (long[]) Prim.LONG.random(new Random(7), n);
        byte[] jdk = Prim.LONG.jdkBytes(a, 0, n);

        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BulkDataOutputStream out = new BulkDataOutputStream(new Chunking(1, 1).out(sink));
        out.writeArray(a);
        assertArrayEquals(jdk, sink.toByteArray());

        long[] back = new long[n + 2];
        BulkDataInputStream in = new BulkDataInputStream(new Chunking(2, 1).in(new ByteArrayInputStream(jdk)));
        in.readArray(back, 2, n);
        Prim.assertBits(a, 0, back, 2, n, "longs");
        assertEquals(0, back[0]);
        assertEquals(0, back[1]);

        Path file = dir.resolve("longs");
        Files.write(file, jdk);
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "r")) {
            long[] fromFile = new long[n];
            f.readArray(fromFile);
            assertArrayEquals(a, fromFile);
            long[] tail = new long[1000];
            f.readArray(8L * (n - 1000), tail);
            assertArrayEquals(Arrays.copyOfRange(a, n - 1000, n), tail);
        }
    }

    /** Many calls in a row on one stream reuse its staging buffer across types and sizes. */
    @Test
    void stagingReuseAcrossTypesAndSizes() throws IOException {
        Random r = new Random(8);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BulkDataOutputStream out = new BulkDataOutputStream(sink);
        Object[] written = new Object[40];
        for (int i = 0; i < written.length; i++) {
            Prim p = Prim.values()[r.nextInt(8)];
            int n = r.nextInt(4) == 0 ? 100_000 + r.nextInt(100_000) : r.nextInt(5000);
            written[i] = p.random(r, n);
            p.write(out, written[i]);
        }
        BulkDataInputStream in = new BulkDataInputStream(new Chunking(3, 9000).in(new ByteArrayInputStream(sink.toByteArray())));
        for (Object w : written) {
            Prim p = Prim.of(w);
            Object back = p.newArray(Prim.length(w));
            p.read(in, back);
            Prim.assertBits(w, back, "call reading " + p);
        }
        assertEquals(-1, in.read());
    }
}
