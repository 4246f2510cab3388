package org.hpio.archive.order;

import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.archive.simulation.FileCacheSimulation;
import org.hpio.archive.trace.Trace;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.archive.trace.TraceRun;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Step 3 of 002 §3.3 ("Construct Edge List", §3.3.3): the pairs of files read one right after the other, with
 * how often. Runs are processed most recent first; within each run a fresh file cache is simulated, and a load
 * it would serve adds no edge (the next edge starts from the last file actually read). The edges are sorted by
 * decreasing frequency with a stable sort, so edges of equal frequency keep the order they were first seen in.
 */
final class EdgeList {
    /** A directed edge {@code from -> to} between file ids, and how often it was seen. */
    static final class Edge {
        final int from;
        final int to;
        int frequency;

        Edge(int from, int to) {
            this.from = from;
            this.to = to;
        }
    }

    private EdgeList() {
    }

    /**
     * The edges of {@code trace} between files that {@code ids} knows, most frequent first. Loads of files
     * that {@code ids} does not know are skipped. {@code ids} gains no entries.
     */
    static List<Edge> of(Trace trace, FileIds ids, FileCacheModel cache) {
        Map<Long, Edge> byPair = new HashMap<>();
        List<Edge> firstSeenOrder = new ArrayList<>();
        for (TraceRun run : trace.runs().reversed()) {
            addRun(run, ids, cache.start(), byPair, firstSeenOrder);
        }
        List<Edge> sorted = new ArrayList<>(firstSeenOrder);
        sorted.sort((a, b) -> Integer.compare(b.frequency, a.frequency));   // List.sort is stable
        return sorted;
    }

    private static void addRun(TraceRun run, FileIds ids, FileCacheSimulation cache, Map<Long, Edge> byPair,
                               List<Edge> firstSeenOrder) {
        int previous = -1;
        for (TraceEvent event : run.events()) {
            int id = ids.id(event.path());
            if (id < 0) {
                continue;
            }
            if (!event.isLoad()) {
                cache.free(event.path(), event.size());
                continue;
            }
            if (cache.load(event.path(), event.size())) {
                continue;
            }
            if (previous >= 0 && previous != id) {
                Edge edge = byPair.get(pairKey(previous, id));
                if (edge == null) {
                    edge = new Edge(previous, id);
                    byPair.put(pairKey(previous, id), edge);
                    firstSeenOrder.add(edge);
                }
                edge.frequency++;
            }
            previous = id;
        }
    }

    private static long pairKey(int from, int to) {
        return ((long) from << 32) | (to & 0xffffffffL);
    }
}
