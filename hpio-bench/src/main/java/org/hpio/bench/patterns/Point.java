package org.hpio.bench.patterns;

import org.hpio.bench.data.TestData;

/**
 * One point of a sweep: an access pattern, an operation size and a buffer size (0: unbuffered, each operation
 * one library call), over a file of {@code fileSize} bytes, measured over {@code ops} operations.
 * Operation k is at {@link #position(long)}: sequential, k x opSize; random, a slot drawn from the generator
 * ({@code splitmix64(SEED + k) mod slots}, unsigned, the same in the C program) times opSize. 004 reports the
 * time to move the whole file; {@link #scale()} is the factor from the ops measured to all of them.
 *
 * @param access     the pattern
 * @param opSize     bytes per operation (a power of two)
 * @param bufferSize buffer bytes (0: none); buffered points use 1-byte operations
 * @param fileSize   bytes in the file
 * @param ops        operations measured
 */
record Point(Access access, int opSize, int bufferSize, long fileSize, long ops) {
    static final long SEED = 0x5EED;

    Point {
        if (opSize < 1 || fileSize < opSize || ops < 1) {
            throw new IllegalArgumentException("bad point: op " + opSize + ", file " + fileSize + ", ops " + ops);
        }
        if (bufferSize > 0 && opSize != 1) {
            throw new IllegalArgumentException("buffered points use 1-byte operations, not " + opSize);
        }
    }

    /** Operations that move the whole file once. */
    long totalOps() {
        return fileSize / opSize;
    }

    /** Whole-file time over measured time. */
    double scale() {
        return totalOps() / (double) ops;
    }

    long position(long k) {
        if (!access.random()) {
            return k * opSize;
        }
        return Long.remainderUnsigned(TestData.value(SEED + k), totalOps()) * opSize;
    }

    /** The same point over {@code count} operations. */
    Point withOps(long count) {
        return new Point(access, opSize, bufferSize, fileSize, count);
    }

    boolean buffered() {
        return bufferSize > 0;
    }

    /** The C program's arguments after the file name. */
    String[] cArgs() {
        return new String[] {Long.toString(fileSize), Integer.toString(opSize), Integer.toString(bufferSize),
                Long.toString(ops), Long.toString(SEED)};
    }
}
