package org.hpio.archive.simulation;

/**
 * What one replay of loads cost (002 §4.3).
 *
 * @param loads        the loads replayed
 * @param cacheHits    loads the simulated file cache served (no I/O)
 * @param seeks        reads that did not start where the previous read ended (the first read of a replay is
 *                     not counted: where the head was is unknown, as the paper excludes opening the archive)
 * @param notInLayout  loads of files that are not in the archive (unavoidable seeks, reported apart as 002's
 *                     footnote 7 does)
 */
public record Seeks(int loads, int cacheHits, int seeks, int notInLayout) {
    /** Reads from the archive: loads that the cache did not serve, of files in the archive. */
    public int reads() {
        return loads - cacheHits - notInLayout;
    }

    /** Seeks as a share of all loads, 0 when there were none. */
    public double seekShare() {
        return loads == 0 ? 0 : (double) seeks / loads;
    }

    /** The sum of this and {@code other}. */
    public Seeks plus(Seeks other) {
        return new Seeks(loads + other.loads, cacheHits + other.cacheHits, seeks + other.seeks,
                notInLayout + other.notInLayout);
    }
}
