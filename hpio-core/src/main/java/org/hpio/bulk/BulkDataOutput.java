package org.hpio.bulk;

import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteOrder;

/**
 * {@link DataOutput} with bulk writes of whole primitive arrays (000 §3, 001 §5): one call per array, not one
 * per element.
 *
 * <p>The bytes written are exactly those of {@code DataOutputStream}'s {@code writeX} loop (big-endian) unless
 * the object was made with another {@link ByteOrder}; in the machine's native order no byte is swapped. A
 * boolean is one byte, 1 or 0. Floats and doubles are written bit for bit: identical to {@code writeFloat}
 * and {@code writeDouble} for every value except non-canonical NaNs, whose payload is kept here where
 * {@code writeFloat} would replace it with the canonical NaN.
 *
 * <p>Errors change nothing they need not: a bad {@code offset}/{@code count} throws
 * {@link IndexOutOfBoundsException} before any I/O.
 */
public interface BulkDataOutput extends DataOutput {
    /** The byte order of the array methods: big-endian ({@code DataOutputStream}'s) unless chosen otherwise. */
    ByteOrder arrayOrder();

    /** Writes every element of {@code array}. */
    default void writeArray(boolean[] array) throws IOException {
        writeArray(array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)}. */
    void writeArray(boolean[] array, int offset, int count) throws IOException;

    /** Writes every element of {@code array}. */
    default void writeArray(byte[] array) throws IOException {
        writeArray(array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)}. */
    void writeArray(byte[] array, int offset, int count) throws IOException;

    /** Writes every element of {@code array}. */
    default void writeArray(char[] array) throws IOException {
        writeArray(array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)}. */
    void writeArray(char[] array, int offset, int count) throws IOException;

    /** Writes every element of {@code array}. */
    default void writeArray(short[] array) throws IOException {
        writeArray(array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)}. */
    void writeArray(short[] array, int offset, int count) throws IOException;

    /** Writes every element of {@code array}. */
    default void writeArray(int[] array) throws IOException {
        writeArray(array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)}. */
    void writeArray(int[] array, int offset, int count) throws IOException;

    /** Writes every element of {@code array}. */
    default void writeArray(long[] array) throws IOException {
        writeArray(array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)}. */
    void writeArray(long[] array, int offset, int count) throws IOException;

    /** Writes every element of {@code array}. */
    default void writeArray(float[] array) throws IOException {
        writeArray(array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)}. */
    void writeArray(float[] array, int offset, int count) throws IOException;

    /** Writes every element of {@code array}. */
    default void writeArray(double[] array) throws IOException {
        writeArray(array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)}. */
    void writeArray(double[] array, int offset, int count) throws IOException;

    /**
     * Writes an array of arrays of a primitive type ({@code double[][]}, {@code int[][][]}, ragged allowed):
     * its rows back to back, row 0 first, nested arrays depth-first; no shape is written. Null rows or a
     * non-primitive element type are rejected before any I/O.
     */
    void writeArray(Object[] nested) throws IOException;
}
