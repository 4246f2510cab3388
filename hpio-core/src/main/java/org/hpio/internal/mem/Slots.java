package org.hpio.internal.mem;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * A few idle objects kept in fixed slots, for callers that each hold one for a moment (a staging buffer, a
 * system call's native memory): taking one and putting it back is a compare-and-set on a slot, starting at a
 * slot chosen by the thread's id, and allocates nothing, where a queue allocates a node per release.
 *
 * <p>Ownership: {@link #take} hands the object to the caller, who owns it until it {@link #put}s it back (or
 * drops it); the slots never hold an object that a caller holds. Thread-safe.
 */
public final class Slots<T> {
    private final AtomicReferenceArray<T> slots;

    public Slots(int slots) {
        this.slots = new AtomicReferenceArray<>(slots);
    }

    /** How many slots there are. */
    public int length() {
        return slots.length();
    }

    /** An idle object, taken out of its slot, or null when every slot is empty. */
    public T take() {
        int n = slots.length();
        int first = firstSlot(n);
        for (int i = 0; i < n; i++) {
            int slot = (first + i) % n;
            T idle = slots.get(slot);
            if (idle != null && slots.compareAndSet(slot, idle, null)) {
                return idle;
            }
        }
        return null;
    }

    /**
     * Puts up to {@code count} new objects from {@code make} into empty slots, one a slot, each made only for a
     * slot seen empty (a warm-up's filling: nothing made that would be dropped).
     */
    public void fill(int count, Supplier<T> make) {
        int filled = 0;
        for (int slot = 0; slot < slots.length() && filled < count; slot++) {
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, make.get())) {
                filled++;
            }
        }
    }

    /** Puts {@code idle} into an empty slot; false when every slot is full (the caller then drops it). */
    public boolean put(T idle) {
        int n = slots.length();
        int first = firstSlot(n);
        for (int i = 0; i < n; i++) {
            int slot = (first + i) % n;
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, idle)) {
                return true;
            }
        }
        return false;
    }

    private static int firstSlot(int n) {
        return (int) (Thread.currentThread().threadId() % n);
    }
}
