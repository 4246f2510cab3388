package org.hpio.bulk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.EOFException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Spec 5: 64-bit offsets. A sparse file of 5 GiB (RandomAccessFile.setLength) with arrays written and read at
 * positions past 4 GiB (and across the 4 GiB mark), through seek + readArray/writeArray and the positional
 * forms, in both orders; checked against plain RandomAccessFile reads. The file is deleted afterwards.
 */
class LargeOffsetTest {
    static final long GIB = 1L << 30;
    static final long SIZE = 5 * GIB;

    @TempDir
    Path dir;

    @Test
    void arraysPastFourGibibytes() throws IOException {
        Path path = dir.resolve("sparse.bin");
        try {
            try (RandomAccessFile plain = new RandomAccessFile(path.toFile(), "rw")) {
                plain.setLength(SIZE);
            }
            long[] longs = (long[]) Prim.LONG.random(new Random(1), 70_001);
            double[] doubles = (double[]) Prim.DOUBLE.random(new Random(2), 1_001);
            int[] ints = (int[]) Prim.INT.random(new Random(3), 50_000);
            long atPointer = 4 * GIB + (1L << 20) + 13; // past 4 GiB, unaligned
            long straddling = 4 * GIB - 4 * 1_000;  // [4 GiB - 4000, 4 GiB + 196000): crosses 2^32
            long positional = 4 * GIB + 3 * (1L << 20) + 1;
            long nearEnd = SIZE - 8L * doubles.length; // the last bytes of the file

            try (BulkRandomAccessFile f = new BulkRandomAccessFile(path, "rw")) {
                assertEquals(SIZE, f.length());
                f.seek(atPointer);
                f.writeArray(longs, 1, 70_000);
                assertEquals(atPointer + 8L * 70_000, f.getFilePointer());
                f.seek(straddling);
                f.writeArray(ints);
                assertEquals(straddling + 4L * ints.length, f.getFilePointer());
                f.seek(17);
                f.writeArray(positional, longs, 0, 1_000);
                f.writeArray(nearEnd, doubles);
                assertEquals(17, f.getFilePointer());
                assertEquals(SIZE, f.length(), "nothing was written past the end");

                // Read back through both forms.
                long[] back = new long[70_001];
                f.seek(atPointer);
                f.readArray(back, 1, 70_000);
                assertEquals(atPointer + 8L * 70_000, f.getFilePointer());
                Prim.assertBits(longs, 1, back, 1, 70_000, "seek + readArray past 4 GiB");
                long[] back2 = new long[70_000];
                f.readArray(atPointer, back2);
                Prim.assertBits(longs, 1, back2, 0, 70_000, "positional readArray past 4 GiB");
                int[] ints2 = new int[ints.length];
                f.readArray(straddling, ints2);
                assertArrayEquals(ints, ints2, "across the 4 GiB mark");
                f.seek(straddling);
                int[] ints3 = new int[ints.length];
                f.readArray(ints3);
                assertArrayEquals(ints, ints3, "across the 4 GiB mark at the pointer");
                double[] doubles2 = new double[doubles.length];
                f.seek(nearEnd);
                f.readArray(doubles2);
                assertEquals(SIZE, f.getFilePointer());
                Prim.assertBits(doubles, doubles2, "the last bytes");

                // One element more than remains: EOFException, nothing changed.
                double[] tooMany = new double[doubles.length + 1];
                assertThrows(EOFException.class, () -> f.readArray(nearEnd, tooMany));
                assertEquals(0, Double.doubleToRawLongBits(tooMany[0]));

                // The hole between stays zeros.
                long[] hole = new long[16];
                f.readArray(4 * GIB + (2L << 20), hole);
                assertArrayEquals(new long[16], hole);

                // Extending past 5 GiB with a positional write.
                f.writeArray(SIZE + 3, new short[]{1, 2});
                assertEquals(SIZE + 7, f.length());
            }

            // The same bytes through the JDK's RandomAccessFile: big-endian, at the 64-bit offsets.
            try (RandomAccessFile plain = new RandomAccessFile(path.toFile(), "r")) {
                plain.seek(atPointer + 8L * 69_999);
                assertEquals(longs[70_000], plain.readLong());
                plain.seek(4 * GIB - 4);
                assertEquals(ints[999], plain.readInt());
                assertEquals(ints[1000], plain.readInt());
                plain.seek(positional + 8 * 999);
                assertEquals(longs[999], plain.readLong());
                plain.seek(SIZE - 8);
                assertEquals(Double.doubleToRawLongBits(doubles[doubles.length - 1]), plain.readLong());
                plain.seek(SIZE + 3);
                assertEquals(1, plain.readShort());
                assertEquals(2, plain.readShort());
            }
        } finally {
            Files.deleteIfExists(path);
        }
    }

    @Test
    void nativeOrderPastFourGibibytes() throws IOException {
        Path path = dir.resolve("sparse-native.bin");
        try {
            try (RandomAccessFile plain = new RandomAccessFile(path.toFile(), "rw")) {
                plain.setLength(SIZE);
            }
            float[] floats = (float[]) Prim.FLOAT.random(new Random(4), 300_001); // > 1 MiB: several critical chunks
            long position = 4 * GIB + 5;
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(path, "rw", ByteOrder.nativeOrder())) {
                f.seek(position);
                f.writeArray(floats);
                assertEquals(position + 4L * floats.length, f.getFilePointer());
                float[] back = new float[floats.length];
                f.readArray(position, back);
                Prim.assertBits(floats, back, "native order positional past 4 GiB");
                float[] back2 = new float[floats.length];
                f.seek(position);
                f.readArray(back2, 0, back2.length);
                Prim.assertBits(floats, back2, "native order at the pointer past 4 GiB");
                assertEquals(SIZE, f.length());
            }
        } finally {
            Files.deleteIfExists(path);
        }
    }
}
