package org.hpio.bench.sort;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;

import java.io.IOException;

/**
 * One sorted run of a merge, a leaf of the merge tree, read block by block with one block of read-ahead: while
 * the merge consumes the current block, the next one is in flight (AsyncFile readArray at a position). Owns its
 * two buffers (the current block and the one being read into). One thread.
 */
final class RunReader extends MergeInput {
    private final AsyncFile file;
    private final long end;
    private final MergeTimes times;
    private long next;
    private long[] ahead;
    private AsyncFileRequest aheadRequest;
    private int aheadCount;

    /**
     * A run of {@code lengthLongs} longs from long {@code firstLong} of {@code file}, in blocks of
     * {@code blockLongs}; the first read starts now, waits for reads are added to {@code times}.
     */
    RunReader(AsyncFile file, long firstLong, long lengthLongs, int blockLongs, MergeTimes times) throws IOException {
        this.file = file;
        this.next = firstLong;
        this.end = firstLong + lengthLongs;
        this.times = times;
        int size = (int) Math.min(blockLongs, Math.max(1, lengthLongs));
        this.block = new long[size];
        this.ahead = new long[size];
        requestAhead();
    }

    /** Waits for the block read ahead, makes it current and starts reading the next; false at the run's end. */
    @Override
    boolean refill() throws IOException {
        if (aheadCount == 0) {
            position = 0;
            limit = 0;
            return false;
        }
        long t = SortTimes.now();
        aheadRequest.done();
        times.readWait(t);
        long[] free = block;
        block = ahead;
        ahead = free;
        position = 0;
        limit = aheadCount;
        requestAhead();
        return true;
    }

    @Override
    int fillPastBlock(long[] dst, int from, int to) throws IOException {
        while (from < to && refill()) {
            int n = Math.min(limit, to - from);
            System.arraycopy(block, 0, dst, from, n);
            position = n;
            from += n;
        }
        return from;
    }

    private void requestAhead() throws IOException {
        int count = (int) Math.min(ahead.length, end - next);
        aheadCount = count;
        aheadRequest = count == 0 ? null : file.readArray(next * Long.BYTES, ahead, 0, count);
        next += count;
    }
}
