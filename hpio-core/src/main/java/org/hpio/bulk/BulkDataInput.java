package org.hpio.bulk;

import java.io.DataInput;
import java.io.IOException;
import java.nio.ByteOrder;

/**
 * {@link DataInput} with bulk reads of whole primitive arrays (000 §3, 001 §5): one call per array, not one
 * per element, with a constant number of method calls per array.
 *
 * <p>The bytes read are those {@code DataOutputStream}'s {@code writeX} loop writes (big-endian) unless the
 * object was made with another {@link ByteOrder}; in the machine's native order no byte is swapped. A boolean
 * is one byte and reads as {@code DataInputStream.readBoolean} reads it (non-zero is true). Floats and doubles
 * are taken bit for bit. The inherited single-value methods ({@code readInt}, ...) are {@code DataInput}'s and
 * always big-endian; they can be interleaved freely with array reads.
 *
 * <p>Errors change nothing they need not: a bad {@code offset}/{@code count} throws
 * {@link IndexOutOfBoundsException} before any I/O; a stream that ends early throws
 * {@link java.io.EOFException} saying how many elements were read.
 */
public interface BulkDataInput extends DataInput {
    /** The byte order of the array methods: big-endian ({@code DataOutputStream}'s) unless chosen otherwise. */
    ByteOrder arrayOrder();

    /** Reads {@code array.length} booleans. */
    default void readArray(boolean[] array) throws IOException {
        readArray(array, 0, array.length);
    }

    /** Reads {@code count} booleans into {@code array[offset .. offset + count)}. */
    void readArray(boolean[] array, int offset, int count) throws IOException;

    /** Reads {@code array.length} bytes. */
    default void readArray(byte[] array) throws IOException {
        readArray(array, 0, array.length);
    }

    /** Reads {@code count} bytes into {@code array[offset .. offset + count)}. */
    void readArray(byte[] array, int offset, int count) throws IOException;

    /** Reads {@code array.length} chars. */
    default void readArray(char[] array) throws IOException {
        readArray(array, 0, array.length);
    }

    /** Reads {@code count} chars into {@code array[offset .. offset + count)}. */
    void readArray(char[] array, int offset, int count) throws IOException;

    /** Reads {@code array.length} shorts. */
    default void readArray(short[] array) throws IOException {
        readArray(array, 0, array.length);
    }

    /** Reads {@code count} shorts into {@code array[offset .. offset + count)}. */
    void readArray(short[] array, int offset, int count) throws IOException;

    /** Reads {@code array.length} ints. */
    default void readArray(int[] array) throws IOException {
        readArray(array, 0, array.length);
    }

    /** Reads {@code count} ints into {@code array[offset .. offset + count)}. */
    void readArray(int[] array, int offset, int count) throws IOException;

    /** Reads {@code array.length} longs. */
    default void readArray(long[] array) throws IOException {
        readArray(array, 0, array.length);
    }

    /** Reads {@code count} longs into {@code array[offset .. offset + count)}. */
    void readArray(long[] array, int offset, int count) throws IOException;

    /** Reads {@code array.length} floats. */
    default void readArray(float[] array) throws IOException {
        readArray(array, 0, array.length);
    }

    /** Reads {@code count} floats into {@code array[offset .. offset + count)}. */
    void readArray(float[] array, int offset, int count) throws IOException;

    /** Reads {@code array.length} doubles. */
    default void readArray(double[] array) throws IOException {
        readArray(array, 0, array.length);
    }

    /** Reads {@code count} doubles into {@code array[offset .. offset + count)}. */
    void readArray(double[] array, int offset, int count) throws IOException;

    /**
     * Reads an array of arrays of a primitive type ({@code double[][]}, {@code int[][][]}, ragged allowed):
     * its rows back to back, row 0 first, nested arrays depth-first. The shape is the caller's: every row must
     * already exist with its length. Null rows or a non-primitive element type are rejected before any I/O.
     */
    void readArray(Object[] nested) throws IOException;
}
