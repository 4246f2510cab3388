package org.hpio.archive.alloc;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Segregated free lists (002 §3.5.1, "Implementation Details"): class {@code i} holds free blocks of
 * {@code (2^(i-1), 2^i]} granules, each list ordered by address. A bit mask of the non-empty classes finds the next
 * class up with one bit scan. Not thread-safe: the allocator's lock guards it.
 */
final class FreeLists {
    private static final int CLASSES = 64;

    private final int granuleShift;
    @SuppressWarnings("unchecked")
    private final TreeMap<Long, Long>[] lists = new TreeMap[CLASSES];
    private long nonEmpty;
    private long bytes;
    private int blocks;

    /** {@code granuleShift}: log2 of the alignment; sizes are whole granules. */
    FreeLists(int granuleShift) {
        this.granuleShift = granuleShift;
        for (int i = 0; i < CLASSES; i++) {
            lists[i] = new TreeMap<>();
        }
    }

    /** Size class of a block of {@code size} bytes: ceil(log2(granules)). */
    int sizeClass(long size) {
        long granules = size >>> granuleShift;
        return granules <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(granules - 1);
    }

    void add(long start, long size) {
        int c = sizeClass(size);
        lists[c].put(start, size);
        nonEmpty |= 1L << c;
        bytes += size;
        blocks++;
    }

    /** True if exactly this block (start and size) is on a free list. */
    boolean contains(long start, long size) {
        Long s = lists[sizeClass(size)].get(start);
        return s != null && s == size;
    }

    void remove(long start, long size) {
        int c = sizeClass(size);
        Long removed = lists[c].remove(start);
        if (removed == null || removed != size) {
            throw new IllegalStateException("free lists corrupt: no free block of " + size + " bytes at offset " + start);
        }
        if (lists[c].isEmpty()) {
            nonEmpty &= ~(1L << c);
        }
        bytes -= size;
        blocks--;
    }

    /**
     * Address-ordered good fit: the lowest-addressed block of the request's own class that is large enough, else
     * the first block of the next non-empty class up (every block there is large enough). With {@code highest},
     * the highest-addressed ones instead (for long-lived regions). Returns {start, size} of the block, still on
     * its list, or null if no block can hold {@code size} bytes.
     */
    long[] find(long size, boolean highest) {
        int c = sizeClass(size);
        NavigableMap<Long, Long> own = highest ? lists[c].descendingMap() : lists[c];
        for (Map.Entry<Long, Long> e : own.entrySet()) {
            if (e.getValue() >= size) {
                return new long[] {e.getKey(), e.getValue()};
            }
        }
        long larger = c + 1 >= CLASSES ? 0 : nonEmpty & (-1L << (c + 1));
        if (larger == 0) {
            return null;
        }
        TreeMap<Long, Long> list = lists[Long.numberOfTrailingZeros(larger)];
        Map.Entry<Long, Long> e = highest ? list.lastEntry() : list.firstEntry();
        return new long[] {e.getKey(), e.getValue()};
    }

    long bytes() {
        return bytes;
    }

    int blocks() {
        return blocks;
    }
}
