package org.hpio.bulk;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Group;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Spec 1 for the streams, for every primitive type: the bytes of a DataOutputStream writeX loop read by
 * BulkDataInputStream.readArray(array, offset, count), and the bytes of BulkDataOutputStream.writeArray read
 * by a DataInputStream readX loop; byte-for-byte equality with DataOutputStream (big-endian) except for the
 * documented non-canonical NaNs; hpio-to-hpio round trips that keep every bit, in either byte order. The
 * underlying streams return short reads (down to one byte per read) and are written in small pieces.
 */
class StreamRoundTripPropertyTest {
    static final int TRIES = 80;
    private static final byte[] TRAILER = {(byte) 0xA5, 0x5A, 0x7E};

    abstract static class PerType {
        abstract Prim prim();

        @Provide
        Arbitrary<Slice> slices() {
            return Gen.slices(prim(), 300);
        }

        @Provide
        Arbitrary<Chunking> chunkings() {
            return Gen.chunkings();
        }

        @Provide
        Arbitrary<ByteOrder> orders() {
            return Gen.orders();
        }

        /** DataOutputStream writeX loop -> BulkDataInputStream.readArray(array, offset, count). */
        @Property(tries = TRIES)
        void dataOutputStreamBytesReadByBulkStream(@ForAll("slices") Slice s, @ForAll("chunkings") Chunking c)
                throws IOException {
            Prim p = s.prim();
            byte[] jdk = p.jdkBytes(s.array(), s.offset(), s.count());
            ByteArrayInputStream source = new ByteArrayInputStream(concat(jdk, TRAILER));
            BulkDataInputStream in = new BulkDataInputStream(c.in(source));

            Object target = p.random(new Random(c.seed()), s.length());
            Object before = Prim.copy(target);
            p.read(in, target, s.offset(), s.count());

            // The elements are the ones written (NaNs as writeFloat/writeDouble canonicalised them) ...
            Prim.assertBits(p.canonical(s.array()), s.offset(), target, s.offset(), s.count(), "read range");
            // ... equal to what a DataInputStream readX loop reads from the same bytes ...
            Object jdkRead = p.newArray(s.count());
            DataInputStream din = new DataInputStream(new ByteArrayInputStream(jdk));
            for (int i = 0; i < s.count(); i++) {
                p.jdkRead(din, jdkRead, i);
            }
            Prim.assertBits(jdkRead, 0, target, s.offset(), s.count(), "DataInputStream vs hpio");
            // ... nothing outside the range was touched, and nothing was read past the array.
            Prim.assertBits(before, 0, target, 0, s.offset(), "before the range");
            Prim.assertBits(before, s.end(), target, s.end(), s.length() - s.end(), "after the range");
            assertEquals(TRAILER.length, source.available(), "bytes left after the array");
            assertEquals(0xA5, in.readUnsignedByte());
        }

        /** BulkDataOutputStream.writeArray(array, offset, count) -> the bytes of DataOutputStream's loop. */
        @Property(tries = TRIES)
        void bulkStreamWritesDataOutputStreamBytes(@ForAll("slices") Slice s, @ForAll("chunkings") Chunking c)
                throws IOException {
            Prim p = s.prim();
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            BulkDataOutputStream out = new BulkDataOutputStream(c.out(sink));
            assertEquals(ByteOrder.BIG_ENDIAN, out.arrayOrder());
            Object before = Prim.copy(s.array());
            p.write(out, s.array(), s.offset(), s.count());
            byte[] hpio = sink.toByteArray(); // nothing is buffered across calls: no flush needed
            assertEquals(s.bytes(), hpio.length, "bytes written");
            assertEquals(s.bytes(), out.size(), "DataOutputStream.size()");
            Prim.assertBits(before, s.array(), "the source array must not change");

            assertDataOutputStreamBytes(s, hpio);

            // A DataInputStream readX loop reads the values back (NaNs compare as writeFloat would give them).
            DataInputStream din = new DataInputStream(new ByteArrayInputStream(hpio));
            Object back = p.newArray(s.count());
            for (int i = 0; i < s.count(); i++) {
                p.jdkRead(din, back, i);
            }
            assertEquals(-1, din.read());
            Prim.assertBits(p.canonical(s.array()), s.offset(), p.canonical(back), 0, s.count(), "readX loop");
        }

        /** hpio -> hpio in either order: the reference bytes (ByteBuffer, raw bits), and every bit comes back. */
        @Property(tries = TRIES)
        void bulkStreamRoundTripKeepsEveryBit(@ForAll("slices") Slice s, @ForAll("chunkings") Chunking c,
                                              @ForAll("orders") ByteOrder order) throws IOException {
            Prim p = s.prim();
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            BulkDataOutputStream out = new BulkDataOutputStream(c.out(sink), order);
            assertEquals(order, out.arrayOrder());
            p.write(out, s.array(), s.offset(), s.count());
            byte[] bytes = sink.toByteArray();
            assertArrayEquals(p.rawBytes(s.array(), s.offset(), s.count(), order), bytes,
                    () -> "bytes in " + order + ": " + Prim.hex(bytes));

            BulkDataInputStream in = new BulkDataInputStream(c.in(new ByteArrayInputStream(bytes)), order);
            assertEquals(order, in.arrayOrder());
            Object back = p.newArray(s.length());
            p.read(in, back, s.offset(), s.count());
            Prim.assertBits(s.array(), s.offset(), back, s.offset(), s.count(), "round trip in " + order);
            assertEquals(-1, in.read());
        }

        /** The whole-array overloads writeArray(array) / readArray(array). */
        @Property(tries = TRIES / 2)
        void wholeArrayOverloads(@ForAll("slices") Slice s, @ForAll("chunkings") Chunking c,
                                 @ForAll("orders") ByteOrder order) throws IOException {
            Prim p = s.prim();
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            BulkDataOutputStream out = new BulkDataOutputStream(c.out(sink), order);
            p.write(out, s.array());
            assertArrayEquals(p.rawBytes(s.array(), 0, s.length(), order), sink.toByteArray());
            BulkDataInputStream in = new BulkDataInputStream(c.in(new ByteArrayInputStream(sink.toByteArray())), order);
            Object back = p.newArray(s.length());
            p.read(in, back);
            Prim.assertBits(s.array(), back, "whole array");
        }
    }

    /**
     * hpio's bytes equal DataOutputStream's element by element, except that a non-canonical NaN keeps its raw
     * bits where writeFloat/writeDouble would write the canonical NaN.
     */
    static void assertDataOutputStreamBytes(Slice s, byte[] hpio) {
        Prim p = s.prim();
        for (int i = 0; i < s.count(); i++) {
            int at = i * p.size;
            byte[] mine = Arrays.copyOfRange(hpio, at, at + p.size);
            byte[] jdk = p.jdkBytes(s.array(), s.offset() + i, 1);
            if (p.isNonCanonicalNaN(s.array(), s.offset() + i)) {
                assertArrayEquals(p.rawBytes(s.array(), s.offset() + i, 1, ByteOrder.BIG_ENDIAN), mine,
                        "element " + i + ": a NaN payload is written raw");
                assertNotEquals(Arrays.toString(jdk), Arrays.toString(mine), "the JDK canonicalises this NaN");
            } else {
                int index = i;
                assertArrayEquals(jdk, mine, () -> "element " + index + " of " + s + ": DataOutputStream wrote "
                        + Prim.hex(jdk) + ", hpio " + Prim.hex(mine));
            }
        }
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
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
