package org.hpio.bench.sort;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;

import java.io.IOException;

/**
 * One sorted run of a merge, read block by block with one block of read-ahead: while the merge consumes the
 * current block, the next one is in flight (AsyncFile readArray at a position). Owns its two buffers; the
 * current block is {@code block()[position() .. limit())}. One thread.
 */
final class RunReader {
    private final AsyncFile file;
    private final long end;
    private long next;
    private long[] current;
    private long[] ahead;
    private AsyncFileRequest aheadRequest;
    private int aheadCount;
    int position;
    int limit;

    /** A run of {@code lengthLongs} longs from long {@code firstLong} of {@code file}; the first read starts now. */
    RunReader(AsyncFile file, long firstLong, long lengthLongs, int blockLongs) throws IOException {
        this.file = file;
        this.next = firstLong;
        this.end = firstLong + lengthLongs;
        int size = (int) Math.min(blockLongs, Math.max(1, lengthLongs));
        this.current = new long[size];
        this.ahead = new long[size];
        requestAhead();
    }

    long[] block() {
        return current;
    }

    /** Waits for the block read ahead, makes it current and starts reading the next; false at the run's end. */
    boolean nextBlock(MergeTimes times) throws IOException {
        if (aheadCount == 0) {
            return false;
        }
        long t = SortTimes.now();
        aheadRequest.done();
        times.readWait(t);
        long[] free = current;
        current = ahead;
        ahead = free;
        position = 0;
        limit = aheadCount;
        requestAhead();
        return true;
    }

    private void requestAhead() throws IOException {
        int count = (int) Math.min(ahead.length, end - next);
        aheadCount = count;
        aheadRequest = count == 0 ? null : file.readArray(next * Long.BYTES, ahead, 0, count);
        next += count;
    }
}
