package org.hpio.archive.order;

import java.util.Arrays;
import java.util.List;

/**
 * Step 4 of 002 §3.3 ("Generate Chains", §3.3.4): edges are committed greedily in the order given, each making
 * its target the file right after its source, unless the source already has a successor, the target already
 * has a predecessor, or the edge would close a cycle; committed edges are never removed. The result is a set of
 * disjoint chains. The paper detects cycles by walking the chain; a union-find over chain membership answers
 * the same question in near-constant time, so 100,000 files order in well under a second.
 */
final class Chains {
    private final int[] next;
    private final int[] previous;
    private final int[] unionParent;

    /** {@code fileCount} files, each a chain of its own. */
    Chains(int fileCount) {
        next = new int[fileCount];
        previous = new int[fileCount];
        unionParent = new int[fileCount];
        Arrays.fill(next, -1);
        Arrays.fill(previous, -1);
        Arrays.setAll(unionParent, i -> i);
    }

    /** Commits every edge that keeps each file at most one predecessor and one successor and makes no cycle. */
    void commitAll(List<EdgeList.Edge> edgesMostFrequentFirst) {
        for (EdgeList.Edge edge : edgesMostFrequentFirst) {
            commit(edge.from, edge.to);
        }
    }

    /** Makes {@code to} follow {@code from} if allowed; returns whether it did. */
    boolean commit(int from, int to) {
        if (next[from] >= 0 || previous[to] >= 0) {
            return false;
        }
        int fromChain = chainOf(from);
        int toChain = chainOf(to);
        if (fromChain == toChain) {
            return false;                      // from and to are already on one chain: a cycle would result
        }
        next[from] = to;
        previous[to] = from;
        unionParent[toChain] = fromChain;
        return true;
    }

    /** The representative of the chain {@code file} is on (union-find with path halving). */
    private int chainOf(int file) {
        int f = file;
        while (unionParent[f] != f) {
            unionParent[f] = unionParent[unionParent[f]];
            f = unionParent[f];
        }
        return f;
    }

    /** The first file of the chain {@code file} is on. */
    int head(int file) {
        int f = file;
        while (previous[f] >= 0) {
            f = previous[f];
        }
        return f;
    }

    /** The file right after {@code file}, or -1 at the end of its chain. */
    int next(int file) {
        return next[file];
    }
}
