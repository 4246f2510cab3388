package org.hpio.archive.cache.policy;

import java.util.Arrays;
import java.util.HashMap;

/**
 * Landlord with a priority queue and pending rent (002 §3.5.3 improvement 3, "Landlord_Lazy"), with the
 * paper's O(N) re-sort on access replaced by an O(log N) sift in an indexed binary heap.
 *
 * <p>Design note. Rent charged to every item lowers every credit density by the same amount, the minimum
 * density at that eviction; so instead of charging, the heap keeps each item under {@code rent + density},
 * where {@code rent} is the density charged so far (the pending rent), and an item's true credit is
 * {@code (key - rent) * size}. Eviction takes the heap's minimum in O(log N) and raises {@code rent} to its key:
 * that item's credit is then exactly zero (by definition of the minimum density, 002 §3.5.3: "this is exactly
 * the one returned by the priority queue"). An item added or hit gets key {@code rent + cost/size}, which is
 * how the paper's rule "commit pending charges before adding items" is kept without an O(N) commit: the new
 * item is simply not charged the rent that came before it. The pending rent is committed in one O(N) batch
 * only when it grows large enough to cost precision. Evicts what {@link LandlordNaivePolicy} evicts.
 */
final class LandlordLazyPolicy implements EvictionPolicy {
    /** Rent beyond which it is subtracted from every key, so that keys keep the precision of small densities. */
    private static final double COMMIT_THRESHOLD = 1 << 20;

    private static final class Item {
        final String key;
        final long size;
        final double cost;
        final double inverseSize;
        double priority;
        int slot;

        Item(String key, long size, double cost) {
            this.key = key;
            this.size = size;
            this.cost = cost;
            this.inverseSize = 1.0 / PolicyChecks.densitySize(size);
        }
    }

    private final HashMap<String, Item> items = new HashMap<>();
    private final boolean reciprocal;
    private final String name;
    private Item[] heap = new Item[16];
    private int count;
    private long bytes;
    private double rent;

    LandlordLazyPolicy(boolean reciprocal) {
        this.reciprocal = reciprocal;
        this.name = reciprocal ? "landlord-lazy-recip" : "landlord-lazy";
    }

    private double fullDensity(Item item) {
        return reciprocal ? item.cost * item.inverseSize : item.cost / PolicyChecks.densitySize(item.size);
    }

    @Override
    public void add(String key, long size, double cost) {
        PolicyChecks.checkNew(this, key, size, cost);
        Item item = new Item(key, size, cost);
        item.priority = rent + fullDensity(item);
        if (count == heap.length) {
            heap = Arrays.copyOf(heap, count * 2);
        }
        item.slot = count;
        heap[count++] = item;
        siftUp(item.slot);
        items.put(key, item);
        bytes += size;
    }

    @Override
    public boolean touch(String key) {
        Item item = items.get(key);
        if (item == null) {
            return false;
        }
        item.priority = rent + fullDensity(item); // credit back to its cost: the key only grows
        siftDown(item.slot);
        return true;
    }

    @Override
    public String evict() {
        if (count == 0) {
            return null;
        }
        Item victim = heap[0];
        rent = Math.max(rent, victim.priority); // charge everyone the victim's density: its credit is now zero
        removeSlot(0);
        if (rent > COMMIT_THRESHOLD) {
            commitRent();
        }
        return victim.key;
    }

    @Override
    public boolean remove(String key) {
        Item item = items.get(key);
        if (item == null) {
            return false;
        }
        removeSlot(item.slot);
        return true;
    }

    private void removeSlot(int slot) {
        Item item = heap[slot];
        items.remove(item.key);
        bytes -= item.size;
        Item last = heap[--count];
        heap[count] = null;
        if (slot != count) {
            heap[slot] = last;
            last.slot = slot;
            siftDown(slot);
            siftUp(last.slot);
        }
    }

    /** Applies the pending rent to every key in one batch (002 §3.5.3: "applied in batches"); order is kept. */
    private void commitRent() {
        for (int i = 0; i < count; i++) {
            heap[i].priority -= rent;
        }
        rent = 0;
    }

    private void siftUp(int slot) {
        Item item = heap[slot];
        while (slot > 0) {
            int parent = (slot - 1) >>> 1;
            if (heap[parent].priority <= item.priority) {
                break;
            }
            place(heap[parent], slot);
            slot = parent;
        }
        place(item, slot);
    }

    private void siftDown(int slot) {
        Item item = heap[slot];
        int half = count >>> 1;
        while (slot < half) {
            int child = 2 * slot + 1;
            int right = child + 1;
            if (right < count && heap[right].priority < heap[child].priority) {
                child = right;
            }
            if (item.priority <= heap[child].priority) {
                break;
            }
            place(heap[child], slot);
            slot = child;
        }
        place(item, slot);
    }

    private void place(Item item, int slot) {
        heap[slot] = item;
        item.slot = slot;
    }

    @Override
    public boolean contains(String key) {
        return items.containsKey(key);
    }

    @Override
    public int count() {
        return count;
    }

    @Override
    public long bytes() {
        return bytes;
    }

    @Override
    public String name() {
        return name;
    }
}
