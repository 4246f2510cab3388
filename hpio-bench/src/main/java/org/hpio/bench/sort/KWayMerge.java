package org.hpio.bench.sort;

import org.hpio.async.AsyncFile;

import java.io.IOException;
import java.util.List;

/**
 * A k-way merge of sorted runs of one file into one sorted run of another, at the same position: every run
 * read with one block of read-ahead ({@link RunReader}), the output written behind ({@link WriteBehind}), the
 * smallest head found with a tree of losers (Knuth, TAOCP vol. 3, §5.4.1, "replacement selection" with a
 * tournament of losers): after a run yields its head, one comparison per level on the path from its leaf to
 * the root finds the next winner. An exhausted run counts as larger than every value.
 */
final class KWayMerge {
    /** A run: {@code length} longs from long {@code first}. */
    record Run(long first, long length) {
        long end() {
            return first + length;
        }
    }

    private final RunReader[] readers;
    /** Per run: its current block, the next position in it, the block's end, its head, whether it is exhausted. */
    private final long[][] blocks;
    private final int[] positions;
    private final int[] limits;
    private final long[] keys;
    private final boolean[] done;
    /** tree[0]: the winner; tree[1 .. k-1]: the loser at each internal node; run r's leaf is node k + r. */
    private final int[] tree;
    private final int k;

    private KWayMerge(int runs) {
        k = runs;
        readers = new RunReader[runs];
        blocks = new long[runs][];
        positions = new int[runs];
        limits = new int[runs];
        keys = new long[runs];
        done = new boolean[runs];
        tree = new int[Math.max(1, runs)];
    }

    /**
     * Merges {@code runs} (consecutive, ascending each) of {@code source} into {@code target} from long
     * {@code runs.getFirst().first()}, with buffers of {@code blockLongs} longs: two per run and one for the
     * output, plus up to {@link WriteBehind#IN_FLIGHT} output blocks staged by AsyncFile.
     */
    static void merge(AsyncFile source, List<Run> runs, AsyncFile target, int blockLongs, MergeTimes times)
            throws IOException {
        KWayMerge merge = new KWayMerge(runs.size());
        for (int r = 0; r < runs.size(); r++) {
            merge.readers[r] = new RunReader(source, runs.get(r).first(), runs.get(r).length(), blockLongs);
        }
        long total = 0;
        for (int r = 0; r < runs.size(); r++) {
            merge.refill(r, times);
            total += runs.get(r).length();
        }
        merge.build();
        WriteBehind out = new WriteBehind(target, runs.getFirst().first(), blockLongs, times);
        merge.drain(out, times, total);
        out.finish();
    }

    /** Makes run r's next block current (its head the key), or marks it exhausted. */
    private void refill(int r, MergeTimes times) throws IOException {
        RunReader reader = readers[r];
        if (reader.nextBlock(times)) {
            blocks[r] = reader.block();
            positions[r] = 0;
            limits[r] = reader.limit;
            keys[r] = blocks[r][0];
        } else {
            done[r] = true;
            keys[r] = Long.MAX_VALUE;
        }
    }

    /** Whether run a's head goes before run b's. */
    private boolean less(int a, int b) {
        return !done[a] && (done[b] || keys[a] < keys[b]);
    }

    /** Plays the whole tournament once: each internal node keeps the loser, tree[0] the winner. */
    private void build() {
        int[] winner = new int[2 * k];
        for (int r = 0; r < k; r++) {
            winner[k + r] = r;
        }
        for (int node = k - 1; node >= 1; node--) {
            int a = winner[2 * node];
            int b = winner[2 * node + 1];
            boolean aWins = less(a, b);
            winner[node] = aWins ? a : b;
            tree[node] = aWins ? b : a;
        }
        tree[0] = k == 1 ? 0 : winner[1];
    }

    /** Writes the {@code total} longs of the runs in order: the winner's head, then replays its leaf's path. */
    private void drain(WriteBehind out, MergeTimes times, long total) throws IOException {
        int w = tree[0];
        for (long n = 0; n < total; n++) {
            out.put(keys[w]);
            int p = ++positions[w];
            if (p < limits[w]) {
                keys[w] = blocks[w][p];
            } else {
                refill(w, times);
            }
            long key = keys[w];
            for (int node = (w + k) >>> 1; node > 0; node >>>= 1) {
                int other = tree[node];
                long otherKey = keys[other];
                if (otherKey < key || (otherKey == key && done[w] && !done[other])) {
                    tree[node] = w;
                    w = other;
                    key = otherKey;
                }
            }
        }
    }
}
