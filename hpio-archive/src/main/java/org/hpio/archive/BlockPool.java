package org.hpio.archive;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reusable off-heap block buffers of one size and alignment (the alignment O_DIRECT asks of buffer addresses).
 * Keeps at most {@code keep} free buffers; a buffer given back beyond that is dropped, and each buffer has its
 * own automatic arena, so the garbage collector frees dropped ones. Thread-safe.
 */
final class BlockPool {
    private final int blockSize;
    private final int alignment;
    private final int keep;
    private final ConcurrentLinkedDeque<MemorySegment> free = new ConcurrentLinkedDeque<>();
    private final AtomicInteger freeCount = new AtomicInteger();

    BlockPool(int blockSize, int alignment, int keep) {
        this.blockSize = blockSize;
        this.alignment = alignment;
        this.keep = keep;
    }

    /** A buffer of the block size, now the caller's until {@link #give}. */
    MemorySegment take() {
        MemorySegment s = free.pollFirst();
        if (s != null) {
            freeCount.decrementAndGet();
            return s;
        }
        return Arena.ofAuto().allocate(blockSize, alignment);
    }

    /** Takes back a buffer from {@link #take}; the caller must not touch it any more. */
    void give(MemorySegment segment) {
        if (freeCount.incrementAndGet() <= keep) {
            free.addFirst(segment);
        } else {
            freeCount.decrementAndGet();
        }
    }

    int blockSize() {
        return blockSize;
    }
}
