package org.hpio.bench.engine;

import java.util.Arrays;
import java.util.List;

/**
 * The engine suite's queue depths and durations. Defaults: random reads at 1, 4, 16, 32, 64; sequential at 1
 * and 8; warm reads at 1 and 32; 2 s per configuration after an untimed, checked warm-up of a sixth of that;
 * 3 interleaved rounds. {@value #SECONDS_PROPERTY}, {@value #DEPTHS_PROPERTY} (comma-separated) and
 * {@value #ROUNDS_PROPERTY} change the duration, the random-read depths and the rounds.
 *
 * @param randomDepths     queue depths of the 4 KiB O_DIRECT random reads
 * @param sequentialDepths queue depths of the 1 MiB O_DIRECT sequential reads and writes
 * @param warmDepths       queue depths of the 4 KiB buffered reads from a warm page cache
 * @param seconds          timed duration of each configuration
 * @param warmupSeconds    untimed (still checked) run before it, with the same driver
 * @param rounds           how many times every configuration runs (interleaved); the median is reported
 */
record EngineSettings(List<Integer> randomDepths, List<Integer> sequentialDepths, List<Integer> warmDepths,
                      double seconds, double warmupSeconds, int rounds) {
    static final String SECONDS_PROPERTY = "hpio.bench.engine.seconds";
    static final String DEPTHS_PROPERTY = "hpio.bench.engine.qds";
    static final String ROUNDS_PROPERTY = "hpio.bench.engine.rounds";
    static final int DEFAULT_ROUNDS = 3;
    static final double DEFAULT_SECONDS = 2.0;
    /** Seconds per configuration in a quick run ({@code hpio bench} without {@code --full}). */
    static final double QUICK_SECONDS = 0.25;
    /** The queue depth of the targets, when measured. */
    static final int TARGET_DEPTH = 32;

    EngineSettings {
        randomDepths = List.copyOf(randomDepths);
        sequentialDepths = List.copyOf(sequentialDepths);
        warmDepths = List.copyOf(warmDepths);
        for (List<Integer> depths : List.of(randomDepths, sequentialDepths, warmDepths)) {
            if (depths.isEmpty() || depths.stream().anyMatch(d -> d < 1 || d > 4096)) {
                throw new IllegalArgumentException("queue depths must be in 1..4096: " + depths);
            }
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be at least 1: " + rounds);
        }
        if (!(seconds > 0) || !(warmupSeconds >= 0)) {
            throw new IllegalArgumentException("durations must be positive: " + seconds + ", " + warmupSeconds);
        }
    }

    static EngineSettings defaults() {
        return defaults(false);
    }

    /**
     * The defaults; {@code quick}: {@link #QUICK_SECONDS} per configuration and random reads at queue depths 1 and
     * 32 only, unless the properties say otherwise.
     */
    static EngineSettings defaults(boolean quick) {
        double seconds = Double.parseDouble(System.getProperty(SECONDS_PROPERTY,
                Double.toString(quick ? QUICK_SECONDS : DEFAULT_SECONDS)));
        // A quick run measures the random reads at the depths the targets use (1 and 32) only.
        List<Integer> depths = Arrays.stream(System.getProperty(DEPTHS_PROPERTY, quick ? "1,32" : "1,4,16,32,64").split(","))
                .map(String::strip).map(Integer::valueOf).toList();
        int rounds = Integer.getInteger(ROUNDS_PROPERTY, DEFAULT_ROUNDS);
        return new EngineSettings(depths, List.of(1, 8), List.of(1, 32), seconds, seconds / 6, rounds);
    }

    /** The random-read depth the targets are computed at: 32 when measured, else the deepest measured. */
    int targetDepth() {
        return randomDepths.contains(TARGET_DEPTH) ? TARGET_DEPTH
                : randomDepths.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    long nanos() {
        return Math.round(seconds * 1e9);
    }

    long warmupNanos() {
        return Math.round(warmupSeconds * 1e9);
    }
}
