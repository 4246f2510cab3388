package org.hpio.bench.sort;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * One sorted run of a merge, a leaf of the merge tree, read block by block with one block of read-ahead: while
 * the merge consumes the current block (a long[]), the next one is in flight into an off-heap buffer of the same
 * size (AsyncFile read of a MemorySegment at a position, 4 KiB aligned, so O_DIRECT goes straight into it and
 * nothing is staged or allocated per request); {@link #refill} decodes it into the block and starts the next
 * read. The block is this reader's; the off-heap buffer comes from the caller's arena, which must outlive every
 * read ({@link #awaitQuietly} before closing it). One thread.
 */
final class RunReader extends MergeInput {
    private final AsyncFile file;
    private final long end;
    private final MergeTimes times;
    private final ValueLayout.OfLong layout;
    private final MemorySegment ahead;
    private long next;
    private AsyncFileRequest aheadRequest;
    private int aheadCount;

    /**
     * A run of {@code lengthLongs} longs from long {@code firstLong} of {@code file} (longs in {@code order}), in
     * blocks of {@code blockLongs}, the read-ahead buffer allocated in {@code arena}; the first read starts now,
     * waits for reads are added to {@code times}.
     */
    RunReader(AsyncFile file, long firstLong, long lengthLongs, int blockLongs, ByteOrder order, Arena arena,
              MergeTimes times) throws IOException {
        this.file = file;
        this.next = firstLong;
        this.end = firstLong + lengthLongs;
        this.times = times;
        this.layout = ValueLayout.JAVA_LONG.withOrder(order);
        int size = (int) Math.min(blockLongs, Math.max(1, lengthLongs));
        this.block = new long[size];
        this.ahead = arena.allocate((long) size * Long.BYTES, ExternalSort.ALIGN);
        requestAhead();
    }

    /** Waits for the block read ahead, makes it current and starts reading the next; false at the run's end. */
    @Override
    boolean refill() throws IOException {
        position = 0;
        limit = 0;
        if (aheadCount == 0) {
            return false;
        }
        long t = SortTimes.now();
        aheadRequest.done();          // stays referenced until done, so awaitQuietly still sees it after a throw
        aheadRequest = null;
        t = times.readWait(t);
        MemorySegment.copy(ahead, layout, 0, block, 0, aheadCount);
        times.decode(t);
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

    /** Waits for the read in flight, if any, ignoring its outcome: for cleaning up after a failure. */
    void awaitQuietly() {
        if (aheadRequest != null) {
            try {
                aheadRequest.cancel();    // waits until it is no longer in flight, interrupted or not
            } catch (IOException | RuntimeException ignored) {
                // the merge is failing already; only the buffer's safety matters here
            }
            aheadRequest = null;
        }
    }

    private void requestAhead() throws IOException {
        int count = (int) Math.min(block.length, end - next);
        aheadCount = count;
        if (count > 0) {
            aheadRequest = file.read(next * Long.BYTES, ahead.asSlice(0, (long) count * Long.BYTES));
        }
        next += count;
    }
}
