package org.hpio.archive.alloc;

/**
 * A snapshot of an {@link AlignedAllocator}'s memory use, all in bytes.
 *
 * @param capacity        size of the reserved region
 * @param requestedBytes  sum of the sizes callers asked for, over live regions
 * @param allocatedBytes  sum of the live regions' sizes rounded up to the alignment
 * @param freeListBytes   bytes in free blocks (holes between live regions)
 * @param freeBlocks      number of free blocks
 * @param untouchedBytes  bytes never handed out (or handed back to the untouched gap)
 * @param committedBytes  high-water mark of touched address space: an upper bound of the memory committed
 * @param liveRegions     number of live regions
 */
public record AllocatorStats(long capacity, long requestedBytes, long allocatedBytes, long freeListBytes,
                             int freeBlocks, long untouchedBytes, long committedBytes, int liveRegions) {
    /** Space occupied by the allocator's users: live regions plus the holes between them. */
    public long occupiedBytes() {
        return allocatedBytes + freeListBytes;
    }

    /**
     * Waste as 002 §4.6 measures it: space occupied over bytes requested, minus one (0.12 = 12 %). Counts both the
     * rounding to the alignment and the holes. 0 when nothing is allocated.
     */
    public double waste() {
        return requestedBytes == 0 ? 0 : (double) occupiedBytes() / requestedBytes - 1;
    }
}
