package org.hpio.bulk;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Group;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Spec 1 for BulkRandomAccessFile, for every primitive type: DataOutputStream's bytes read with readArray at
 * the file pointer and at a position; writeArray at the file pointer and at a position giving DataOutputStream's
 * bytes (read back by a DataInputStream readX loop); hpio-to-hpio round trips in either order keeping every bit
 * (NaN payloads included). The file pointer moves exactly by the array's bytes, or not at all for the
 * positional forms.
 */
class RandomAccessFileRoundTripPropertyTest {
    static final int TRIES = 60;
    private static Path dir;

    @BeforeContainer
    static void makeDirectory() throws IOException {
        dir = Files.createTempDirectory("hpio-raf-props");
    }

    @AfterContainer
    static void removeDirectory() throws IOException {
        TestFiles.deleteTree(dir);
    }

    static Path newFile(byte[] contents) throws IOException {
        Path file = Files.createTempFile(dir, "raf", ".bin");
        Files.write(file, contents);
        return file;
    }

    abstract static class PerType {
        abstract Prim prim();

        @Provide
        Arbitrary<Slice> slices() {
            return Gen.slices(prim(), 300);
        }

        @Provide
        Arbitrary<ByteOrder> orders() {
            return Gen.orders();
        }

        /** DataOutputStream's bytes, after {@code prefix} other bytes: readArray at the pointer and at a position. */
        @Property(tries = TRIES)
        void dataOutputStreamBytesReadByBulkFile(@ForAll("slices") Slice s, @ForAll @IntRange(max = 40) int prefix)
                throws IOException {
            Prim p = s.prim();
            byte[] jdk = p.jdkBytes(s.array(), s.offset(), s.count());
            byte[] contents = new byte[prefix + jdk.length + 5];
            new Random(prefix).nextBytes(contents);
            System.arraycopy(jdk, 0, contents, prefix, jdk.length);
            Path file = newFile(contents);
            Object expected = p.canonical(s.array());
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(file.toString(), "r")) {
                assertEquals(ByteOrder.BIG_ENDIAN, f.arrayOrder());
                // At the file pointer: the pointer moves past the array, nothing else changes.
                Object target = p.random(new Random(~prefix), s.length());
                Object before = Prim.copy(target);
                f.seek(prefix);
                p.read(f, target, s.offset(), s.count());
                assertEquals(prefix + s.bytes(), f.getFilePointer(), "file pointer after readArray");
                Prim.assertBits(expected, s.offset(), target, s.offset(), s.count(), "readArray at the pointer");
                Prim.assertBits(before, 0, target, 0, s.offset(), "before the range");
                Prim.assertBits(before, s.end(), target, s.end(), s.length() - s.end(), "after the range");
                // The single-value methods carry on right after the array.
                assertEquals(contents[prefix + jdk.length], f.readByte());

                // At a position: the pointer stays where it is.
                Object positional = p.random(new Random(prefix), s.length());
                Object before2 = Prim.copy(positional);
                f.seek(3);
                p.readAt(f, prefix, positional, s.offset(), s.count());
                assertEquals(3, f.getFilePointer(), "a positional read leaves the file pointer alone");
                Prim.assertBits(expected, s.offset(), positional, s.offset(), s.count(), "positional readArray");
                Prim.assertBits(before2, 0, positional, 0, s.offset(), "before the range");
                Prim.assertBits(before2, s.end(), positional, s.end(), s.length() - s.end(), "after the range");
                assertEquals(contents.length, f.length());
            } finally {
                Files.delete(file);
            }
        }

        /** writeArray at the pointer and at a position: DataOutputStream's bytes, readable by DataInputStream. */
        @Property(tries = TRIES)
        void bulkFileWritesDataOutputStreamBytes(@ForAll("slices") Slice s, @ForAll @IntRange(max = 40) int prefix)
                throws IOException {
            Prim p = s.prim();
            Path file = newFile(new byte[0]);
            Object before = Prim.copy(s.array());
            try {
                try (BulkRandomAccessFile f = new BulkRandomAccessFile(file.toFile(), "rw")) {
                    f.seek(prefix);
                    p.write(f, s.array(), s.offset(), s.count());
                    assertEquals(prefix + s.bytes(), f.getFilePointer(), "file pointer after writeArray");
                    assertEquals(s.count() == 0 ? 0 : prefix + s.bytes(), f.length(), "length after writeArray");
                    // The same slice again, positionally, right after: the pointer does not move.
                    f.seek(1);
                    p.writeAt(f, prefix + s.bytes(), s.array(), s.offset(), s.count());
                    assertEquals(1, f.getFilePointer(), "a positional write leaves the file pointer alone");
                    assertEquals(s.count() == 0 ? 0 : prefix + 2 * s.bytes(), f.length(), "length after both");
                }
                Prim.assertBits(before, s.array(), "the source array must not change");
                byte[] contents = Files.readAllBytes(file);
                if (s.count() > 0) {
                    assertArrayEquals(new byte[prefix], Arrays.copyOf(contents, prefix), "the gap before is zeros");
                    StreamRoundTripPropertyTest.assertDataOutputStreamBytes(s,
                            Arrays.copyOfRange(contents, prefix, prefix + (int) s.bytes()));
                    StreamRoundTripPropertyTest.assertDataOutputStreamBytes(s,
                            Arrays.copyOfRange(contents, prefix + (int) s.bytes(), contents.length));
                    DataInputStream din = new DataInputStream(new ByteArrayInputStream(contents, prefix, contents.length));
                    Object back = p.newArray(2 * s.count());
                    for (int i = 0; i < 2 * s.count(); i++) {
                        p.jdkRead(din, back, i);
                    }
                    assertEquals(-1, din.read());
                    Object expected = p.canonical(s.array());
                    Prim.assertBits(expected, s.offset(), p.canonical(back), 0, s.count(), "first copy");
                    Prim.assertBits(expected, s.offset(), p.canonical(back), s.count(), s.count(), "second copy");
                }
            } finally {
                Files.delete(file);
            }
        }

        /** hpio -> hpio through a file in either order: ByteBuffer's bytes, and every bit comes back. */
        @Property(tries = TRIES)
        void bulkFileRoundTripKeepsEveryBit(@ForAll("slices") Slice s, @ForAll("orders") ByteOrder order,
                                            @ForAll @IntRange(max = 40) int prefix) throws IOException {
            Prim p = s.prim();
            Path file = newFile(new byte[0]);
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "rw", order)) {
                assertEquals(order, f.arrayOrder());
                f.seek(prefix);
                p.write(f, s.array(), s.offset(), s.count());
                long end = prefix + s.bytes();
                p.writeAt(f, end, s.array(), s.offset(), s.count());
                byte[] expected = p.rawBytes(s.array(), s.offset(), s.count(), order);
                byte[] contents = Files.readAllBytes(file);
                if (s.count() > 0) {
                    assertArrayEquals(expected, Arrays.copyOfRange(contents, prefix, (int) end), "pointer write bytes");
                    assertArrayEquals(expected, Arrays.copyOfRange(contents, (int) end, contents.length),
                            "positional write bytes");
                }
                Object back = p.newArray(s.length());
                f.seek(prefix);
                p.read(f, back, s.offset(), s.count());
                assertEquals(end, f.getFilePointer());
                Prim.assertBits(s.array(), s.offset(), back, s.offset(), s.count(), "read at the pointer, " + order);
                Object back2 = p.newArray(s.length());
                p.readAt(f, end, back2, s.offset(), s.count());
                assertEquals(end, f.getFilePointer());
                Prim.assertBits(s.array(), s.offset(), back2, s.offset(), s.count(), "positional read, " + order);
            } finally {
                Files.delete(file);
            }
        }

        /** The whole-array overloads, at the pointer and positional. */
        @Property(tries = TRIES / 2)
        void wholeArrayOverloads(@ForAll("slices") Slice s, @ForAll("orders") ByteOrder order) throws IOException {
            Prim p = s.prim();
            Path file = newFile(new byte[0]);
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(file.toString(), "rw", order)) {
                p.write(f, s.array());
                long n = (long) s.length() * p.size;
                assertEquals(n, f.getFilePointer());
                p.writeAt(f, n, s.array());
                assertEquals(n, f.getFilePointer());
                assertEquals(2 * n, f.length());
                byte[] expected = p.rawBytes(s.array(), 0, s.length(), order);
                assertArrayEquals(StreamRoundTripPropertyTest.concat(expected, expected), Files.readAllBytes(file));
                f.seek(0);
                Object back = p.newArray(s.length());
                p.read(f, back);
                Prim.assertBits(s.array(), back, "whole array at the pointer");
                Object back2 = p.newArray(s.length());
                p.readAt(f, n, back2);
                Prim.assertBits(s.array(), back2, "whole array positional");
                assertEquals(n, f.getFilePointer());
            } finally {
                Files.delete(file);
            }
        }
    }

    @Group class Booleans extends PerType { Prim prim() { return Prim.BOOLEAN; } }
    @Group class Bytes extends PerType { Prim prim() { return Prim.BYTE; } }
    @Group class Chars extends PerType { Prim prim() { return Prim.CHAR; } }
    @Group class Shorts extends PerType { Prim prim() { return Prim.SHORT; } }
    @Group class Ints extends PerType { Prim prim() { return Prim.INT; } }
    @Group class Longs extends PerType { Prim prim() { return Prim.LONG; } }
    @Group class Floats extends PerType { Prim prim() { return Prim.FLOAT; } }
    @Group class Doubles extends PerType { Prim prim() { return Prim.DOUBLE; } }
}
