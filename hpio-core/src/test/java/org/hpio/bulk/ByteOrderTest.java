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
import java.util.HexFormat;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Spec 2: the native-order objects write each element's little-endian bytes (on the little-endian machines
 * hpio runs on) and round-trip; LITTLE_ENDIAN and BIG_ENDIAN chosen explicitly work for every type, on streams
 * and files alike, and bytes written by one class in an order are read by the other in that order. The
 * single-value methods stay big-endian whatever the array order.
 */
class ByteOrderTest {
    @TempDir
    Path dir;

    private static Object data(Prim p) {
        // An odd count, several staging chunks for none of them: the order is what is checked here.
        return p.random(new Random(p.ordinal() * 31L + 7), 1001);
    }

    private static byte[] reference(Prim p, Object a, int off, int n, ByteOrder order) {
        // Independent of Prim.rawBytes' use in other tests: ByteBuffer puts, in the order asked.
        return p.rawBytes(a, off, n, order);
    }

    @ParameterizedTest
    @EnumSource(Prim.class)
    void nativeOrderStreamWritesLittleEndianBytes(Prim p) throws IOException {
        assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN, "a little-endian machine");
        Object a = data(p);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BulkDataOutputStream out = new BulkDataOutputStream(sink, ByteOrder.nativeOrder());
        p.write(out, a, 3, 990);
        assertArrayEquals(reference(p, a, 3, 990, ByteOrder.LITTLE_ENDIAN), sink.toByteArray());

        BulkDataInputStream in = new BulkDataInputStream(new ByteArrayInputStream(sink.toByteArray()),
                ByteOrder.nativeOrder());
        Object back = p.newArray(1001);
        p.read(in, back, 3, 990);
        Prim.assertBits(a, 3, back, 3, 990, "native-order stream round trip");
    }

    @ParameterizedTest
    @EnumSource(Prim.class)
    void nativeOrderFileWritesLittleEndianBytes(Prim p) throws IOException {
        assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN, "a little-endian machine");
        Object a = data(p);
        Path file = dir.resolve("native-" + p);
        long half = 990L * p.size;
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw", ByteOrder.nativeOrder())) {
            assertEquals(ByteOrder.nativeOrder(), f.arrayOrder());
            p.write(f, a, 5, 990);
            p.writeAt(f, half, a, 5, 990);
            assertEquals(half, f.getFilePointer());
        }
        byte[] le = reference(p, a, 5, 990, ByteOrder.LITTLE_ENDIAN);
        assertArrayEquals(StreamRoundTripPropertyTest.concat(le, le), Files.readAllBytes(file));

        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "r", ByteOrder.nativeOrder())) {
            Object back = p.newArray(1001);
            p.read(f, back, 5, 990);
            Prim.assertBits(a, 5, back, 5, 990, "native-order file at the pointer");
            Object back2 = p.newArray(1001);
            p.readAt(f, half, back2, 5, 990);
            Prim.assertBits(a, 5, back2, 5, 990, "native-order file positional");
        }
    }

    /** Every type, each explicit order, on both classes; files written by streams and the other way round. */
    @ParameterizedTest
    @EnumSource(Prim.class)
    void explicitOrdersWorkOnEveryType(Prim p) throws IOException {
        Object a = data(p);
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            byte[] expected = reference(p, a, 1, 999, order);

            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            p.write(new BulkDataOutputStream(sink, order), a, 1, 999);
            assertArrayEquals(expected, sink.toByteArray(), p + " stream in " + order);

            Path file = dir.resolve(p + "-" + order);
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(file.toString(), "rw", order)) {
                p.write(f, a, 1, 999);
            }
            assertArrayEquals(expected, Files.readAllBytes(file), p + " file in " + order);

            // Stream bytes read by the file class, file bytes read by the stream class.
            Path fromStream = dir.resolve(p + "-" + order + "-stream");
            Files.write(fromStream, sink.toByteArray());
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(fromStream, "r", order)) {
                Object back = p.newArray(999);
                p.read(f, back);
                Prim.assertBits(a, 1, back, 0, 999, p + " file reading stream bytes in " + order);
            }
            Object back = p.newArray(999);
            p.read(new BulkDataInputStream(new ByteArrayInputStream(Files.readAllBytes(file)), order), back);
            Prim.assertBits(a, 1, back, 0, 999, p + " stream reading file bytes in " + order);
        }
    }

    /** The two orders really differ for multi-byte types: each element's bytes are reversed. */
    @ParameterizedTest
    @EnumSource(value = Prim.class, names = {"CHAR", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE"})
    void littleEndianIsEachElementReversed(Prim p) throws IOException {
        Object a = data(p);
        ByteArrayOutputStream big = new ByteArrayOutputStream();
        ByteArrayOutputStream little = new ByteArrayOutputStream();
        p.write(new BulkDataOutputStream(big, ByteOrder.BIG_ENDIAN), a);
        p.write(new BulkDataOutputStream(little, ByteOrder.LITTLE_ENDIAN), a);
        byte[] b = big.toByteArray();
        byte[] l = little.toByteArray();
        assertEquals(b.length, l.length);
        for (int i = 0; i < b.length; i += p.size) {
            for (int k = 0; k < p.size; k++) {
                assertEquals(b[i + k], l[i + p.size - 1 - k], "element " + i / p.size + " byte " + k);
            }
        }
    }

    @Test
    void singleValueMethodsStayBigEndianWhateverTheArrayOrder() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BulkDataOutputStream out = new BulkDataOutputStream(sink, ByteOrder.LITTLE_ENDIAN);
        out.writeInt(0x01020304);
        out.writeArray(new int[]{0x01020304});
        out.writeShort(0x0506);
        assertEquals("01020304" + "04030201" + "0506", HexFormat.of().formatHex(sink.toByteArray()));

        BulkDataInputStream in = new BulkDataInputStream(new ByteArrayInputStream(sink.toByteArray()),
                ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x01020304, in.readInt());
        int[] one = new int[1];
        in.readArray(one);
        assertEquals(0x01020304, one[0]);
        assertEquals(0x0506, in.readShort());

        Path file = dir.resolve("single");
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw", ByteOrder.LITTLE_ENDIAN)) {
            f.writeInt(0x01020304);
            f.writeArray(new int[]{0x01020304});
            f.seek(0);
            assertEquals(0x01020304, f.readInt());
            assertEquals(0x04030201, f.readInt());
        }
        assertEquals("0102030404030201", HexFormat.of().formatHex(Files.readAllBytes(file)));
    }

    @Test
    void defaultOrderIsBigEndian() throws IOException {
        assertEquals(ByteOrder.BIG_ENDIAN, new BulkDataOutputStream(new ByteArrayOutputStream()).arrayOrder());
        assertEquals(ByteOrder.BIG_ENDIAN, new BulkDataInputStream(new ByteArrayInputStream(new byte[0])).arrayOrder());
        Path file = dir.resolve("default");
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file.toFile(), "rw")) {
            assertEquals(ByteOrder.BIG_ENDIAN, f.arrayOrder());
            f.writeArray(new long[]{0x0102030405060708L});
        }
        assertEquals("0102030405060708", HexFormat.of().formatHex(Files.readAllBytes(file)));
        assertEquals(Arrays.toString(new long[]{0x0102030405060708L}), Arrays.toString(readLongs(file, 1)));
    }

    private static long[] readLongs(Path file, int n) throws IOException {
        long[] out = new long[n];
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "r")) {
            f.readArray(out);
        }
        return out;
    }
}
