package org.hpio.bench.sort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The initial pass of an external merge sort with single-buffered, blocking I/O (000 §5, the configurations
 * other than async): read a chunk, sort it, write it, until the input is done; a last partial chunk is sorted
 * as a chunk of its own. One buffer, owned by this pass.
 */
final class SyncChunkSort {
    private SyncChunkSort() {
    }

    /** Sorts each {@code chunkLongs}-long chunk of {@code in} into {@code out} (which must not exist yet). */
    static SortTimes.Breakdown run(ChunkFiles.Opener opener, Path in, Path out, int chunkLongs) throws IOException {
        long totalLongs = Files.size(in) / Long.BYTES;
        long[] chunk = new long[(int) Math.min(chunkLongs, Math.max(1, totalLongs))];
        SortTimes times = new SortTimes();
        long start = SortTimes.now();
        ChunkFiles files = opener.open(in, out);
        try {
            for (long done = 0; done < totalLongs; ) {
                int count = (int) Math.min(chunkLongs, totalLongs - done);
                long t = SortTimes.now();
                files.read(chunk, count);
                t = times.read(t);
                ChunkSort.sort(chunk, count);
                t = times.sort(t);
                files.write(chunk, count);
                times.write(t);
                done += count;
            }
        } finally {
            long t = SortTimes.now();
            files.close();
            times.write(t);
        }
        return times.breakdown(SortTimes.now() - start);
    }
}
