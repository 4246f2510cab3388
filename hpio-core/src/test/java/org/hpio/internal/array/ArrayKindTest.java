package org.hpio.internal.array;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ArrayKind: type detection, sizes, range checks, and encode/decode against ByteBuffer in both orders. */
class ArrayKindTest {
    private static final Object[] SAMPLES = {
            new boolean[3], new byte[3], new char[3], new short[3], new int[3], new long[3], new float[3], new double[3]};
    private static final ArrayKind[] KINDS = {
            ArrayKind.BOOLEAN, ArrayKind.BYTE, ArrayKind.CHAR, ArrayKind.SHORT,
            ArrayKind.INT, ArrayKind.LONG, ArrayKind.FLOAT, ArrayKind.DOUBLE};
    private static final int[] SIZES = {1, 1, 2, 2, 4, 8, 4, 8};
    private static final String[] NAMES = {"boolean", "byte", "char", "short", "int", "long", "float", "double"};

    @Test
    void ofRecognisesEveryPrimitiveArray() {
        for (int i = 0; i < SAMPLES.length; i++) {
            ArrayKind kind = ArrayKind.of(SAMPLES[i]);
            assertSame(KINDS[i], kind);
            assertEquals(SIZES[i], kind.elementSize());
            assertEquals(NAMES[i], kind.typeName());
            assertEquals(3, kind.length(SAMPLES[i]));
        }
    }

    @Test
    void ofRejectsEverythingElse() {
        for (Object bad : new Object[]{new int[1][1], new Integer[1], new Object[0], new String[0], "x", 5}) {
            assertThrows(IllegalArgumentException.class, () -> ArrayKind.of(bad), bad.getClass().getTypeName());
        }
        assertThrows(NullPointerException.class, () -> ArrayKind.of(null));
    }

    @Test
    void checkRangeIsIndexOutOfBoundsForBadRanges() {
        int[] a = new int[10];
        assertDoesNotThrow(() -> ArrayKind.INT.checkRange(a, 0, 10));
        assertDoesNotThrow(() -> ArrayKind.INT.checkRange(a, 10, 0));
        assertDoesNotThrow(() -> ArrayKind.INT.checkRange(a, 3, 7));
        int[][] bad = {{-1, 1}, {0, -1}, {0, 11}, {11, 0}, {4, 7}, {1, Integer.MAX_VALUE}, {Integer.MAX_VALUE, 1}};
        for (int[] r : bad) {
            assertThrows(IndexOutOfBoundsException.class, () -> ArrayKind.INT.checkRange(a, r[0], r[1]),
                    r[0] + "," + r[1]);
        }
    }

    @Test
    void byteSizeIsSixtyFourBit() {
        assertEquals(8L * Integer.MAX_VALUE, ArrayKind.DOUBLE.byteSize(Integer.MAX_VALUE));
        assertEquals(Integer.MAX_VALUE, ArrayKind.BOOLEAN.byteSize(Integer.MAX_VALUE));
        assertEquals(0, ArrayKind.LONG.byteSize(0));
    }

    @Test
    void memoryFormAndHeapSegments() {
        ByteOrder foreign = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        assertFalse(ArrayKind.BOOLEAN.isMemoryForm(ByteOrder.nativeOrder()), "a boolean's byte form is not its memory");
        assertFalse(ArrayKind.BOOLEAN.isMemoryForm(foreign));
        assertTrue(ArrayKind.BYTE.isMemoryForm(foreign), "bytes have no order");
        assertNull(ArrayKind.BOOLEAN.heapSegment(new boolean[4]));
        for (int i = 2; i < KINDS.length; i++) {
            assertTrue(KINDS[i].isMemoryForm(ByteOrder.nativeOrder()), KINDS[i].toString());
            assertFalse(KINDS[i].isMemoryForm(foreign), KINDS[i].toString());
            MemorySegment s = KINDS[i].heapSegment(SAMPLES[i]);
            assertEquals(3L * SIZES[i], s.byteSize());
            assertFalse(s.isNative());
        }
    }

    @Test
    void booleansEncodeAsOneOrZeroAndDecodeNonZeroAsTrue() {
        MemorySegment bytes = MemorySegment.ofArray(new byte[]{0, 1, 2, (byte) 0x80, (byte) 0xff, 0});
        boolean[] b = new boolean[7];
        ArrayKind.BOOLEAN.decode(bytes, 0, ByteOrder.BIG_ENDIAN, b, 1, 6);
        assertArrayEquals(new boolean[]{false, false, true, true, true, true, false}, b);
        byte[] out = new byte[8];
        ArrayKind.BOOLEAN.encode(b, 0, 7, ByteOrder.LITTLE_ENDIAN, MemorySegment.ofArray(out), 1);
        assertArrayEquals(new byte[]{0, 0, 0, 1, 1, 1, 1, 0}, out);
    }

    // ---- encode / decode against ByteBuffer ----

    @Provide
    Arbitrary<ArrayKind> kinds() {
        return Arbitraries.of(ArrayKind.values());
    }

    @Provide
    Arbitrary<ByteOrder> orders() {
        return Arbitraries.of(ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN);
    }

    @Property(tries = 200)
    void encodeGivesByteBufferBytesAndDecodeInverts(@ForAll("kinds") ArrayKind kind, @ForAll("orders") ByteOrder order,
                                                    @ForAll @IntRange(max = 300) int length, @ForAll long seed,
                                                    @ForAll @IntRange(max = 9) int segmentOffset,
                                                    @ForAll boolean nativeSegment) {
        Random r = new Random(seed);
        Object array = randomArray(kind, length, r);
        int offset = length == 0 ? 0 : r.nextInt(length + 1);
        int count = r.nextInt(length - offset + 1);

        byte[] expected = byteBufferBytes(kind, array, offset, count, order);
        try (Arena arena = Arena.ofConfined()) {
            long size = segmentOffset + kind.byteSize(count) + 3;
            MemorySegment segment = nativeSegment ? arena.allocate(size) : MemorySegment.ofArray(new byte[(int) size]);
            kind.encode(array, offset, count, order, segment, segmentOffset);
            byte[] encoded = segment.asSlice(segmentOffset, kind.byteSize(count)).toArray(ValueLayout.JAVA_BYTE);
            assertArrayEquals(expected, encoded, kind + " " + order);

            Object back = Array.newInstance(array.getClass().getComponentType(), length);
            kind.decode(segment, segmentOffset, order, back, offset, count);
            byte[] again = byteBufferBytes(kind, back, offset, count, order);
            assertArrayEquals(expected, again, "decode(encode(x)) keeps every bit");
            for (int i = 0; i < length; i++) {
                if (i < offset || i >= offset + count) {
                    assertEquals(Array.get(Array.newInstance(array.getClass().getComponentType(), 1), 0),
                            Array.get(back, i), "element " + i + " outside the range is untouched");
                }
            }
        }
    }

    static Object randomArray(ArrayKind kind, int n, Random r) {
        Object a = Array.newInstance(componentOf(kind), n);
        for (int i = 0; i < n; i++) {
            switch (kind) {
                case BOOLEAN -> ((boolean[]) a)[i] = r.nextBoolean();
                case BYTE -> ((byte[]) a)[i] = (byte) r.nextInt();
                case CHAR -> ((char[]) a)[i] = (char) r.nextInt();
                case SHORT -> ((short[]) a)[i] = (short) r.nextInt();
                case INT -> ((int[]) a)[i] = r.nextInt();
                case LONG -> ((long[]) a)[i] = r.nextLong();
                // Any bit pattern, NaN payloads included.
                case FLOAT -> ((float[]) a)[i] = Float.intBitsToFloat(r.nextInt());
                case DOUBLE -> ((double[]) a)[i] = Double.longBitsToDouble(r.nextLong());
            }
        }
        return a;
    }

    static Class<?> componentOf(ArrayKind kind) {
        return switch (kind) {
            case BOOLEAN -> boolean.class;
            case BYTE -> byte.class;
            case CHAR -> char.class;
            case SHORT -> short.class;
            case INT -> int.class;
            case LONG -> long.class;
            case FLOAT -> float.class;
            case DOUBLE -> double.class;
        };
    }

    static byte[] byteBufferBytes(ArrayKind kind, Object a, int offset, int count, ByteOrder order) {
        ByteBuffer bb = ByteBuffer.allocate(count * kind.elementSize()).order(order);
        for (int i = offset; i < offset + count; i++) {
            switch (kind) {
                case BOOLEAN -> bb.put(((boolean[]) a)[i] ? (byte) 1 : 0);
                case BYTE -> bb.put(((byte[]) a)[i]);
                case CHAR -> bb.putChar(((char[]) a)[i]);
                case SHORT -> bb.putShort(((short[]) a)[i]);
                case INT -> bb.putInt(((int[]) a)[i]);
                case LONG -> bb.putLong(((long[]) a)[i]);
                case FLOAT -> bb.putInt(Float.floatToRawIntBits(((float[]) a)[i]));
                case DOUBLE -> bb.putLong(Double.doubleToRawLongBits(((double[]) a)[i]));
            }
        }
        return bb.array();
    }
}
