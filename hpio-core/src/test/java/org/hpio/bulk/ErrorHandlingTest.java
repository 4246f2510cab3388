package org.hpio.bulk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spec 7, for every type and every form (streams, file at the pointer, file positional):
 * a bad (offset, count) is an IndexOutOfBoundsException before any I/O (stream position, file pointer, file
 * and array unchanged, nothing written); reading past the end of a file is an EOFException with the array and
 * file pointer unchanged; a stream that ends early is an EOFException that says how many elements were read;
 * closed objects throw IOException; count 0 is a no-op anywhere; a negative position is an
 * IllegalArgumentException.
 */
class ErrorHandlingTest {
    private static final int[][] BAD_RANGES = {
            {-1, 1}, {0, -1}, {0, 11}, {11, 0}, {10, 1}, {5, 6}, {1, Integer.MAX_VALUE}, {Integer.MAX_VALUE, 1},
            {Integer.MIN_VALUE, 0}, {-5, -5}};

    @TempDir
    Path dir;

    private Path fileWith(byte[] contents) throws IOException {
        Path file = Files.createTempFile(dir, "err", ".bin");
        Files.write(file, contents);
        return file;
    }

    private static byte[] someBytes(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    // ---- bad (offset, count) ----

    @ParameterizedTest
    @EnumSource(Prim.class)
    void badRangeOnStreamsBeforeAnyIo(Prim p) throws IOException {
        for (int[] bad : BAD_RANGES) {
            String what = p + " offset=" + bad[0] + " count=" + bad[1];
            Object a = p.random(new Random(1), 10);
            Object before = Prim.copy(a);

            ByteArrayInputStream source = new ByteArrayInputStream(someBytes(200));
            BulkDataInputStream in = new BulkDataInputStream(source);
            assertThrows(IndexOutOfBoundsException.class, () -> p.read(in, a, bad[0], bad[1]), what);
            assertEquals(200, source.available(), what + ": nothing was read");
            Prim.assertBits(before, a, what + ": the array is unchanged");

            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            BulkDataOutputStream out = new BulkDataOutputStream(sink);
            assertThrows(IndexOutOfBoundsException.class, () -> p.write(out, a, bad[0], bad[1]), what);
            assertEquals(0, sink.size(), what + ": nothing was written");
            assertEquals(0, out.size(), what);
        }
    }

    @ParameterizedTest
    @EnumSource(Prim.class)
    void badRangeOnFilesBeforeAnyIo(Prim p) throws IOException {
        byte[] contents = someBytes(200);
        Path file = fileWith(contents);
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw", order)) {
                for (int[] bad : BAD_RANGES) {
                    String what = p + " " + order + " offset=" + bad[0] + " count=" + bad[1];
                    Object a = p.random(new Random(2), 10);
                    Object before = Prim.copy(a);
                    f.seek(7);
                    assertThrows(IndexOutOfBoundsException.class, () -> p.read(f, a, bad[0], bad[1]), what);
                    assertThrows(IndexOutOfBoundsException.class, () -> p.write(f, a, bad[0], bad[1]), what);
                    assertThrows(IndexOutOfBoundsException.class, () -> p.readAt(f, 3, a, bad[0], bad[1]), what);
                    assertThrows(IndexOutOfBoundsException.class, () -> p.writeAt(f, 3, a, bad[0], bad[1]), what);
                    assertThrows(IndexOutOfBoundsException.class, () -> p.writeAt(f, 500, a, bad[0], bad[1]), what);
                    assertEquals(7, f.getFilePointer(), what + ": the file pointer is unchanged");
                    assertEquals(200, f.length(), what + ": the length is unchanged");
                    Prim.assertBits(before, a, what + ": the array is unchanged");
                }
            }
            assertArrayEquals(contents, Files.readAllBytes(file), "the file is unchanged");
        }
    }

    @ParameterizedTest
    @EnumSource(Prim.class)
    void nullArraysAreNullPointerExceptions(Prim p) throws IOException {
        Object none = null;
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BulkDataOutputStream out = new BulkDataOutputStream(sink);
        BulkDataInputStream in = new BulkDataInputStream(new ByteArrayInputStream(new byte[64]));
        assertThrows(NullPointerException.class, () -> p.write(out, none, 0, 0));
        assertThrows(NullPointerException.class, () -> p.write(out, none));
        assertThrows(NullPointerException.class, () -> p.read(in, none, 0, 0));
        assertThrows(NullPointerException.class, () -> p.read(in, none));
        assertEquals(0, sink.size());
        assertEquals(64, in.available());
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(fileWith(new byte[64]), "rw")) {
            assertThrows(NullPointerException.class, () -> p.read(f, none, 0, 0));
            assertThrows(NullPointerException.class, () -> p.writeAt(f, 0, none, 0, 0));
            assertThrows(NullPointerException.class, () -> p.readAt(f, 0, none));
            assertEquals(0, f.getFilePointer());
            assertEquals(64, f.length());
        }
    }

    // ---- end of file and end of stream ----

    @ParameterizedTest
    @EnumSource(Prim.class)
    void readingPastTheEndOfAFileChangesNothing(Prim p) throws IOException {
        // One byte short of ten elements after the pointer.
        byte[] contents = someBytes(5 + 10 * p.size - 1);
        Path file = fileWith(contents);
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "r", order)) {
                Object a = p.random(new Random(3), 12);
                Object before = Prim.copy(a);
                f.seek(5);
                EOFException e = assertThrows(EOFException.class, () -> p.read(f, a, 1, 10));
                assertEquals(5, f.getFilePointer(), "the file pointer is unchanged");
                Prim.assertBits(before, a, "the array is unchanged");
                assertThrows(EOFException.class, () -> p.readAt(f, 5, a, 2, 10));
                assertThrows(EOFException.class, () -> p.readAt(f, contents.length, a, 0, 1), "at the end");
                assertThrows(EOFException.class, () -> p.readAt(f, contents.length + 100L, a, 0, 1), "past it");
                f.seek(contents.length + 3L);
                assertThrows(EOFException.class, () -> p.read(f, a, 0, 1));
                assertEquals(contents.length + 3L, f.getFilePointer());
                Prim.assertBits(before, a, "the array is still unchanged");
                assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());

                // Nine elements do fit, exactly.
                f.seek(5);
                p.read(f, a, 1, 9);
                assertEquals(5 + 9L * p.size, f.getFilePointer());
            }
        }
    }

    /**
     * The end-of-file check remembers the size it saw (no lseek per call): setLength through the file forgets it,
     * so a read past the new end still changes nothing; a shrink through another handle is met as a short read
     * that says how many elements arrived, as a shrink during the read is.
     */
    @ParameterizedTest
    @EnumSource(Prim.class)
    void readingPastAnEndThatMovedIsStillRefused(Prim p) throws IOException {
        byte[] contents = someBytes(40 * p.size);
        Path file = fileWith(contents);
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw", ByteOrder.BIG_ENDIAN)) {
            Object a = p.random(new Random(5), 30);
            p.readAt(f, 0, a, 0, 30);                          // the handle has now seen 40 elements
            f.setLength(20L * p.size);
            Object before = Prim.copy(a);
            EOFException e = assertThrows(EOFException.class, () -> p.readAt(f, 10L * p.size, a, 0, 30));
            Prim.assertBits(before, a, "after setLength the check refuses before any I/O");
            assertTrue(e.getMessage().contains("nothing changed"), e.getMessage());

            p.readAt(f, 0, a, 0, 20);                          // seen: 20 elements
            try (FileChannel other = FileChannel.open(file,
                    StandardOpenOption.WRITE)) {
                other.truncate(5L * p.size);
            }
            EOFException shrunk = assertThrows(EOFException.class, () -> p.readAt(f, 0, a, 0, 20));
            assertTrue(shrunk.getMessage().contains("ended during a read") || shrunk.getMessage().contains("nothing changed"),
                    shrunk.getMessage());
            Object kept = Prim.copy(a);
            EOFException again = assertThrows(EOFException.class, () -> p.readAt(f, 0, a, 0, 20));
            assertTrue(again.getMessage().contains("nothing changed"), "now refused before any I/O: " + again.getMessage());
            Prim.assertBits(kept, a, "and the array is unchanged");
            p.readAt(f, 0, a, 0, 5);
        }
    }

    @ParameterizedTest
    @EnumSource(Prim.class)
    void streamEndingEarlySaysHowManyElementsWereRead(Prim p) throws IOException {
        Object values = p.random(new Random(4), 3);
        // Three whole elements and, for wider types, part of a fourth.
        byte[] bytes = StreamRoundTripPropertyTest.concat(p.rawBytes(values, 0, 3, ByteOrder.BIG_ENDIAN),
                new byte[p.size - 1]);
        for (int chunk : new int[]{1, 3, 1000}) {
            Object target = p.random(new Random(5), 12);
            Object before = Prim.copy(target);
            BulkDataInputStream in = new BulkDataInputStream(new Chunking(chunk, chunk).in(new ByteArrayInputStream(bytes)));
            EOFException e = assertThrows(EOFException.class, () -> p.read(in, target, 2, 10));
            assertTrue(e.getMessage().contains("3 of 10"), "message: " + e.getMessage());
            Prim.assertBits(values, 0, target, 2, 3, "the elements read are in the array");
            Prim.assertBits(before, 0, target, 0, 2, "before the range");
            Prim.assertBits(before, 5, target, 5, 7, "the elements not read are unchanged");
        }
        // An empty stream: 0 of n.
        BulkDataInputStream empty = new BulkDataInputStream(new ByteArrayInputStream(new byte[0]));
        EOFException e = assertThrows(EOFException.class, () -> p.read(empty, p.newArray(4)));
        assertTrue(e.getMessage().contains("0 of 4"), "message: " + e.getMessage());
    }

    /** The count of elements read is right across the stream's internal staging chunks. */
    @Test
    void streamEndingEarlyAfterSeveralChunks() throws IOException {
        int[] values = (int[]) Prim.INT.random(new Random(6), 70_001);
        byte[] bytes = StreamRoundTripPropertyTest.concat(Prim.INT.rawBytes(values, 0, values.length,
                ByteOrder.LITTLE_ENDIAN), new byte[]{1, 2});
        int[] target = new int[100_000];
        BulkDataInputStream in = new BulkDataInputStream(new Chunking(7, 5000).in(new ByteArrayInputStream(bytes)),
                ByteOrder.LITTLE_ENDIAN);
        EOFException e = assertThrows(EOFException.class, () -> in.readArray(target));
        assertTrue(e.getMessage().contains("70001 of 100000"), "message: " + e.getMessage());
        Prim.assertBits(values, 0, target, 0, values.length, "elements read");
        assertEquals(0, target[70_001]);
    }

    // ---- closed objects ----

    @ParameterizedTest
    @EnumSource(Prim.class)
    void closedFileThrowsIOException(Prim p) throws IOException {
        Path file = fileWith(someBytes(100));
        BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw");
        f.close();
        Object a = p.newArray(4);
        assertThrows(IOException.class, () -> p.read(f, a, 0, 4));
        assertThrows(IOException.class, () -> p.write(f, a, 0, 4));
        assertThrows(IOException.class, () -> p.read(f, a));
        assertThrows(IOException.class, () -> p.readAt(f, 0, a, 0, 4));
        assertThrows(IOException.class, () -> p.writeAt(f, 0, a, 0, 4));
        Object[] nested = (Object[]) Array.newInstance(a.getClass(), 1);
        nested[0] = a;
        assertThrows(IOException.class, () -> f.readArray(nested));
        assertThrows(IOException.class, () -> f.writeArray(nested));
        assertThrows(IOException.class, () -> f.readArray(0L, nested));
        assertThrows(IOException.class, () -> f.writeArray(0L, nested));
        f.close(); // closing twice is fine
        assertArrayEquals(someBytes(100), Files.readAllBytes(file), "nothing was written");
    }

    @ParameterizedTest
    @EnumSource(Prim.class)
    void closedStreamsThrowIOException(Prim p) throws IOException {
        BulkDataInputStream in = new BulkDataInputStream(new ByteArrayInputStream(someBytes(100)));
        in.close();
        assertThrows(IOException.class, () -> p.read(in, p.newArray(4), 0, 4));
        assertThrows(IOException.class, () -> p.read(in, p.newArray(4)));
        assertThrows(IOException.class, () -> in.readArray(new double[][]{{1}}));

        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BulkDataOutputStream out = new BulkDataOutputStream(sink);
        out.close();
        assertThrows(IOException.class, () -> p.write(out, p.random(new Random(7), 4), 0, 4));
        assertThrows(IOException.class, () -> p.write(out, p.random(new Random(7), 4)));
        assertThrows(IOException.class, () -> out.writeArray(new double[][]{{1}}));
        assertEquals(0, sink.size());
    }

    // ---- count 0 ----

    @ParameterizedTest
    @EnumSource(Prim.class)
    void countZeroIsANoOpOnStreams(Prim p) throws IOException {
        Object a = p.random(new Random(8), 10);
        Object before = Prim.copy(a);
        ByteArrayInputStream source = new ByteArrayInputStream(someBytes(50));
        BulkDataInputStream in = new BulkDataInputStream(source);
        p.read(in, a, 4, 0);
        p.read(in, a, 10, 0);
        p.read(in, p.newArray(0));
        assertEquals(50, source.available());
        Prim.assertBits(before, a, "unchanged");
        p.read(new BulkDataInputStream(new ByteArrayInputStream(new byte[0])), a, 0, 0); // at the end: no EOF

        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        BulkDataOutputStream out = new BulkDataOutputStream(sink);
        p.write(out, a, 10, 0);
        p.write(out, p.newArray(0));
        assertEquals(0, out.size());
        assertEquals(0, sink.size());
    }

    @ParameterizedTest
    @EnumSource(Prim.class)
    void countZeroIsANoOpOnFilesEvenPastTheEnd(Prim p) throws IOException {
        Path file = fileWith(someBytes(30));
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw", order)) {
                Object a = p.random(new Random(9), 10);
                Object before = Prim.copy(a);
                for (long at : new long[]{0, 30, 31, 1000, 1L << 40}) {
                    f.seek(at);
                    p.read(f, a, 3, 0);
                    p.write(f, a, 3, 0);
                    p.read(f, p.newArray(0));
                    p.write(f, p.newArray(0));
                    assertEquals(at, f.getFilePointer(), "pointer at " + at);
                    p.readAt(f, at, a, 10, 0);
                    p.writeAt(f, at, a, 0, 0);
                    assertEquals(at, f.getFilePointer());
                    assertEquals(30, f.length(), "a zero-length write does not extend the file, at " + at);
                }
                Prim.assertBits(before, a, "unchanged");
            }
        }
        assertArrayEquals(someBytes(30), Files.readAllBytes(file));
    }

    // ---- negative positions ----

    @ParameterizedTest
    @EnumSource(Prim.class)
    void negativePositionIsIllegalArgument(Prim p) throws IOException {
        Path file = fileWith(someBytes(64));
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw")) {
            Object a = p.random(new Random(10), 4);
            Object before = Prim.copy(a);
            for (long bad : new long[]{-1, -8, Long.MIN_VALUE}) {
                assertThrows(IllegalArgumentException.class, () -> p.readAt(f, bad, a, 0, 4));
                assertThrows(IllegalArgumentException.class, () -> p.readAt(f, bad, a, 0, 0));
                assertThrows(IllegalArgumentException.class, () -> p.writeAt(f, bad, a, 0, 4));
                assertThrows(IllegalArgumentException.class, () -> p.writeAt(f, bad, a));
                Object[] nested = (Object[]) Array.newInstance(a.getClass(), 1);
                nested[0] = a;
                assertThrows(IllegalArgumentException.class, () -> f.readArray(bad, nested));
                assertThrows(IllegalArgumentException.class, () -> f.writeArray(bad, nested));
                Object[] empty = (Object[]) Array.newInstance(a.getClass(), 0);
                assertThrows(IllegalArgumentException.class, () -> f.readArray(bad, empty));
                assertThrows(IllegalArgumentException.class, () -> f.writeArray(bad, empty));
            }
            // Rows larger than the file: still the negative position that is reported.
            Object[] big = (Object[]) Array.newInstance(a.getClass(), 1);
            big[0] = p.newArray(1000);
            assertThrows(IllegalArgumentException.class, () -> f.readArray(-1L, big));
            assertEquals(0, f.getFilePointer());
            assertEquals(64, f.length());
            Prim.assertBits(before, a, "unchanged");
        }
        assertArrayEquals(someBytes(64), Files.readAllBytes(file));
    }

    // ---- other failures ----

    @Test
    void writingToAReadOnlyFileFailsAndChangesNothing() throws IOException {
        Path file = fileWith(someBytes(40));
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "r")) {
            IOException e = assertThrows(IOException.class, () -> f.writeArray(new int[]{1, 2, 3}));
            assertTrue(e.getMessage().contains(file.toString()), "the message names the file: " + e.getMessage());
            assertEquals(0, f.getFilePointer());
            IOException e2 = assertThrows(IOException.class, () -> f.writeArray(8L, new double[]{1}));
            assertFalse(e2 instanceof EOFException);
            assertThrows(IOException.class, () -> f.writeArray(new byte[]{1}));
        }
        assertArrayEquals(someBytes(40), Files.readAllBytes(file));
    }

    @Test
    void constructorArguments() throws IOException {
        assertThrows(NullPointerException.class, () -> new BulkDataInputStream(null));
        assertThrows(NullPointerException.class, () -> new BulkDataOutputStream(null));
        assertThrows(NullPointerException.class,
                () -> new BulkDataInputStream(new ByteArrayInputStream(new byte[0]), null));
        assertThrows(NullPointerException.class, () -> new BulkDataOutputStream(new ByteArrayOutputStream(), null));
        Path file = fileWith(new byte[0]);
        assertThrows(NullPointerException.class, () -> new BulkRandomAccessFile(file, "rw", null));
        assertThrows(IllegalArgumentException.class, () -> new BulkRandomAccessFile(file, "w"));
        assertThrows(IOException.class, () -> new BulkRandomAccessFile(dir.resolve("missing"), "r"));
        assertFalse(Files.exists(dir.resolve("missing")));
        Files.write(file, new byte[8]);
        for (String mode : new String[]{"r", "rw", "rws", "rwd"}) {
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(file.toString(), mode)) {
                long expected = ByteBuffer.wrap(Files.readAllBytes(file)).getLong();
                if (!mode.equals("r")) {
                    expected = 1000 + mode.length();
                    f.writeArray(0L, new long[]{expected});
                }
                long[] back = new long[1];
                f.readArray(0L, back);
                assertEquals(expected, back[0], mode);
            }
        }
        assertEquals(1003, ByteBuffer.wrap(Files.readAllBytes(file)).getLong());
    }
}
