package org.hpio.internal.mem;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A few off-heap staging buffers of one size and alignment (page-aligned unless asked otherwise), kept in
 * fixed slots: for synchronous calls that hold one for a moment, where {@link BufferPool}'s queue (a node allocated per release) is a measurable part
 * of a 1 KiB read. Taking and giving back a buffer is one compare-and-set on a slot, starting at a slot chosen
 * by the thread's id, and allocates nothing.
 *
 * <p>Ownership: {@link #acquire()} hands a buffer to the caller, who owns it until {@link #release}; it must not
 * be touched after that. At most {@code slots} idle buffers are kept; a buffer given back when every slot is
 * full is dropped and freed by the garbage collector (each lives in its own automatic arena), so memory is
 * bounded by the callers in flight plus the slots. Thread-safe.
 */
public final class StagingSlots {
    private final int bufferBytes;
    private final long alignment;
    private final AtomicReferenceArray<MemorySegment> slots;

    /** Page-aligned buffers of {@code bufferBytes}, at most {@code slots} of them kept. */
    public StagingSlots(int bufferBytes, int slots) {
        this(bufferBytes, slots, 4096);
    }

    /** Buffers of {@code bufferBytes} aligned to {@code alignment} bytes, at most {@code slots} of them kept. */
    public StagingSlots(int bufferBytes, int slots, long alignment) {
        this.bufferBytes = bufferBytes;
        this.alignment = alignment;
        this.slots = new AtomicReferenceArray<>(slots);
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
        int filled = 0;
        for (int slot = 0; slot < slots.length() && filled < buffers; slot++) {
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, Arena.ofAuto().allocate(bufferBytes, alignment))) {
                filled++;
            }
        }
    }

    public MemorySegment acquire() {
        int n = slots.length();
        int first = firstSlot(n);
        for (int i = 0; i < n; i++) {
            int slot = (first + i) % n;
            MemorySegment buffer = slots.get(slot);
            if (buffer != null && slots.compareAndSet(slot, buffer, null)) {
                return buffer;
            }
        }
        return Arena.ofAuto().allocate(bufferBytes, alignment);
    }

    public void release(MemorySegment buffer) {
        if (buffer.byteSize() != bufferBytes) {
            throw new IllegalArgumentException("not a buffer of these slots: " + buffer);
        }
        int n = slots.length();
        int first = firstSlot(n);
        for (int i = 0; i < n; i++) {
            int slot = (first + i) % n;
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, buffer)) {
                return;
            }
        }
    }

    private static int firstSlot(int n) {
        return (int) (Thread.currentThread().threadId() % n);
    }
}
