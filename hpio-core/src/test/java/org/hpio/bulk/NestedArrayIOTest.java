package org.hpio.bulk;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Spec 6: arrays of arrays (ragged double[][], int[][][], and a 2-D array of every type) written and read
 * back as their rows back to back, on streams and on BulkRandomAccessFile (at the pointer and positional);
 * a null row is a NullPointerException and an array of non-primitives an IllegalArgumentException, both
 * before any I/O.
 */
class NestedArrayIOTest {
    @TempDir
    Path dir;

    private static double[][] ragged() {
        Random r = new Random(5);
        return new double[][]{
                (double[]) Prim.DOUBLE.random(r, 3), new double[0], (double[]) Prim.DOUBLE.random(r, 1),
                (double[]) Prim.DOUBLE.random(r, 40_000), (double[]) Prim.DOUBLE.random(r, 7)};
    }

    private static int[][][] cube() {
        Random r = new Random(6);
        int[][][] c = new int[3][][];
        for (int i = 0; i < 3; i++) {
            c[i] = new int[i + 1][];
            for (int j = 0; j <= i; j++) {
                c[i][j] = (int[]) Prim.INT.random(r, 2 * i + j);
            }
        }
        return c;
    }

    /** The rows back to back, depth-first, as raw bits in {@code order}. */
    private static byte[] rowBytes(Object nested, ByteOrder order) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        appendRows(nested, order, bytes);
        return bytes.toByteArray();
    }

    private static void appendRows(Object nested, ByteOrder order, ByteArrayOutputStream bytes) {
        if (nested instanceof Object[] rows) {
            for (Object row : rows) {
                appendRows(row, order, bytes);
            }
        } else {
            Prim p = Prim.of(nested);
            bytes.writeBytes(p.rawBytes(nested, 0, Array.getLength(nested), order));
        }
    }

    /** An array of the same shape, all zeros. */
    private static Object sameShape(Object nested) {
        if (nested instanceof Object[] rows) {
            Object[] copy = (Object[]) Array.newInstance(rows.getClass().getComponentType(), rows.length);
            for (int i = 0; i < rows.length; i++) {
                copy[i] = sameShape(rows[i]);
            }
            return copy;
        }
        return Array.newInstance(nested.getClass().getComponentType(), Array.getLength(nested));
    }

    private static void assertSameRows(Object expected, Object actual) {
        assertArrayEquals(rowBytes(expected, ByteOrder.BIG_ENDIAN), rowBytes(actual, ByteOrder.BIG_ENDIAN));
    }

    @Test
    void raggedDoublesOnStreams() throws IOException {
        double[][] m = ragged();
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            BulkDataOutputStream out = new BulkDataOutputStream(new Chunking(1, 100).out(sink), order);
            out.writeArray(m);
            byte[] expected = rowBytes(m, order);
            assertArrayEquals(expected, sink.toByteArray(), "rows back to back, no shape, in " + order);
            assertEquals(expected.length, out.size());

            BulkDataInputStream in = new BulkDataInputStream(
                    new Chunking(2, 7).in(new ByteArrayInputStream(sink.toByteArray())), order);
            double[][] back = (double[][]) sameShape(m);
            in.readArray(back);
            assertSameRows(m, back);
            assertEquals(-1, in.read());
        }
    }

    @Test
    void raggedDoublesEqualDataOutputStreamRows() throws IOException {
        double[][] m = ragged();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (double[] row : m) {
            expected.writeBytes(Prim.DOUBLE.jdkBytes(Prim.DOUBLE.canonical(row), 0, row.length));
        }
        double[][] canonical = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            canonical[i] = (double[]) Prim.DOUBLE.canonical(m[i]);
        }
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        new BulkDataOutputStream(sink).writeArray(canonical);
        assertArrayEquals(expected.toByteArray(), sink.toByteArray());
    }

    @Test
    void intCubeOnRandomAccessFile() throws IOException {
        int[][][] c = cube();
        byte[] expected = rowBytes(c, ByteOrder.BIG_ENDIAN);
        Path file = dir.resolve("cube");
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw")) {
            f.writeInt(42);
            f.writeArray(c);
            assertEquals(4 + expected.length, f.getFilePointer());
            long end = f.writeArray(4L + expected.length, c);
            assertEquals(4 + 2L * expected.length, end, "the positional form returns the position after the rows");
            assertEquals(4 + expected.length, f.getFilePointer(), "and leaves the pointer alone");
            assertEquals(end, f.length());

            f.seek(0);
            assertEquals(42, f.readInt());
            int[][][] back = (int[][][]) sameShape(c);
            f.readArray(back);
            assertEquals(4 + expected.length, f.getFilePointer());
            assertSameRows(c, back);
            int[][][] back2 = (int[][][]) sameShape(c);
            f.seek(1);
            assertEquals(end, f.readArray(4L + expected.length, back2));
            assertEquals(1, f.getFilePointer());
            assertSameRows(c, back2);
        }
        byte[] contents = Files.readAllBytes(file);
        assertArrayEquals(StreamRoundTripPropertyTest.concat(new byte[]{0, 0, 0, 42},
                StreamRoundTripPropertyTest.concat(expected, expected)), contents);
    }

    @ParameterizedTest
    @EnumSource(Prim.class)
    void twoDimensionalArraysOfEveryType(Prim p) throws IOException {
        Random r = new Random(p.ordinal());
        Object[] m = (Object[]) Array.newInstance(p.newArray(0).getClass(), 4);
        for (int i = 0; i < m.length; i++) {
            m[i] = p.random(r, 3 * i + 1);
        }
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            Path file = dir.resolve(p + "-" + order);
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw", order)) {
                f.writeArray(m);
                Object[] back = (Object[]) sameShape(m);
                f.seek(0);
                f.readArray(back);
                assertSameRows(m, back);
            }
            assertArrayEquals(rowBytes(m, order), Files.readAllBytes(file));
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            new BulkDataOutputStream(sink, order).writeArray(m);
            assertArrayEquals(rowBytes(m, order), sink.toByteArray());
        }
    }

    @Test
    void nullRowIsRejectedBeforeAnyIo() throws IOException {
        double[][] withNull = {{1, 2}, {3}, null, {4}};
        int[][][] deepNull = {{{1}}, {{2}, null}};

        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BulkDataOutputStream out = new BulkDataOutputStream(sink);
        assertThrows(NullPointerException.class, () -> out.writeArray(withNull));
        assertThrows(NullPointerException.class, () -> out.writeArray(deepNull));
        assertEquals(0, out.size());
        assertEquals(0, sink.size(), "not even the rows before the null one were written");

        byte[] source = new byte[64];
        ByteArrayInputStream bytes = new ByteArrayInputStream(source);
        BulkDataInputStream in = new BulkDataInputStream(bytes);
        double[][] target = {{7, 7}, {7}, null, {7}};
        assertThrows(NullPointerException.class, () -> in.readArray(target));
        assertEquals(64, bytes.available(), "nothing was read");
        assertArrayEquals(new double[]{7, 7}, target[0], "the rows before the null one are unchanged");

        Path file = dir.resolve("null-row");
        Files.write(file, source);
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw")) {
            f.seek(8);
            assertThrows(NullPointerException.class, () -> f.writeArray(withNull));
            assertThrows(NullPointerException.class, () -> f.writeArray(0L, withNull));
            assertThrows(NullPointerException.class, () -> f.readArray(target));
            assertThrows(NullPointerException.class, () -> f.readArray(0L, deepNull));
            assertEquals(8, f.getFilePointer());
            assertEquals(64, f.length());
        }
        assertArrayEquals(source, Files.readAllBytes(file), "the file is unchanged");
        assertArrayEquals(new double[]{7, 7}, target[0]);
    }

    @Test
    void arraysOfNonPrimitivesAreRejected() throws IOException {
        Object[] strings = {"a", "b"};
        String[] typedStrings = {"a"};
        Object[] objectsHoldingInts = {new int[]{1}};
        Integer[][] boxed = {{1}};
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BulkDataOutputStream out = new BulkDataOutputStream(sink);
        BulkDataInputStream in = new BulkDataInputStream(new ByteArrayInputStream(new byte[16]));
        for (Object[] bad : new Object[][]{strings, typedStrings, objectsHoldingInts, boxed}) {
            assertThrows(IllegalArgumentException.class, () -> out.writeArray(bad), bad.getClass().getTypeName());
            assertThrows(IllegalArgumentException.class, () -> in.readArray(bad), bad.getClass().getTypeName());
        }
        assertEquals(0, sink.size());
        assertEquals(16, in.available());
        Path file = dir.resolve("strings");
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw")) {
            assertThrows(IllegalArgumentException.class, () -> f.writeArray(strings));
            assertThrows(IllegalArgumentException.class, () -> f.writeArray(0L, strings));
            assertThrows(IllegalArgumentException.class, () -> f.readArray(strings));
            assertThrows(IllegalArgumentException.class, () -> f.readArray(0L, typedStrings));
            assertEquals(0, f.length());
            assertEquals(0, f.getFilePointer());
        }
    }

    @Test
    void nestedReadPastTheEndChangesNothing() throws IOException {
        Path file = dir.resolve("short");
        Files.write(file, new byte[20]);
        int[][] rows = {{9, 9, 9}, {9, 9, 9}}; // 24 bytes: the first row would fit, the second not
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "r")) {
            assertThrows(EOFException.class, () -> f.readArray(rows));
            assertEquals(0, f.getFilePointer());
            assertThrows(EOFException.class, () -> f.readArray(0L, rows));
            assertArrayEquals(new int[]{9, 9, 9}, rows[0], "not even the first row was read");
        }
        BulkDataInputStream in = new BulkDataInputStream(new ByteArrayInputStream(new byte[20]));
        EOFException e = assertThrows(EOFException.class, () -> in.readArray(rows));
        assertTrue(e.getMessage().contains("2 of 3"), e.getMessage());
    }

    @Test
    void emptyNestedArraysAreNoOps() throws IOException {
        Path file = dir.resolve("empty");
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw")) {
            f.writeArray(new double[0][]);
            f.writeArray(new int[][]{{}, {}});
            assertEquals(0, f.getFilePointer());
            assertEquals(0, f.length());
            f.seek(100);
            f.readArray(new long[][]{{}});
            assertEquals(100, f.readArray(100L, new long[][]{{}, {}}));
            assertEquals(100, f.getFilePointer());
        }
    }

    private static void assertTrue(boolean condition, String message) {
        Assertions.assertTrue(condition, message);
    }
}
