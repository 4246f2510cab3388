package org.hpio.bench.engine;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The loop shared by the asynchronous mechanisms: {@code depth} slots, one buffer each; all are submitted, and
 * whenever completions arrive (in any order) each is checked and its slot resubmitted at the next offset at once,
 * one submission per I/O as fio's default (the first batch goes out in one call). Latency is from just before the submitting call to the
 * completion callback. The mechanism's completion thread only stamps the time and queues the slot; checking
 * happens on the running thread.
 */
abstract class InFlightDriver implements Driver {
    /** A run in which nothing completes for this long has failed. */
    static final long STALL_SECONDS = 60;

    protected final Workload workload;
    protected final int depth;
    private final long[] position;
    private final long[] submittedAt;
    /** Written by the completing thread before it queues the slot; read after taking it. */
    private final long[] completedAt;
    private final ArrayBlockingQueue<Integer> completions;

    InFlightDriver(Workload workload, int depth) {
        this.workload = workload;
        this.depth = depth;
        this.position = new long[depth];
        this.submittedAt = new long[depth];
        this.completedAt = new long[depth];
        this.completions = new ArrayBlockingQueue<>(depth);
    }

    /** Slot {@code slot}'s buffer: {@code workload.blockSize()} bytes, 4 KiB aligned, owned by this driver. */
    protected abstract MemorySegment buffer(int slot);

    /** Submits slots {@code slots[0..count)}, each for its buffer at {@link #position(int)}. */
    protected abstract void submit(int[] slots, int count) throws Exception;

    /** The bytes slot {@code slot}'s completed I/O moved, or its failure thrown. */
    protected abstract long result(int slot) throws Exception;

    protected final long position(int slot) {
        return position[slot];
    }

    /** Called by the mechanism, once per submitted I/O, from any thread, when the I/O completed. Never blocks. */
    protected final void completed(int slot) {
        completedAt[slot] = System.nanoTime();
        completions.add(slot);
    }

    /**
     * Waits until at least one I/O in flight completed and adds every slot that did to {@code arrived}; false
     * when nothing completed within {@link #STALL_SECONDS}. This default takes the slots that {@link #completed}
     * queued; a mechanism whose running thread can wait for its requests directly overrides it (stamping each
     * with {@link #arrived}).
     */
    protected boolean awaitArrivals(List<Integer> arrived) throws InterruptedException {
        Integer first = completions.poll(STALL_SECONDS, TimeUnit.SECONDS);
        if (first == null) {
            return false;
        }
        arrived.add(first);
        completions.drainTo(arrived);
        return true;
    }

    /** Notes that slot {@code slot}'s I/O was seen complete at {@code nanoTime}; for {@link #awaitArrivals}. */
    protected final void arrived(int slot, long nanoTime, List<Integer> arrived) {
        completedAt[slot] = nanoTime;
        arrived.add(slot);
    }

    @Override
    public final Measurement run(String configuration, Workload.Offsets offsets, long nanos) throws InterruptedException {
        Measurement m = new Measurement(configuration);
        int[] batch = new int[depth];
        List<Integer> arrived = new ArrayList<>(depth);
        for (int slot = 0; slot < depth; slot++) {
            prepare(slot, offsets.next());
            batch[slot] = slot;
        }
        long start = System.nanoTime();
        long deadline = start + nanos;
        int inFlight = issue(batch, depth, m) ? depth : 0;
        while (inFlight > 0) {
            arrived.clear();
            if (!awaitArrivals(arrived)) {
                m.failed(new IOException("no I/O completed within " + STALL_SECONDS + " s, " + inFlight + " in flight"));
                break; // close() cancels and waits for them
            }
            boolean more = System.nanoTime() < deadline;
            boolean issued = true;
            for (int slot : arrived) {
                inFlight--;
                account(slot, m);
                if (more && !m.failed() && issued) {
                    // Each slot goes back as soon as its completion is checked, as fio does by default
                    // (iodepth_batch_submit=1): measured here, holding them for one batched submit left the
                    // device idle long enough to cost a third of the IOPS at QD 32.
                    prepare(slot, offsets.next());
                    batch[0] = slot;
                    issued = issue(batch, 1, m);
                    inFlight += issued ? 1 : 0;
                }
            }
            if (!issued) {
                break; // what is still in flight, close() waits for
            }
        }
        m.elapsed(System.nanoTime() - start);
        return m;
    }

    private void prepare(int slot, long offset) {
        position[slot] = offset;
        if (workload.writes()) {
            BlockPattern.fill(buffer(slot), offset);
        } else {
            BlockPattern.poison(buffer(slot));
        }
    }

    /** Submits; on failure records it and returns false (close then waits for any I/O that did go out). */
    private boolean issue(int[] slots, int count, Measurement m) {
        long now = System.nanoTime();
        for (int i = 0; i < count; i++) {
            submittedAt[slots[i]] = now;
        }
        try {
            submit(slots, count);
            return true;
        } catch (Exception e) {
            m.failed(e);
            return false;
        }
    }

    private void account(int slot, Measurement m) {
        long latency = completedAt[slot] - submittedAt[slot];
        long moved;
        try {
            moved = result(slot);
        } catch (Exception e) {
            m.failed(e);
            return;
        }
        int wrong = workload.writes() || moved != workload.blockSize() ? 0 : BlockPattern.mismatches(buffer(slot), position[slot]);
        m.completed(latency, moved, workload.blockSize(), wrong);
    }
}
