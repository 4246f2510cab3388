package org.hpio.bulk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Spec 3: a header written with writeInt and read with readInt, then whole arrays; single-value and array
 * calls mixed freely, on the streams (size() counts array bytes; the input stream reads nothing ahead) and on
 * BulkRandomAccessFile (getFilePointer, seek and length right after array calls).
 */
class InterleavingTest {
    @TempDir
    Path dir;

    private final double[] values = (double[]) Prim.DOUBLE.random(new Random(1), 777);
    private final int[] ints = (int[]) Prim.INT.random(new Random(2), 50);

    /** The file format of the package documentation, written by the JDK field by field. */
    private byte[] jdkFormat() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(values.length);
        for (double v : values) {
            out.writeDouble(v);
        }
        out.writeLong(-5L);
        for (int i = 10; i < 40; i++) {
            out.writeInt(ints[i]);
        }
        out.writeUTF("tail");
        out.writeBoolean(true);
        return bytes.toByteArray();
    }

    private static double[] canonical(double[] v) {
        return (double[]) Prim.DOUBLE.canonical(v);
    }

    @Test
    void streamHeaderThenArraysMatchesDataOutputStream() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BulkDataOutputStream out = new BulkDataOutputStream(sink);
        out.writeInt(values.length);
        assertEquals(4, out.size());
        out.writeArray(canonical(values));
        assertEquals(4 + 8L * values.length, out.size(), "size() counts the array's bytes");
        out.writeLong(-5L);
        out.writeArray(ints, 10, 30);
        assertEquals(4 + 8L * values.length + 8 + 4 * 30, out.size());
        out.writeUTF("tail");
        out.writeBoolean(true);
        byte[] jdk = jdkFormat();
        assertEquals(jdk.length, out.size());
        assertArrayEquals(jdk, sink.toByteArray());

        // Read back with a stream that hands out a few bytes at a time.
        BulkDataInputStream in = new BulkDataInputStream(new Chunking(9, 3).in(new ByteArrayInputStream(jdk)));
        double[] back = new double[in.readInt()];
        in.readArray(back);
        Prim.assertBits(canonical(values), back, "values");
        assertEquals(-5L, in.readLong());
        int[] window = new int[40];
        in.readArray(window, 10, 30);
        Prim.assertBits(ints, 10, window, 10, 30, "ints");
        assertEquals("tail", in.readUTF());
        assertEquals(true, in.readBoolean());
        assertEquals(-1, in.read());
    }

    @Test
    void inputStreamReadsNothingAhead() throws IOException {
        byte[] jdk = jdkFormat();
        ByteArrayInputStream source = new ByteArrayInputStream(jdk);
        BulkDataInputStream in = new BulkDataInputStream(source);
        double[] back = new double[in.readInt()];
        in.readArray(back);
        assertEquals(jdk.length - 4 - 8 * values.length, source.available(), "bytes left in the source");
        // Another reader can take over the rest of the stream.
        DataInputStream rest = new DataInputStream(source);
        assertEquals(-5L, rest.readLong());
    }

    @Test
    void fileHeaderThenArraysKeepsPointerAndLengthRight() throws IOException {
        Path file = dir.resolve("mixed.bin");
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw")) {
            f.writeInt(values.length);
            assertEquals(4, f.getFilePointer());
            f.writeArray(canonical(values));
            assertEquals(4 + 8L * values.length, f.getFilePointer());
            assertEquals(4 + 8L * values.length, f.length());
            f.writeLong(-5L);
            f.writeArray(ints, 10, 30);
            long afterInts = 4 + 8L * values.length + 8 + 4 * 30;
            assertEquals(afterInts, f.getFilePointer());
            assertEquals(afterInts, f.length());
            f.writeUTF("tail");
            f.writeBoolean(true);
            assertEquals(f.length(), f.getFilePointer());
        }
        assertArrayEquals(jdkFormat(), Files.readAllBytes(file));

        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw")) {
            double[] back = new double[f.readInt()];
            f.readArray(back);
            assertEquals(4 + 8L * back.length, f.getFilePointer());
            Prim.assertBits(canonical(values), back, "values");
            assertEquals(-5L, f.readLong());
            int[] window = new int[30];
            f.readArray(window);
            Prim.assertBits(ints, 10, window, 0, 30, "ints");
            assertEquals("tail", f.readUTF());
            assertEquals(true, f.readBoolean());
            assertEquals(-1, f.read());

            // seek back into the array, overwrite a few elements in place: the length does not change.
            long length = f.length();
            f.seek(4 + 8 * 100);
            f.writeArray(new double[]{1.5, 2.5, 3.5});
            assertEquals(4 + 8 * 103, f.getFilePointer());
            assertEquals(length, f.length());
            f.seek(4 + 8 * 99);
            double[] four = new double[4];
            f.readArray(four);
            assertArrayEquals(new double[]{canonical(values)[99], 1.5, 2.5, 3.5}, four);
            assertEquals(4 + 8 * 103, f.getFilePointer());
            assertEquals(Double.doubleToRawLongBits(canonical(values)[103]), Double.doubleToRawLongBits(f.readDouble()));
        }
    }

    @Test
    void writesThroughTheFileAreSeenByPlainRandomAccessFileAndBack() throws IOException {
        Path file = dir.resolve("shared.bin");
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw")) {
            f.writeArray(new short[]{1, 2, 3});
            f.writeShort(4);
            f.writeArray(new char[]{'a', 'b'});
            assertEquals(12, f.length());
        }
        try (RandomAccessFile plain = new RandomAccessFile(file.toFile(), "rw")) {
            assertEquals(1, plain.readShort());
            assertEquals(2, plain.readShort());
            assertEquals(3, plain.readShort());
            assertEquals(4, plain.readShort());
            assertEquals('a', plain.readChar());
            assertEquals('b', plain.readChar());
            plain.writeFloat(1.25f);
        }
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "r")) {
            short[] s = new short[4];
            f.readArray(s);
            assertArrayEquals(new short[]{1, 2, 3, 4}, s);
            char[] c = new char[2];
            f.readArray(c);
            assertArrayEquals(new char[]{'a', 'b'}, c);
            float[] fl = new float[1];
            f.readArray(fl);
            assertArrayEquals(new float[]{1.25f}, fl);
            assertEquals(f.length(), f.getFilePointer());
            assertThrows(EOFException.class, f::readByte);
        }
    }
}
