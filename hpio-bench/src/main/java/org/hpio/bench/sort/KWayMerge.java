package org.hpio.bench.sort;

import org.hpio.async.AsyncFile;

import java.io.IOException;
import java.util.List;

/**
 * A k-way merge of sorted runs of one file into one sorted run of another, at the same position: every run
 * read with one block of read-ahead ({@link RunReader}), the output written behind ({@link WriteBehind}), the
 * smallest head found with a binary min-heap of the runs keyed by their current value (Knuth, TAOCP vol. 3,
 * §5.4.1, "multiway merging" with a selection tree).
 */
final class KWayMerge {
    /** A run: {@code length} longs from long {@code first}. */
    record Run(long first, long length) {
        long end() {
            return first + length;
        }
    }

    private final RunReader[] readers;
    private final long[] keys;
    private final int[] heap;
    private int size;

    private KWayMerge(int runs) {
        readers = new RunReader[runs];
        keys = new long[runs];
        heap = new int[runs];
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
        for (int r = 0; r < runs.size(); r++) {
            if (merge.readers[r].nextBlock(times)) {
                merge.push(r);
            }
        }
        WriteBehind out = new WriteBehind(target, runs.getFirst().first(), blockLongs, times);
        merge.drain(out, times);
        out.finish();
    }

    private void drain(WriteBehind out, MergeTimes times) throws IOException {
        while (size > 0) {
            int r = heap[0];
            RunReader reader = readers[r];
            out.put(keys[r]);
            if (++reader.position < reader.limit || reader.nextBlock(times)) {
                keys[r] = reader.block()[reader.position];
                siftDown(0);
            } else {
                heap[0] = heap[--size];
                siftDown(0);
            }
        }
    }

    private void push(int r) {
        keys[r] = readers[r].block()[readers[r].position];
        int i = size++;
        heap[i] = r;
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (keys[heap[parent]] <= keys[heap[i]]) {
                break;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int left = 2 * i + 1;
            if (left >= size) {
                return;
            }
            int smaller = left + 1 < size && keys[heap[left + 1]] < keys[heap[left]] ? left + 1 : left;
            if (keys[heap[i]] <= keys[heap[smaller]]) {
                return;
            }
            swap(i, smaller);
            i = smaller;
        }
    }

    private void swap(int a, int b) {
        int t = heap[a];
        heap[a] = heap[b];
        heap[b] = t;
    }
}
