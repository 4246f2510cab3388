package org.hpio.archive.order;

import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.archive.trace.Trace;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.archive.trace.TraceRun;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.SequencedSet;

/**
 * Orders the files of an archive so that a program reading them as the trace did seeks as little as possible:
 * the greedy heuristic of 002 §3.3 ("Ordering Files"), step by step.
 * <pre>
 * 1. Prepare DAG of files (§3.3.1)  - every file to place is a node ({@link FileIds}).
 * 2. Record trace (§3.3.2)          - the {@link Trace} given, one or more runs.
 * 3. Construct edge list (§3.3.3)   - runs most recent first; an edge for each pair of consecutive loads,
 *                                     the file cache simulated within each run so that loads it would serve
 *                                     add no edge; stable sort by decreasing frequency ({@link EdgeList}).
 * 4. Generate chains (§3.3.4)       - commit edges greedily unless a cycle results ({@link Chains}).
 * 5. Stitch chains together (§3.3.5) - walk the nodes, output the whole chain of each one not yet output.
 * </pre>
 * Nodes are walked in step 5 in the order their file was first read in step 3 (most recent run first), so
 * chains come out in the order the trace reached them; files the trace never loaded follow, in the order the
 * caller listed them. Loads of files that are not to be placed are ignored. The same input gives the same
 * order. Run time is O(E log E) for E distinct edges plus near-linear chain building.
 */
public final class TraceOrdering {
    private TraceOrdering() {
    }

    /**
     * The order for {@code files} (distinct paths; their order decides where unloaded files go) under the
     * trace, with {@code cache} simulated while the edges are built.
     */
    public static List<String> order(Trace trace, List<String> files, FileCacheModel cache) {
        Objects.requireNonNull(trace, "trace");
        Objects.requireNonNull(cache, "cache");
        FileIds ids = new FileIds(files);
        Chains chains = new Chains(ids.size());
        chains.commitAll(EdgeList.of(trace, ids, cache));
        return stitch(chains, visitOrder(trace, ids), ids);
    }

    /** The files the trace loads, most recent run first, in the order of their first load. */
    public static List<String> tracedFiles(Trace trace) {
        SequencedSet<String> seen = new LinkedHashSet<>();
        for (TraceRun run : trace.runs().reversed()) {
            for (TraceEvent event : run.events()) {
                if (event.isLoad()) {
                    seen.add(event.path());
                }
            }
        }
        return List.copyOf(seen);
    }

    /** Node ids in the order step 5 walks them: first read in step 3's run order, then the unloaded ones. */
    private static SequencedSet<Integer> visitOrder(Trace trace, FileIds ids) {
        SequencedSet<Integer> order = new LinkedHashSet<>();
        for (String path : tracedFiles(trace)) {
            int id = ids.id(path);
            if (id >= 0) {
                order.add(id);
            }
        }
        for (int id = 0; id < ids.size(); id++) {
            order.add(id);
        }
        return order;
    }

    private static List<String> stitch(Chains chains, SequencedSet<Integer> visitOrder, FileIds ids) {
        boolean[] output = new boolean[ids.size()];
        List<String> order = new ArrayList<>(ids.size());
        for (int node : visitOrder) {
            if (output[node]) {
                continue;
            }
            for (int f = chains.head(node); f >= 0; f = chains.next(f)) {
                output[f] = true;
                order.add(ids.path(f));
            }
        }
        return List.copyOf(order);
    }
}
