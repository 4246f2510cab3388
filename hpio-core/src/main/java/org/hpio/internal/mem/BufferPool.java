package org.hpio.internal.mem;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Off-heap buffers of one size and alignment (page-aligned by default; what O_DIRECT asks of addresses), shared
 * by every thread: the archive's block buffers, and each size class of a {@link MemoryPool}. The most recently
 * given back is handed out first (still in the cache).
 *
 * <p>Ownership: {@link #acquire()} hands a buffer to the caller, who owns it until it gives it back with
 * {@link #release}; it must not be touched after that. Contents are undefined: a buffer may hold what its last
 * owner wrote. The pool keeps at most {@code retained} idle buffers (and, in a {@link MemoryPool}, no more than
 * the idle bytes its classes share); others are dropped and freed by the garbage collector (each lives in its
 * own automatic arena), so memory is bounded by the callers in flight plus what is kept idle. Thread-safe.
 */
public final class BufferPool {
    private final long bufferBytes;
    private final int alignment;
    private final int retained;
    private final IdleBytes sharedIdle;
    /** Where new buffers come from instead of an arena of their own, or null ({@link HugePageSlabs}). */
    private final HugePageSlabs slabs;
    private final ConcurrentLinkedDeque<MemorySegment> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger idleCount = new AtomicInteger();

    /** Buffers of {@code bufferBytes}, 4 KiB aligned, at most {@code retained} kept idle. */
    public BufferPool(int bufferBytes, int retained) {
        this(bufferBytes, 4096, retained);
    }

    /** Buffers of {@code bufferBytes} aligned to {@code alignment} (a power of two), at most {@code retained} idle. */
    public BufferPool(int bufferBytes, int alignment, int retained) {
        this(bufferBytes, alignment, retained, IdleBytes.UNBOUNDED);
    }

    /** As above, and the idle buffers also count against {@code sharedIdle} (a {@link MemoryPool}'s classes). */
    BufferPool(long bufferBytes, int alignment, int retained, IdleBytes sharedIdle) {
        this(bufferBytes, alignment, retained, sharedIdle, null);
    }

    /** As above, new buffers carved from {@code slabs} when not null (alignment at most 4 KiB then). */
    BufferPool(long bufferBytes, int alignment, int retained, IdleBytes sharedIdle, HugePageSlabs slabs) {
        if (Integer.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("alignment must be a power of two, was " + alignment);
        }
        this.bufferBytes = bufferBytes;
        this.alignment = alignment;
        this.retained = retained;
        this.sharedIdle = sharedIdle;
        if (slabs != null && alignment > MemoryPool.ALIGNMENT) {
            throw new IllegalArgumentException("slabs align buffers to " + MemoryPool.ALIGNMENT + ", not " + alignment);
        }
        this.slabs = slabs;
    }

    public long bufferBytes() {
        return bufferBytes;
    }

    public MemorySegment acquire() {
        MemorySegment buffer = idle.pollFirst();
        if (buffer != null) {
            idleCount.decrementAndGet();
            sharedIdle.taken(bufferBytes);
            return buffer;
        }
        return slabs != null ? slabs.carve() : Arena.ofAuto().allocate(bufferBytes, alignment);
    }

    public void release(MemorySegment buffer) {
        if (buffer.byteSize() != bufferBytes) {
            throw new IllegalArgumentException("not a buffer of this pool: " + buffer);
        }
        if (idleCount.incrementAndGet() > retained) {
            idleCount.decrementAndGet();
        } else if (!sharedIdle.tryKeep(bufferBytes)) {
            idleCount.decrementAndGet();
        } else {
            idle.addFirst(buffer);
        }
    }
}
