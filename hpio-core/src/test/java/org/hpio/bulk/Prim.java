package org.hpio.bulk;

import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The eight primitive types seen from the tests: one place that dispatches to the overloaded hpio methods and
 * to the JDK's single-value methods, and the reference encodings (DataOutputStream, ByteBuffer) the library
 * is checked against. Nothing here calls library internals.
 */
enum Prim {
    BOOLEAN(boolean.class, 1),
    BYTE(byte.class, 1),
    CHAR(char.class, 2),
    SHORT(short.class, 2),
    INT(int.class, 4),
    LONG(long.class, 8),
    FLOAT(float.class, 4),
    DOUBLE(double.class, 8);

    final Class<?> type;
    final int size;

    Prim(Class<?> type, int size) {
        this.type = type;
        this.size = size;
    }

    static Prim of(Object array) {
        for (Prim p : values()) {
            if (array.getClass().getComponentType() == p.type) {
                return p;
            }
        }
        throw new IllegalArgumentException(array.getClass().getTypeName());
    }

    Object newArray(int n) {
        return Array.newInstance(type, n);
    }

    static int length(Object array) {
        return Array.getLength(array);
    }

    static Object copy(Object array) {
        int n = Array.getLength(array);
        Object c = Array.newInstance(array.getClass().getComponentType(), n);
        System.arraycopy(array, 0, c, 0, n);
        return c;
    }

    // ---- hpio dispatch ----

    void write(BulkDataOutput out, Object a, int off, int n) throws IOException {
        switch (this) {
            case BOOLEAN -> out.writeArray((boolean[]) a, off, n);
            case BYTE -> out.writeArray((byte[]) a, off, n);
            case CHAR -> out.writeArray((char[]) a, off, n);
            case SHORT -> out.writeArray((short[]) a, off, n);
            case INT -> out.writeArray((int[]) a, off, n);
            case LONG -> out.writeArray((long[]) a, off, n);
            case FLOAT -> out.writeArray((float[]) a, off, n);
            case DOUBLE -> out.writeArray((double[]) a, off, n);
        }
    }

    /** The whole-array overload. */
    void write(BulkDataOutput out, Object a) throws IOException {
        switch (this) {
            case BOOLEAN -> out.writeArray((boolean[]) a);
            case BYTE -> out.writeArray((byte[]) a);
            case CHAR -> out.writeArray((char[]) a);
            case SHORT -> out.writeArray((short[]) a);
            case INT -> out.writeArray((int[]) a);
            case LONG -> out.writeArray((long[]) a);
            case FLOAT -> out.writeArray((float[]) a);
            case DOUBLE -> out.writeArray((double[]) a);
        }
    }

    void read(BulkDataInput in, Object a, int off, int n) throws IOException {
        switch (this) {
            case BOOLEAN -> in.readArray((boolean[]) a, off, n);
            case BYTE -> in.readArray((byte[]) a, off, n);
            case CHAR -> in.readArray((char[]) a, off, n);
            case SHORT -> in.readArray((short[]) a, off, n);
            case INT -> in.readArray((int[]) a, off, n);
            case LONG -> in.readArray((long[]) a, off, n);
            case FLOAT -> in.readArray((float[]) a, off, n);
            case DOUBLE -> in.readArray((double[]) a, off, n);
        }
    }

    /** The whole-array overload. */
    void read(BulkDataInput in, Object a) throws IOException {
        switch (this) {
            case BOOLEAN -> in.readArray((boolean[]) a);
            case BYTE -> in.readArray((byte[]) a);
            case CHAR -> in.readArray((char[]) a);
            case SHORT -> in.readArray((short[]) a);
            case INT -> in.readArray((int[]) a);
            case LONG -> in.readArray((long[]) a);
            case FLOAT -> in.readArray((float[]) a);
            case DOUBLE -> in.readArray((double[]) a);
        }
    }

    void writeAt(BulkRandomAccessFile f, long pos, Object a, int off, int n) throws IOException {
        switch (this) {
            case BOOLEAN -> f.writeArray(pos, (boolean[]) a, off, n);
            case BYTE -> f.writeArray(pos, (byte[]) a, off, n);
            case CHAR -> f.writeArray(pos, (char[]) a, off, n);
            case SHORT -> f.writeArray(pos, (short[]) a, off, n);
            case INT -> f.writeArray(pos, (int[]) a, off, n);
            case LONG -> f.writeArray(pos, (long[]) a, off, n);
            case FLOAT -> f.writeArray(pos, (float[]) a, off, n);
            case DOUBLE -> f.writeArray(pos, (double[]) a, off, n);
        }
    }

    void writeAt(BulkRandomAccessFile f, long pos, Object a) throws IOException {
        switch (this) {
            case BOOLEAN -> f.writeArray(pos, (boolean[]) a);
            case BYTE -> f.writeArray(pos, (byte[]) a);
            case CHAR -> f.writeArray(pos, (char[]) a);
            case SHORT -> f.writeArray(pos, (short[]) a);
            case INT -> f.writeArray(pos, (int[]) a);
            case LONG -> f.writeArray(pos, (long[]) a);
            case FLOAT -> f.writeArray(pos, (float[]) a);
            case DOUBLE -> f.writeArray(pos, (double[]) a);
        }
    }

    void readAt(BulkRandomAccessFile f, long pos, Object a, int off, int n) throws IOException {
        switch (this) {
            case BOOLEAN -> f.readArray(pos, (boolean[]) a, off, n);
            case BYTE -> f.readArray(pos, (byte[]) a, off, n);
            case CHAR -> f.readArray(pos, (char[]) a, off, n);
            case SHORT -> f.readArray(pos, (short[]) a, off, n);
            case INT -> f.readArray(pos, (int[]) a, off, n);
            case LONG -> f.readArray(pos, (long[]) a, off, n);
            case FLOAT -> f.readArray(pos, (float[]) a, off, n);
            case DOUBLE -> f.readArray(pos, (double[]) a, off, n);
        }
    }

    void readAt(BulkRandomAccessFile f, long pos, Object a) throws IOException {
        switch (this) {
            case BOOLEAN -> f.readArray(pos, (boolean[]) a);
            case BYTE -> f.readArray(pos, (byte[]) a);
            case CHAR -> f.readArray(pos, (char[]) a);
            case SHORT -> f.readArray(pos, (short[]) a);
            case INT -> f.readArray(pos, (int[]) a);
            case LONG -> f.readArray(pos, (long[]) a);
            case FLOAT -> f.readArray(pos, (float[]) a);
            case DOUBLE -> f.readArray(pos, (double[]) a);
        }
    }

    // ---- the JDK's single-value methods ----

    /** DataOutput.writeX of element i (writeFloat/writeDouble canonicalise NaN, as the JDK does). */
    void jdkWrite(DataOutput out, Object a, int i) throws IOException {
        switch (this) {
            case BOOLEAN -> out.writeBoolean(((boolean[]) a)[i]);
            case BYTE -> out.writeByte(((byte[]) a)[i]);
            case CHAR -> out.writeChar(((char[]) a)[i]);
            case SHORT -> out.writeShort(((short[]) a)[i]);
            case INT -> out.writeInt(((int[]) a)[i]);
            case LONG -> out.writeLong(((long[]) a)[i]);
            case FLOAT -> out.writeFloat(((float[]) a)[i]);
            case DOUBLE -> out.writeDouble(((double[]) a)[i]);
        }
    }

    /** DataInput.readX into element i. */
    void jdkRead(DataInput in, Object a, int i) throws IOException {
        switch (this) {
            case BOOLEAN -> ((boolean[]) a)[i] = in.readBoolean();
            case BYTE -> ((byte[]) a)[i] = in.readByte();
            case CHAR -> ((char[]) a)[i] = in.readChar();
            case SHORT -> ((short[]) a)[i] = in.readShort();
            case INT -> ((int[]) a)[i] = in.readInt();
            case LONG -> ((long[]) a)[i] = in.readLong();
            case FLOAT -> ((float[]) a)[i] = in.readFloat();
            case DOUBLE -> ((double[]) a)[i] = in.readDouble();
        }
    }

    /** What a DataOutputStream writeX loop writes for {@code a[off .. off + n)}. */
    byte[] jdkBytes(Object a, int off, int n) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            for (int i = off; i < off + n; i++) {
                jdkWrite(out, a, i);
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    // ---- raw-bit reference encoding (ByteBuffer) ----

    /** Element i as its raw bits (floats and doubles not canonicalised), in the buffer's order. */
    void putRaw(ByteBuffer bb, Object a, int i) {
        switch (this) {
            case BOOLEAN -> bb.put(((boolean[]) a)[i] ? (byte) 1 : (byte) 0);
            case BYTE -> bb.put(((byte[]) a)[i]);
            case CHAR -> bb.putChar(((char[]) a)[i]);
            case SHORT -> bb.putShort(((short[]) a)[i]);
            case INT -> bb.putInt(((int[]) a)[i]);
            case LONG -> bb.putLong(((long[]) a)[i]);
            case FLOAT -> bb.putInt(Float.floatToRawIntBits(((float[]) a)[i]));
            case DOUBLE -> bb.putLong(Double.doubleToRawLongBits(((double[]) a)[i]));
        }
    }

    /** Element i from the buffer's next bytes (a boolean is true for any non-zero byte). */
    void getRaw(ByteBuffer bb, Object a, int i) {
        switch (this) {
            case BOOLEAN -> ((boolean[]) a)[i] = bb.get() != 0;
            case BYTE -> ((byte[]) a)[i] = bb.get();
            case CHAR -> ((char[]) a)[i] = bb.getChar();
            case SHORT -> ((short[]) a)[i] = bb.getShort();
            case INT -> ((int[]) a)[i] = bb.getInt();
            case LONG -> ((long[]) a)[i] = bb.getLong();
            case FLOAT -> ((float[]) a)[i] = Float.intBitsToFloat(bb.getInt());
            case DOUBLE -> ((double[]) a)[i] = Double.longBitsToDouble(bb.getLong());
        }
    }

    /** {@code a[off .. off + n)} as raw bits in {@code order}: what hpio must write. */
    byte[] rawBytes(Object a, int off, int n, ByteOrder order) {
        ByteBuffer bb = ByteBuffer.allocate(n * size).order(order);
        for (int i = off; i < off + n; i++) {
            putRaw(bb, a, i);
        }
        return bb.array();
    }

    /** The raw bits of a whole array in one order: the canonical form for bit-exact comparisons. */
    static byte[] bits(Object a, int off, int n) {
        return of(a).rawBytes(a, off, n, ByteOrder.BIG_ENDIAN);
    }

    /** Element i as a long holding its raw bits. */
    long rawBits(Object a, int i) {
        return switch (this) {
            case BOOLEAN -> ((boolean[]) a)[i] ? 1 : 0;
            case BYTE -> ((byte[]) a)[i];
            case CHAR -> ((char[]) a)[i];
            case SHORT -> ((short[]) a)[i];
            case INT -> ((int[]) a)[i];
            case LONG -> ((long[]) a)[i];
            case FLOAT -> Float.floatToRawIntBits(((float[]) a)[i]);
            case DOUBLE -> Double.doubleToRawLongBits(((double[]) a)[i]);
        };
    }

    /** True for a NaN that writeFloat/writeDouble would replace by the canonical NaN. */
    boolean isNonCanonicalNaN(Object a, int i) {
        return switch (this) {
            case FLOAT -> {
                float f = ((float[]) a)[i];
                yield Float.isNaN(f) && Float.floatToRawIntBits(f) != Float.floatToIntBits(f);
            }
            case DOUBLE -> {
                double d = ((double[]) a)[i];
                yield Double.isNaN(d) && Double.doubleToRawLongBits(d) != Double.doubleToLongBits(d);
            }
            default -> false;
        };
    }

    /** A copy with every NaN replaced by the canonical NaN: what survives a writeFloat/readFloat round trip. */
    Object canonical(Object a) {
        Object c = copy(a);
        if (this == FLOAT) {
            float[] f = (float[]) c;
            for (int i = 0; i < f.length; i++) {
                f[i] = Float.intBitsToFloat(Float.floatToIntBits(f[i]));
            }
        } else if (this == DOUBLE) {
            double[] d = (double[]) c;
            for (int i = 0; i < d.length; i++) {
                d[i] = Double.longBitsToDouble(Double.doubleToLongBits(d[i]));
            }
        }
        return c;
    }

    /** Random elements; floats and doubles mix ordinary values, special values and NaNs with payloads. */
    Object random(Random r, int n) {
        Object a = newArray(n);
        switch (this) {
            case BOOLEAN -> {
                boolean[] b = (boolean[]) a;
                for (int i = 0; i < n; i++) b[i] = r.nextBoolean();
            }
            case BYTE -> r.nextBytes((byte[]) a);
            case CHAR -> {
                char[] c = (char[]) a;
                for (int i = 0; i < n; i++) c[i] = (char) r.nextInt(1 << 16);
            }
            case SHORT -> {
                short[] s = (short[]) a;
                for (int i = 0; i < n; i++) s[i] = (short) r.nextInt();
            }
            case INT -> {
                int[] v = (int[]) a;
                for (int i = 0; i < n; i++) v[i] = r.nextInt();
            }
            case LONG -> {
                long[] v = (long[]) a;
                for (int i = 0; i < n; i++) v[i] = r.nextLong();
            }
            case FLOAT -> {
                float[] v = (float[]) a;
                for (int i = 0; i < n; i++) v[i] = randomFloat(r);
            }
            case DOUBLE -> {
                double[] v = (double[]) a;
                for (int i = 0; i < n; i++) v[i] = randomDouble(r);
            }
        }
        return a;
    }

    static float randomFloat(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> Float.intBitsToFloat(0x7f800001 + r.nextInt(0x7fffff) | (r.nextBoolean() ? 0x80000000 : 0));
            case 1 -> Float.intBitsToFloat(r.nextInt());
            case 2 -> new float[]{Float.NaN, 0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
                    Float.MIN_VALUE, Float.MAX_VALUE, Float.MIN_NORMAL}[r.nextInt(8)];
            default -> (float) r.nextGaussian() * 1000;
        };
    }

    static double randomDouble(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> Double.longBitsToDouble(0x7ff0000000000001L + (r.nextLong() & 0xfffffffffffffL) % 0xfffffffffffffL
                    | (r.nextBoolean() ? Long.MIN_VALUE : 0));
            case 1 -> Double.longBitsToDouble(r.nextLong());
            case 2 -> new double[]{Double.NaN, 0d, -0d, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                    Double.MIN_VALUE, Double.MAX_VALUE, Double.MIN_NORMAL}[r.nextInt(8)];
            default -> r.nextGaussian() * 1e6;
        };
    }

    // ---- assertions ----

    /** Bit-exact equality of {@code expected[eOff ..]} and {@code actual[aOff ..]} over n elements. */
    static void assertBits(Object expected, int eOff, Object actual, int aOff, int n, String what) {
        Prim p = of(expected);
        if (of(actual) != p) {
            fail(what + ": element types differ");
        }
        for (int i = 0; i < n; i++) {
            long e = p.rawBits(expected, eOff + i);
            long a = p.rawBits(actual, aOff + i);
            if (e != a) {
                fail(what + ": " + p + " element " + i + " (expected index " + (eOff + i) + ", actual index "
                        + (aOff + i) + ") differs: expected bits 0x" + Long.toHexString(e) + " but was 0x"
                        + Long.toHexString(a));
            }
        }
    }

    static void assertBits(Object expected, Object actual, String what) {
        if (length(expected) != length(actual)) {
            fail(what + ": lengths differ: " + length(expected) + " vs " + length(actual));
        }
        assertBits(expected, 0, actual, 0, length(expected), what);
    }

    static String hex(byte[] bytes) {
        return bytes.length > 96 ? HexFormat.of().formatHex(bytes, 0, 96) + "..." : HexFormat.of().formatHex(bytes);
    }
}
