package org.hpio.archive.alloc;

import org.hpio.internal.sys.VirtualMemory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The headerless aligned allocator of 002 §3.5.1: doles out aligned regions of one reserved off-heap range.
 *
 * <p>Design note.
 * <ol>
 * <li>Headerless (002 §3.5.1): a region carries no header, so every region starts on an alignment boundary
 *     (4 KiB by default: ready for O_DIRECT) without rounding the address up. The owner of a region (the file
 *     cache, the extant list) records its address and size anyway, and gives both back in {@link #free}.</li>
 * <li>One reservation, committed as used: the range is reserved with an anonymous {@code MAP_NORESERVE} mapping
 *     ({@link VirtualMemory}), whose pages the kernel commits on first touch. ({@code Arena.allocate} would
 *     zero, and so commit, the whole range at once; growing chunks on demand would split the range, and a
 *     region could not span two chunks.) Every address is then easily checked to belong to the range.</li>
 * <li>Untouched space first (§3.5.1): allocation takes from the untouched gap while it can, then from the free
 *     lists; a freed block that borders the gap goes back to it. Lifetime hints (§3.5.1 note): {@link Lifetime#NORMAL}
 *     regions grow from the low end, {@link Lifetime#LONG} ones from the high end, and take free blocks from
 *     the same end, so long-lived regions do not leave holes among short-lived ones.</li>
 * <li>Address-ordered good fit over segregated free lists by powers of two ({@link FreeLists}; Wilson et al.,
 *     Johnstone and Wilson in 002 §2.2; a simpler Two Level Segregated Fit).</li>
 * <li>Immediate coalescing through boundary tags written in the freed memory ({@link BoundaryTags}), each
 *     checked by magic, position and a salted hash, and then confirmed against the free lists, so a false match
 *     cannot corrupt the heap.</li>
 * </ol>
 * Two bits per granule ({@link LiveRegions}) let {@link #free} refuse a double free, a foreign address or a
 * wrong size with a clear message. Waste (§4.6) is measurable at any time through {@link #stats()}.
 *
 * <p>Ownership: {@link #allocate} hands the region to the caller until it passes the same segment (or a segment
 * of the same address and size) to {@link #free}. {@link #close()} unmaps the whole range; every region's
 * segment then throws on access. Thread-safe: one lock guards the bookkeeping.
 */
public final class AlignedAllocator implements AutoCloseable {
    /** Default alignment of every region: 4 KiB, the page size and the usual O_DIRECT alignment. */
    public static final int DEFAULT_ALIGNMENT = 4096;

    private final ReentrantLock lock = new ReentrantLock();
    private final Arena arena = Arena.ofShared();
    private final MemorySegment region;
    private final long base;
    private final long capacity;
    private final int alignment;
    private final FreeLists freeLists;
    private final LiveRegions live;
    private final BoundaryTags tags;
    /** The untouched gap is [low, high): NORMAL regions grow low up, LONG regions grow high down. */
    private long low;
    private long high;
    private long lowWater;
    private long highWater;
    private long requestedBytes;
    private long allocatedBytes;
    private int liveRegions;

    /** An allocator over {@code capacity} bytes (rounded up to the alignment) with 4 KiB alignment. */
    public AlignedAllocator(long capacity) throws IOException {
        this(capacity, DEFAULT_ALIGNMENT);
    }

    /**
     * An allocator over {@code capacity} bytes, rounded up to {@code alignment}, a power of two from 64 (room for
     * both boundary tags of a free block) to 1 GiB.
     *
     * @throws IOException if the address space cannot be reserved
     */
    public AlignedAllocator(long capacity, int alignment) throws IOException {
        if (alignment < 64 || Integer.bitCount(alignment) != 1 || alignment > (1 << 30)) {
            throw new IllegalArgumentException("alignment must be a power of two from 64 to 2^30, was " + alignment);
        }
        if (capacity <= 0 || capacity > (1L << 46)) {
            throw new IllegalArgumentException("capacity must be from 1 byte to 64 TiB, was " + capacity);
        }
        int shift = Integer.numberOfTrailingZeros(alignment);
        if ((capacity + alignment - 1) >>> shift > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException("capacity " + capacity + " has more than 2^31 granules of " + alignment);
        }
        this.alignment = alignment;
        this.capacity = roundUp(capacity);
        MemorySegment mapped = VirtualMemory.reserve(this.capacity + alignment, arena);
        long skip = -mapped.address() & (alignment - 1); // mmap gives 4 KiB pages; larger alignments need a skip
        this.region = mapped.asSlice(skip, this.capacity);
        this.base = region.address();
        this.freeLists = new FreeLists(shift);
        this.live = new LiveRegions(shift);
        this.tags = new BoundaryTags(region);
        this.low = 0;
        this.high = this.capacity;
        this.highWater = this.capacity;
    }

    /** As {@link #allocate(long, Lifetime)} with {@link Lifetime#NORMAL}. */
    public MemorySegment allocate(long bytes) {
        return allocate(bytes, Lifetime.NORMAL);
    }

    /**
     * A region of {@code bytes} bytes, aligned; occupies {@code bytes} rounded up to the alignment.
     *
     * @throws RegionFullException if no untouched space nor free block is large enough (nothing changes)
     */
    public MemorySegment allocate(long bytes, Lifetime lifetime) {
        MemorySegment r = tryAllocate(bytes, lifetime);
        if (r == null) {
            throw new RegionFullException("no room for " + bytes + " bytes: " + stats());
        }
        return r;
    }

    /**
     * A region of {@code bytes} bytes, aligned, or null if none is large enough. Its contents are unspecified
     * (zero when never used before). The caller owns it until {@link #free}.
     */
    public MemorySegment tryAllocate(long bytes, Lifetime lifetime) {
        if (bytes <= 0 || bytes > capacity) {
            throw new IllegalArgumentException("allocation size must be from 1 to " + capacity + " bytes, was " + bytes);
        }
        long size = roundUp(bytes);
        boolean fromTop = lifetime == Lifetime.LONG;
        lock.lock();
        try {
            long start = fromUntouched(size, fromTop);
            if (start < 0) {
                start = fromFreeList(size, fromTop);
            }
            if (start < 0) {
                return null;
            }
            live.mark(start, size);
            requestedBytes += bytes;
            allocatedBytes += size;
            liveRegions++;
            return region.asSlice(start, bytes);
        } finally {
            lock.unlock();
        }
    }

    private long fromUntouched(long size, boolean fromTop) {
        if (high - low < size) {
            return -1;
        }
        if (fromTop) {
            high -= size;
            highWater = Math.min(highWater, high);
            return high;
        }
        long start = low;
        low += size;
        lowWater = Math.max(lowWater, low);
        return start;
    }

    private long fromFreeList(long size, boolean fromTop) {
        long[] block = freeLists.find(size, fromTop);
        if (block == null) {
            return -1;
        }
        long start = block[0];
        long blockSize = block[1];
        freeLists.remove(start, blockSize);
        tags.erase(start, blockSize);
        long rest = blockSize - size;
        if (rest == 0) {
            return start;
        }
        // Split: the region takes the end that faces its lifetime's side, the rest stays free.
        long regionStart = fromTop ? start + rest : start;
        long restStart = fromTop ? start : start + size;
        tags.write(restStart, rest);
        freeLists.add(restStart, rest);
        return regionStart;
    }

    /**
     * Gives a region back: {@code segment} must have the address and size that {@link #allocate} returned (a
     * read-only view of it will do). Coalesces it at once with free neighbours.
     *
     * @throws IllegalArgumentException for a foreign or misaligned address, a double free or a wrong size
     *         (nothing changes)
     */
    public void free(MemorySegment segment) {
        long start = segment.address() - base;
        long bytes = segment.byteSize();
        if (start < 0 || start >= capacity || bytes <= 0 || bytes > capacity - start) {
            throw new IllegalArgumentException("free: " + describe(segment) + " is not from this allocator (region "
                    + hex(base) + ".." + hex(base + capacity) + ")");
        }
        if ((start & (alignment - 1)) != 0) {
            throw new IllegalArgumentException("free: " + describe(segment) + " is not aligned to " + alignment
                    + " bytes, so it is no region of this allocator");
        }
        long size = roundUp(bytes);
        lock.lock();
        try {
            String why = live.mismatch(start, size);
            if (why != null) {
                throw new IllegalArgumentException("free: " + describe(segment) + " at offset " + start + ": " + why);
            }
            live.unmark(start, size);
            requestedBytes -= bytes;
            allocatedBytes -= size;
            liveRegions--;
            release(start, size);
        } finally {
            lock.unlock();
        }
    }

    /** Coalesces {@code [start, start+size)} with free neighbours, then returns it to the gap or a free list. */
    private void release(long start, long size) {
        long end = start + size;
        long prev = touchedBelow(start) ? tags.startEndingAt(start) : -1;
        if (prev >= 0 && isFreeBlock(prev, start - prev)) {
            freeLists.remove(prev, start - prev);
            start = prev;
        }
        long nextSize = touchedFrom(end) ? tags.sizeStartingAt(end) : -1;
        if (nextSize > 0 && isFreeBlock(end, nextSize)) {
            freeLists.remove(end, nextSize);
            end += nextSize;
        }
        if (end >= low && start <= high) {
            low = Math.min(low, start); // borders the untouched gap: back into it
            high = Math.max(high, end);
        } else {
            tags.write(start, end - start);
            freeLists.add(start, end - start);
        }
    }

    /** A tag's claim checked against the free lists and the live bits: a forged tag fails here. */
    private boolean isFreeBlock(long start, long size) {
        return size > 0 && (size & (alignment - 1)) == 0 && start >= 0 && start + size <= capacity
                && freeLists.contains(start, size) && live.isFree(start, size);
    }

    /** Whether the bytes just below {@code offset} have been touched (so reading a footer there commits nothing). */
    private boolean touchedBelow(long offset) {
        return offset > 0 && (offset <= low || offset > high);
    }

    private boolean touchedFrom(long offset) {
        return offset < capacity && (offset < low || offset >= high);
    }

    /** The current use of the region; consistent (taken under the lock). */
    public AllocatorStats stats() {
        lock.lock();
        try {
            return new AllocatorStats(capacity, requestedBytes, allocatedBytes, freeListBytesLocked(),
                    freeLists.blocks(), high - low, lowWater + (capacity - highWater), liveRegions);
        } finally {
            lock.unlock();
        }
    }

    private long freeListBytesLocked() {
        return freeLists.bytes();
    }

    /** Bytes of the reserved region (the capacity rounded up to the alignment). */
    public long capacity() {
        return capacity;
    }

    public int alignment() {
        return alignment;
    }

    /** True if {@code segment} lies inside this allocator's region (whether or not it is a live region). */
    public boolean owns(MemorySegment segment) {
        long start = segment.address() - base;
        return start >= 0 && start < capacity && segment.byteSize() <= capacity - start;
    }

    /** Unmaps the region. Every segment it handed out throws on access afterwards. */
    @Override
    public void close() {
        arena.close();
    }

    private long roundUp(long bytes) {
        return (bytes + alignment - 1) & -(long) alignment;
    }

    private static String describe(MemorySegment s) {
        return "segment " + hex(s.address()) + " of " + s.byteSize() + " bytes";
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }
}
