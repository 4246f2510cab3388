package org.hpio.internal.mem;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A few off-heap staging buffers of one size, page-aligned, kept in fixed slots: for synchronous calls that
 * hold one for a moment, where {@link BufferPool}'s queue (a node allocated per release) is a measurable part
 * of a 1 KiB read. Taking and giving back a buffer is one compare-and-set on a slot ({@link Slots}), and
 * allocates nothing.
 *
 * <p>Ownership: {@link #acquire()} hands a buffer to the caller, who owns it until {@link #release}; it must not
 * be touched after that. At most {@code slots} idle buffers are kept; a buffer given back when every slot is
 * full is dropped and freed by the garbage collector (each lives in its own automatic arena), so memory is
 * bounded by the callers in flight plus the slots. Thread-safe.
 */
public final class StagingSlots {
    private final int bufferBytes;
    private final Slots<MemorySegment> slots;

    public StagingSlots(int bufferBytes, int slots) {
        this.bufferBytes = bufferBytes;
        this.slots = new Slots<>(slots);
    }

    public int bufferBytes() {
        return bufferBytes;
    }

    /**
     * Puts {@code buffers} new buffers (at most one a slot) into empty slots now, for a warm-up thread: a buffer's
     * first use faults its pages in, which a cold JVM's first small read paid (0.6 ms of a virtual machine's page
     * faults, AMD EPYC). A program's first reader finds one of them; a few are what one or two threads keep in
     * use anyway.
     */
    public void fill(int buffers) {
        slots.fill(buffers, () -> Arena.ofAuto().allocate(bufferBytes, 4096));
    }

    public MemorySegment acquire() {
        MemorySegment idle = slots.take();
        return idle != null ? idle : Arena.ofAuto().allocate(bufferBytes, 4096);
    }

    public void release(MemorySegment buffer) {
        if (buffer.byteSize() != bufferBytes) {
            throw new IllegalArgumentException("not a buffer of these slots: " + buffer);
        }
        slots.put(buffer);   // false: every slot full, and the buffer is dropped (see the class comment)
    }
}
