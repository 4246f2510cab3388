package org.hpio.bench.measure;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The JIT compiler's CPU time in this JVM, from each compiler thread's {@code /proc/self/task/TID/schedstat}
 * (nanoseconds on a CPU), so that a row's timed run starts in steady state: a short warm-up can leave C2 still
 * compiling the hot path, and that compile time would count in the row's CPU per I/O (the process's CPU time
 * includes every thread's). The row warms up for its warm-up seconds, then on in slices until a slice's
 * compiler time falls under {@value #QUIET_SHARE} of it (or a cap); its figures then say how much compiler
 * time fell in the timed run anyway. The nio suite's rows use it for their CPU per I/O, the archive suite's
 * replays (tens of milliseconds each, their per-file path still compiling after the usual warm-up) for speed.
 *
 * <p>It reads /proc with {@code java.io}, which no {@code FileSystemProvider} serves: under hpio's provider a
 * {@code Files} read would queue behind the row's own reads in the engine it measures.
 */
public final class JitQuiet {
    /** The share of a slice's wall time the compiler threads may use and still count as quiet. */
    public static final double QUIET_SHARE = 0.02;
    public static final long SLICE_NANOS = 250_000_000L;
    public static final long MAX_EXTRA_NANOS = 5_000_000_000L;
    /** The extra warm-up is at most this many times the row's own warm-up (a tiny test row stays tiny). */
    public static final int MAX_EXTRA_PER_WARMUP = 5;

    /** One slice of the row's own workload, run for about {@code nanos}. */
    @FunctionalInterface
    public interface Slice {
        void run(long nanos) throws Exception;
    }

    private JitQuiet() {
    }

    /**
     * Runs {@code slice} until the compiler threads were quiet through one slice, or {@link #MAX_EXTRA_NANOS}
     * ({@link #MAX_EXTRA_PER_WARMUP} times {@code warmupSeconds} if less); returns the nanoseconds spent. Without
     * schedstat, it returns at once.
     */
    public static long warmUntilQuiet(double warmupSeconds, Slice slice) throws Exception {
        return warmUntilQuiet(warmupSeconds, MAX_EXTRA_NANOS, slice);
    }

    /** {@link #warmUntilQuiet(double, Slice)}, for at most {@code maxNanos} (a caller's budget left). */
    public static long warmUntilQuiet(double warmupSeconds, long maxNanos, Slice slice) throws Exception {
        long cap = Math.min(Math.min(MAX_EXTRA_NANOS, maxNanos), (long) (warmupSeconds * MAX_EXTRA_PER_WARMUP * 1e9));
        long start = System.nanoTime();
        while (System.nanoTime() - start < cap) {
            long before = compilerCpuNanos();
            if (before < 0) {
                break;
            }
            long sliceStart = System.nanoTime();
            slice.run(Math.min(SLICE_NANOS, cap));
            long spent = compilerCpuNanos() - before;
            if (spent < QUIET_SHARE * (System.nanoTime() - sliceStart)) {
                break;
            }
        }
        return System.nanoTime() - start;
    }

    /** The CPU time of this JVM's C1 and C2 compiler threads so far, ns; -1 where /proc has no schedstat. */
    public static long compilerCpuNanos() {
        String[] tasks = new File("/proc/self/task").list();
        if (tasks == null) {
            return -1;
        }
        long sum = 0;
        for (String task : tasks) {
            sum += compilerThreadNanos(new File("/proc/self/task", task));
        }
        return sum;
    }

    private static long compilerThreadNanos(File task) {
        try {
            if (!read(new File(task, "comm")).contains("CompilerThre")) {
                return 0;
            }
            String schedstat = read(new File(task, "schedstat")).trim();
            return Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
        } catch (IOException | RuntimeException e) {
            return 0; // the thread ended meanwhile
        }
    }

    private static String read(File file) throws IOException {
        try (FileInputStream in = new FileInputStream(file)) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }
}
