package org.hpio.bench.bulk;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * One way a Java program reads or writes a block of a file of ints or longs: the configurations of 000 Table 1
 * and the approaches of 001 §3, plus what a developer writes today and hpio's bulk classes. Each call opens the
 * file itself, as each thread of 001's experiment creates its own RandomAccessFile, and closes it again.
 */
public interface Approach {
    /** The configuration's name as the papers give it ({@code raf}, {@code dsb}, {@code bulkraf}, ...). */
    String name();

    /** What it is, in a phrase, for the report. */
    String description();

    /** True when the approach makes one library call per element: slow, so it may run on a prefix. */
    default boolean perElement() {
        return false;
    }

    /** The byte order of the file it reads and writes. */
    default ByteOrder fileOrder() {
        return ByteOrder.BIG_ENDIAN;
    }

    /** Reads {@code count} elements at byte {@code position} into {@code array[offset ..]} (an int[] or long[]). */
    void read(Path file, long position, Object array, int offset, int count) throws IOException;

    /** Writes {@code array[offset .. offset + count)} at byte {@code position} of an existing file. */
    void write(Path file, long position, Object array, int offset, int count) throws IOException;
}
