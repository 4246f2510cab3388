package org.hpio.bench.sort;

import java.io.IOException;

/**
 * An inner node of the merge tree: the 2-way merge of two inputs into its own block of {@link #BLOCK_LONGS}
 * longs (small enough that the blocks of a whole tree stay in the L2 cache), or, when its parent asks for more
 * than its block, straight into the parent's array. Each round merges as much as both inputs' current blocks
 * allow ({@link BranchlessMerge#safeCount}), so the inner loop is {@link BranchlessMerge#mergeExact} with no
 * per-element end test; an input that ends leaves the rest to the other, copied. Owns its block; one thread.
 */
final class MergeNode extends MergeInput {
    /** Longs in each inner node's block (32 KiB). */
    static final int BLOCK_LONGS = 4096;

    private final MergeInput left;
    private final MergeInput right;

    MergeNode(MergeInput left, MergeInput right) {
        this.left = left;
        this.right = right;
        this.block = new long[BLOCK_LONGS];
    }

    @Override
    boolean refill() throws IOException {
        position = 0;
        limit = merge(block, 0, block.length);
        return limit > 0;
    }

    @Override
    int fillPastBlock(long[] dst, int from, int to) throws IOException {
        return merge(dst, from, to);
    }

    /** Merges the children into {@code dst[from .. to)}; the index after the last long written. */
    private int merge(long[] dst, int from, int to) throws IOException {
        int o = from;
        while (o < to) {
            if (left.remaining() == 0 && !left.refill()) {
                return right.fill(dst, o, to);
            }
            if (right.remaining() == 0 && !right.refill()) {
                return left.fill(dst, o, to);
            }
            long[] a = left.block;
            long[] b = right.block;
            int i = left.position;
            int j = right.position;
            int r = Math.min(to - o, BranchlessMerge.safeCount(a, i, left.remaining(), b, j, right.remaining()));
            int p = BranchlessMerge.coRank(a, i, left.remaining(), b, j, right.remaining(), r);
            BranchlessMerge.mergeExact(a, i, p, b, j, r - p, dst, o);
            left.position = i + p;
            right.position = j + r - p;
            o += r;
        }
        return o;
    }
}
