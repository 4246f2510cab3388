package org.hpio.archive.simulation;

import org.hpio.archive.trace.Trace;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.archive.trace.TraceRun;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Deterministic synthetic load traces for the cache simulations.
 */
public final class SyntheticTraces {
    private SyntheticTraces() {
    }

    /**
     * Repeats spaced widely apart, as in 002 §4.4's trace of three map loads: each of {@code runs} runs first
     * loads the same {@code shared} files (the engine's common data), then {@code unique} files of its own (the
     * map's), so that a file recurs only after everything another run loaded. Sizes are log-uniform: shared files
     * from 1 KiB to {@code sharedMax}, a run's own files from 1 KiB to 2 MiB. The same arguments always give the
     * same trace.
     */
    public static Trace widelySpacedRepeats(int runs, int shared, long sharedMax, int unique, long seed) {
        Random random = new Random(seed);
        List<Long> sharedSizes = new ArrayList<>();
        for (int i = 0; i < shared; i++) {
            sharedSizes.add(logUniform(random, 1 << 10, sharedMax));
        }
        List<TraceRun> out = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            List<TraceEvent> events = new ArrayList<>();
            double t = 1.0;
            for (int i = 0; i < shared; i++) {
                events.add(TraceEvent.load(t += 0.001, "common/file" + i + ".dat", sharedSizes.get(i)));
            }
            for (int i = 0; i < unique; i++) {
                events.add(TraceEvent.load(t += 0.001, "run" + r + "/file" + i + ".dat", logUniform(random, 1 << 10, 2 << 20)));
            }
            out.add(new TraceRun(events));
        }
        return new Trace(out);
    }

    /** As {@link #widelySpacedRepeats(int, int, long, int, long)} with shared files as large as the others (to 2 MiB). */
    public static Trace widelySpacedRepeats(int runs, int shared, int unique, long seed) {
        return widelySpacedRepeats(runs, shared, 2 << 20, unique, seed);
    }

    /**
     * The default synthetic trace of the figures: 3 runs, 150 shared files of 1 KiB to 256 KiB (common data:
     * scripts, configuration, small textures; the shared trace's repeated Python modules are small too), 600
     * files of each run's own of 1 KiB to 2 MiB (map assets).
     */
    public static Trace widelySpacedRepeats() {
        return widelySpacedRepeats(3, 150, 256 << 10, 600, 2006);
    }

    /**
     * The adversarial variant: shared files as large as the runs' own. Once the cache holds a whole run (above
     * about 200 MB here), LRU keeps every shared file, while Landlord with uniform cost, which has charged no
     * rent before its first eviction, evicts the largest files first, shared ones among them.
     */
    public static Trace widelySpacedRepeatsEqualSizes() {
        return widelySpacedRepeats(3, 150, 2 << 20, 600, 2006);
    }

    private static long logUniform(Random random, long min, long max) {
        double l = Math.log(min) + random.nextDouble() * (Math.log(max) - Math.log(min));
        return Math.round(Math.exp(l));
    }
}
