package org.hpio.archive.alloc;

import java.util.BitSet;

/**
 * Which granules are in live regions and where each live region starts: two bits per granule (64 KiB per GiB at
 * 4 KiB alignment). Not a header: the caller still says how large a region is when freeing it; these bits only
 * let the allocator refuse a double free, a foreign or misaligned address, or a wrong size, with a clear message,
 * and confirm that a boundary tag describes a truly free block. Not thread-safe: the allocator's lock guards it.
 */
final class LiveRegions {
    private final int granuleShift;
    private final BitSet inUse = new BitSet();
    private final BitSet starts = new BitSet();

    LiveRegions(int granuleShift) {
        this.granuleShift = granuleShift;
    }

    void mark(long start, long size) {
        int from = granule(start);
        inUse.set(from, granule(start + size));
        starts.set(from);
    }

    void unmark(long start, long size) {
        int from = granule(start);
        inUse.clear(from, granule(start + size));
        starts.clear(from);
    }

    /** Null if {@code [start, start+size)} is exactly one live region; otherwise why it is not. */
    String mismatch(long start, long size) {
        int from = granule(start);
        int to = granule(start + size);
        if (!inUse.get(from)) {
            return "no live region starts there (freed twice, or never allocated)";
        }
        if (!starts.get(from)) {
            return "the address is inside a live region, not at its start";
        }
        int nextStart = starts.nextSetBit(from + 1);
        if (inUse.nextClearBit(from) < to || nextStart >= 0 && nextStart < to) {
            return "the region allocated there is smaller than " + size + " bytes";
        }
        if (inUse.get(to) && !starts.get(to)) {
            return "the region allocated there is larger than " + size + " bytes";
        }
        return null;
    }

    /** True if no granule of {@code [start, start+size)} is in a live region. */
    boolean isFree(long start, long size) {
        int next = inUse.nextSetBit(granule(start));
        return next < 0 || next >= granule(start + size);
    }

    private int granule(long offset) {
        return Math.toIntExact(offset >>> granuleShift);
    }
}
