package org.hpio.bench.patterns;

import java.util.ArrayList;
import java.util.List;

/**
 * The two sweeps of 004 and how many operations each point measures. Operation size (Tests 1 and 4, no
 * buffer): 1 B to 1 MiB by factors of 4. Buffer size (Tests 2 and 3, 1-byte operations): 16 B to 4 MiB by
 * factors of 4, and 10 MiB. Points are bounded so the whole suite runs in minutes: an unbuffered point makes at
 * most {@link #MAX_CALLS} calls; a sequential buffered one covers the file or {@link #MAX_CALLS} refills; a
 * random buffered one (each operation likely moves a whole buffer) makes {@link #RANDOM_BUFFER_BYTES} / buffer
 * operations, at least {@link #MIN_RANDOM_OPS} and at most {@link #MAX_CALLS}. Each figure is then reported
 * per whole file (the operations that move the file once), with the operations measured beside it.
 */
final class Sweeps {
    static final long MAX_CALLS = 1 << 18;
    static final long RANDOM_BUFFER_BYTES = 64L << 20;
    static final long MIN_RANDOM_OPS = 64;
    /** A quick run ({@code hpio bench} without {@code --full}): at most this many calls per point. */
    static final long QUICK_MAX_CALLS = 1 << 14;
    /** A quick run: the sweeps step by this factor instead of 4 (every other point), ends kept. */
    static final int QUICK_STEP = 16;

    enum Kind {
        OPERATION("op", "operation size (bytes), no buffer"),
        BUFFER("buffer", "buffer size (bytes), 1-byte operations");

        final String key;
        final String xLabel;

        Kind(String key, String xLabel) {
            this.key = key;
            this.xLabel = xLabel;
        }
    }

    private Sweeps() {
    }

    static List<Integer> operationSizes(long fileSize) {
        return operationSizes(fileSize, 4);
    }

    static List<Integer> operationSizes(long fileSize, int step) {
        List<Integer> sizes = new ArrayList<>();
        for (int s = 1; s <= 1 << 20 && s <= fileSize; s *= step) {
            sizes.add(s);
        }
        return sizes;
    }

    static List<Integer> bufferSizes(long fileSize) {
        return bufferSizes(fileSize, 4);
    }

    static List<Integer> bufferSizes(long fileSize, int step) {
        List<Integer> sizes = new ArrayList<>();
        for (int s = 16; s <= 4 << 20 && s <= fileSize; s *= step) {
            sizes.add(s);
        }
        if (10L << 20 <= fileSize) {
            sizes.add(10 << 20);
        }
        return sizes;
    }

    /** Every point of {@code kind} for {@code access} over a file of {@code fileSize} bytes. */
    static List<Point> points(Kind kind, Access access, long fileSize) {
        return points(kind, access, fileSize, false);
    }

    /** {@code quick}: every {@link #QUICK_STEP}-th size, {@link #QUICK_MAX_CALLS} calls at most (the full sweep otherwise). */
    static List<Point> points(Kind kind, Access access, long fileSize, boolean quick) {
        List<Point> points = new ArrayList<>();
        int step = quick ? QUICK_STEP : 4;
        long maxCalls = quick ? QUICK_MAX_CALLS : MAX_CALLS;
        if (kind == Kind.OPERATION) {
            for (int op : operationSizes(fileSize, step)) {
                points.add(new Point(access, op, 0, fileSize, Math.min(fileSize / op, maxCalls)));
            }
        } else {
            for (int buffer : bufferSizes(fileSize, step)) {
                long ops = access.random()
                        ? Math.min(maxCalls, Math.max(MIN_RANDOM_OPS, RANDOM_BUFFER_BYTES / buffer))
                        : Math.min(fileSize, maxCalls * buffer);
                points.add(new Point(access, 1, buffer, fileSize, Math.min(ops, fileSize)));
            }
        }
        return points;
    }
}
