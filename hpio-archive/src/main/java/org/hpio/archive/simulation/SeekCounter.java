package org.hpio.archive.simulation;

import org.hpio.archive.trace.Trace;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.archive.trace.TraceRun;

import java.util.ArrayList;
import java.util.List;

/**
 * Counts the seeks a trace incurs on an archive layout (002 §4.3: "comparing current I/O file and offset with
 * the last known values"): replaying the loads through a simulated file cache, a read is a seek when it does
 * not start where the previous read ended. Each run is replayed alone, with a fresh cache, as the paper's
 * "individual sequences"; the whole trace is replayed as one sequence with one cache, as its "combined trace"
 * (so the cache carries over from one run to the next and a jump between runs is a seek).
 */
public final class SeekCounter {
    /**
     * The seeks of each run and of the whole trace.
     *
     * @param runs       one entry per run of the trace, in its order
     * @param wholeTrace the trace replayed as one sequence
     */
    public record Report(List<Seeks> runs, Seeks wholeTrace) {
        /** Copies the list. */
        public Report {
            runs = List.copyOf(runs);
        }

        /** The per-run figures added up (each run with its own cold cache). */
        public Seeks sumOfRuns() {
            return runs.stream().reduce(new Seeks(0, 0, 0, 0), Seeks::plus);
        }
    }

    private SeekCounter() {
    }

    /** Replays {@code trace} on {@code layout} with {@code cache}. */
    public static Report count(Trace trace, Layout layout, FileCacheModel cache) {
        List<Seeks> runs = new ArrayList<>();
        for (TraceRun run : trace.runs()) {
            runs.add(new Replay(layout, cache.start()).replay(run).result());
        }
        Replay whole = new Replay(layout, cache.start());
        trace.runs().forEach(whole::replay);
        return new Report(runs, whole.result());
    }

    /** One sequence of loads on one cache; tracks where the last read ended. */
    private static final class Replay {
        private final Layout layout;
        private final FileCacheSimulation cache;
        private long headAt = -1;
        private int loads;
        private int cacheHits;
        private int seeks;
        private int notInLayout;

        Replay(Layout layout, FileCacheSimulation cache) {
            this.layout = layout;
            this.cache = cache;
        }

        Replay replay(TraceRun run) {
            for (TraceEvent event : run.events()) {
                if (event.isLoad()) {
                    load(event);
                } else {
                    cache.free(event.path(), event.size());
                }
            }
            return this;
        }

        private void load(TraceEvent event) {
            loads++;
            Layout.Extent extent = layout.extent(event.path());
            if (extent == null) {
                notInLayout++;
                return;
            }
            if (cache.load(event.path(), event.size())) {
                cacheHits++;
                return;
            }
            if (headAt >= 0 && extent.start() != headAt) {
                seeks++;
            }
            headAt = extent.end();
        }

        Seeks result() {
            return new Seeks(loads, cacheHits, seeks, notInLayout);
        }
    }
}
