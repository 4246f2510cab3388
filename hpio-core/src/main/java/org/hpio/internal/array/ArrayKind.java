package org.hpio.internal.array;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Array;
import java.nio.ByteOrder;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * The eight primitive array types, and the conversion between their elements and bytes in either byte order.
 *
 * <p>The byte form is the one {@code DataOutputStream.writeX} writes when the order is big-endian: a boolean
 * is one byte (1 or 0; any non-zero byte reads as true), a char or short two bytes, and floats and doubles
 * their raw IEEE bits. Unlike {@code writeFloat}, which canonicalises NaN through {@code floatToIntBits},
 * the raw bits are kept, so every NaN payload round-trips; all other values give identical bytes.
 *
 * <p>Conversions run as one bulk copy ({@link MemorySegment#copy}, which swaps in bulk when the order is not
 * the machine's), never one call per element; booleans, which have no segment view, go through a loop.
 */
public enum ArrayKind {
    BOOLEAN(boolean[].class, null),
    BYTE(byte[].class, JAVA_BYTE),
    CHAR(char[].class, JAVA_CHAR_UNALIGNED),
    SHORT(short[].class, JAVA_SHORT_UNALIGNED),
    INT(int[].class, JAVA_INT_UNALIGNED),
    LONG(long[].class, JAVA_LONG_UNALIGNED),
    FLOAT(float[].class, JAVA_FLOAT_UNALIGNED),
    DOUBLE(double[].class, JAVA_DOUBLE_UNALIGNED);

    private final Class<?> arrayClass;
    private final ValueLayout layout;
    private final int size;

    ArrayKind(Class<?> arrayClass, ValueLayout layout) {
        this.arrayClass = arrayClass;
        this.layout = layout;
        this.size = layout == null ? 1 : (int) layout.byteSize();
    }

    /** The kind of a one-dimensional primitive array; IllegalArgumentException for anything else. */
    public static ArrayKind of(Object array) {
        Objects.requireNonNull(array, "array");
        for (ArrayKind kind : values()) {
            if (kind.arrayClass == array.getClass()) {
                return kind;
            }
        }
        throw new IllegalArgumentException("not a one-dimensional primitive array: " + array.getClass().getTypeName());
    }

    /** Bytes per element. */
    public int elementSize() {
        return size;
    }

    /** The Java name of the element type ("int", "double", ...). */
    public String typeName() {
        return arrayClass.getComponentType().getName();
    }

    public int length(Object array) {
        return Array.getLength(array);
    }

    /** Checks {@code [offset, offset + count)} against the array: IndexOutOfBoundsException before any I/O. */
    public void checkRange(Object array, int offset, int count) {
        Objects.checkFromIndexSize(offset, count, length(array));
    }

    public long byteSize(long count) {
        return count * size;
    }

    /**
     * The array's elements as a heap segment, for the no-copy native-order path; null for boolean[], whose
     * byte form is not its memory form.
     */
    public MemorySegment heapSegment(Object array) {
        return switch (this) {
            case BOOLEAN -> null;
            case BYTE -> MemorySegment.ofArray((byte[]) array);
            case CHAR -> MemorySegment.ofArray((char[]) array);
            case SHORT -> MemorySegment.ofArray((short[]) array);
            case INT -> MemorySegment.ofArray((int[]) array);
            case LONG -> MemorySegment.ofArray((long[]) array);
            case FLOAT -> MemorySegment.ofArray((float[]) array);
            case DOUBLE -> MemorySegment.ofArray((double[]) array);
        };
    }

    /** True when the bytes in {@code order} are the array's own memory (no swap, no boolean mapping). */
    public boolean isMemoryForm(ByteOrder order) {
        return this != BOOLEAN && (size == 1 || order == ByteOrder.nativeOrder());
    }

    /** Bytes to elements: {@code count} elements from {@code src} at {@code srcOffset} into {@code array}. */
    public void decode(MemorySegment src, long srcOffset, ByteOrder order, Object array, int index, int count) {
        if (this == BOOLEAN) {
            boolean[] booleans = (boolean[]) array;
            for (int i = 0; i < count; i++) {
                booleans[index + i] = src.get(JAVA_BYTE, srcOffset + i) != 0;
            }
        } else {
            MemorySegment.copy(src, layout.withOrder(order), srcOffset, array, index, count);
        }
    }

    /** Turns {@code count} elements at the start of {@code segment} from {@code order} into native order, in place. */
    public void swapInPlace(MemorySegment segment, ByteOrder order, int count) {
        if (this == BOOLEAN) {
            throw new UnsupportedOperationException("booleans are not swapped");
        }
        MemorySegment.copy(segment, layout.withOrder(order), 0, segment, layout.withOrder(ByteOrder.nativeOrder()), 0, count);
    }

    /** Elements to bytes: {@code count} elements of {@code array} into {@code dst} at {@code dstOffset}. */
    public void encode(Object array, int index, int count, ByteOrder order, MemorySegment dst, long dstOffset) {
        if (this == BOOLEAN) {
            boolean[] booleans = (boolean[]) array;
            for (int i = 0; i < count; i++) {
                dst.set(JAVA_BYTE, dstOffset + i, booleans[index + i] ? (byte) 1 : (byte) 0);
            }
        } else {
            MemorySegment.copy(array, index, dst, layout.withOrder(order), dstOffset, count);
        }
    }
}
