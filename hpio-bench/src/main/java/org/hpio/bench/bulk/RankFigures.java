package org.hpio.bench.bulk;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Each rank's own MB/s (its block over its own time) in the last ranked run of each approach and operation,
 * as the ranks exchanged them: every rank holds all of them, and rank 0's report shows the fastest and the
 * slowest rank, which on a cluster points at a slow node.
 */
public final class RankFigures {
    private final Map<String, double[]> last = new HashMap<>();

    void record(String approach, SharedFileRun.Op op, double[] mbPerSecondByRank) {
        last.put(approach + " " + op, mbPerSecondByRank.clone());
    }

    /** Every rank's MB/s in the last run of {@code approach} doing {@code op}, by rank. */
    public Optional<double[]> last(String approach, SharedFileRun.Op op) {
        return Optional.ofNullable(last.get(approach + " " + op)).map(double[]::clone);
    }
}
