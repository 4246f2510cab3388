package org.hpio.bench.sort;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;

import java.io.IOException;
import java.util.ArrayDeque;

/**
 * The merge's output, written behind: the merge fills {@link #block()}, {@link #write} writes it with AsyncFile
 * (which copies a heap array off-heap at initiation, so the block is free again at once) while the merge goes
 * on. At most {@value #IN_FLIGHT} writes are in flight, so memory stays bounded; {@link #finish} writes the last
 * partial block and waits for all. Owns its block. One thread.
 */
final class WriteBehind {
    static final int IN_FLIGHT = 2;

    private final AsyncFile file;
    private final long[] block;
    private final ArrayDeque<AsyncFileRequest> inFlight = new ArrayDeque<>();
    private final MergeTimes times;
    private long position;

    WriteBehind(AsyncFile file, long firstLong, int blockLongs, MergeTimes times) {
        this.file = file;
        this.position = firstLong * Long.BYTES;
        this.block = new long[blockLongs];
        this.times = times;
    }

    /** The block the merge fills; free again after each {@link #write}. */
    long[] block() {
        return block;
    }

    /** Writes {@code block()[0 .. longs)} behind, after what was written before. */
    void write(int longs) throws IOException {
        if (longs == 0) {
            return;
        }
        long t = SortTimes.now();
        if (inFlight.size() == IN_FLIGHT) {
            inFlight.removeFirst().done();
        }
        inFlight.addLast(file.writeArray(position, block, 0, longs));
        times.write(t);
        position += (long) longs * Long.BYTES;
    }

    /** Waits for every write. */
    void finish() throws IOException {
        long t = SortTimes.now();
        AsyncFile.allDone(AsyncFile.TIME_INF, inFlight.toArray(AsyncFileRequest[]::new));
        inFlight.clear();
        times.write(t);
    }
}
