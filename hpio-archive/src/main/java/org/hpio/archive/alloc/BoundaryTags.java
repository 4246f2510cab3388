package org.hpio.archive.alloc;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ThreadLocalRandom;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Boundary tags written into freed memory (002 §3.5.1, Wilson et al.): a header at the first and a footer at the last
 * {@link #BYTES} bytes of every free block, each {@code magic, start, size, check}. They let a block being freed find
 * its free neighbours in O(1) without any header on allocated regions.
 *
 * <p>A tag is trusted only if its magic matches, the start it records puts it where it was read, and its check
 * (a hash of start and size salted with a per-allocator random value) matches: data that merely resembles a tag
 * fails. The allocator then confirms the block against its free lists before merging, so even a forged tag
 * cannot corrupt anything.
 */
final class BoundaryTags {
    static final int BYTES = 32;
    private static final long HEADER_MAGIC = 0x6870696F46524545L; // "hpioFREE"
    private static final long FOOTER_MAGIC = 0x4545524646726565L;

    private final MemorySegment region;
    private final long salt = ThreadLocalRandom.current().nextLong() | 1;

    /** {@code region}: the allocator's whole reservation, which this class writes tags into. */
    BoundaryTags(MemorySegment region) {
        this.region = region;
    }

    void write(long start, long size) {
        put(start, HEADER_MAGIC, start, size);
        put(start + size - BYTES, FOOTER_MAGIC, start, size);
    }

    /** Size of the free block that starts at {@code start} according to its header tag, or -1 if none is there. */
    long sizeStartingAt(long start) {
        long recordedStart = region.get(JAVA_LONG, start + 8);
        long size = region.get(JAVA_LONG, start + 16);
        boolean valid = region.get(JAVA_LONG, start) == HEADER_MAGIC && recordedStart == start
                && region.get(JAVA_LONG, start + 24) == check(start, size);
        return valid ? size : -1;
    }

    /** Start of the free block that ends at {@code end} according to its footer tag, or -1 if none is there. */
    long startEndingAt(long end) {
        long at = end - BYTES;
        long start = region.get(JAVA_LONG, at + 8);
        long size = region.get(JAVA_LONG, at + 16);
        boolean valid = region.get(JAVA_LONG, at) == FOOTER_MAGIC && start + size == end
                && region.get(JAVA_LONG, at + 24) == check(start, size);
        return valid ? start : -1;
    }

    /** Wipes both tags of a block that stops being free, so a stale tag can never be read again. */
    void erase(long start, long size) {
        region.asSlice(start, BYTES).fill((byte) 0);
        region.asSlice(start + size - BYTES, BYTES).fill((byte) 0);
    }

    private void put(long at, long magic, long start, long size) {
        region.set(JAVA_LONG, at, magic);
        region.set(JAVA_LONG, at + 8, start);
        region.set(JAVA_LONG, at + 16, size);
        region.set(JAVA_LONG, at + 24, check(start, size));
    }

    private long check(long start, long size) {
        long h = (start * 0x9E3779B97F4A7C15L) ^ (size * 0xC2B2AE3D27D4EB4FL) ^ salt;
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 29);
    }
}
