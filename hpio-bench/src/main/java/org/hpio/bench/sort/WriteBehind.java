package org.hpio.bench.sort;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The merge's output, written behind: the merge fills {@link #block()}; {@link #write} encodes it into the next
 * of {@value #IN_FLIGHT} off-heap buffers (4 KiB aligned, from the caller's arena, so O_DIRECT writes straight
 * from them and nothing is staged or allocated per request) and writes that with AsyncFile while the merge goes
 * on; the block is free again at once. A buffer is reused only after its write is done, so at most
 * {@value #IN_FLIGHT} writes are in flight and memory stays bounded; {@link #finish} waits for all. The block
 * is this object's; the arena must outlive every write ({@link #awaitQuietly} before closing it). One thread.
 */
final class WriteBehind {
    static final int IN_FLIGHT = 2;

    private final AsyncFile file;
    private final long[] block;
    private final MemorySegment[] buffers = new MemorySegment[IN_FLIGHT];
    private final AsyncFileRequest[] requests = new AsyncFileRequest[IN_FLIGHT];
    private final ValueLayout.OfLong layout;
    private final MergeTimes times;
    private long position;
    private int turn;

    WriteBehind(AsyncFile file, long firstLong, int blockLongs, ByteOrder order, Arena arena, MergeTimes times) {
        this.file = file;
        this.position = firstLong * Long.BYTES;
        this.block = new long[blockLongs];
        this.layout = ValueLayout.JAVA_LONG.withOrder(order);
        for (int i = 0; i < IN_FLIGHT; i++) {
            buffers[i] = arena.allocate((long) blockLongs * Long.BYTES, ExternalSort.ALIGN);
        }
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
        if (requests[turn] != null) {
            requests[turn].done();    // stays referenced until done, so awaitQuietly still sees it after a throw
            requests[turn] = null;
        }
        MemorySegment buffer = buffers[turn].asSlice(0, (long) longs * Long.BYTES);
        MemorySegment.copy(block, 0, buffer, layout, 0, longs);
        requests[turn] = file.write(position, buffer);
        times.write(t);
        turn = (turn + 1) % IN_FLIGHT;
        position += (long) longs * Long.BYTES;
    }

    /** Waits for every write. */
    void finish() throws IOException {
        long t = SortTimes.now();
        for (int i = 0; i < IN_FLIGHT; i++) {
            if (requests[i] != null) {
                requests[i].done();
                requests[i] = null;
            }
        }
        times.write(t);
    }

    /** Waits for the writes in flight, ignoring their outcome: for cleaning up after a failure. */
    void awaitQuietly() {
        for (int i = 0; i < IN_FLIGHT; i++) {
            if (requests[i] != null) {
                try {
                    requests[i].cancel();   // waits until it is no longer in flight, interrupted or not
                } catch (IOException | RuntimeException ignored) {
                    // the merge is failing already; only the buffers' safety matters here
                }
                requests[i] = null;
            }
        }
    }
}
