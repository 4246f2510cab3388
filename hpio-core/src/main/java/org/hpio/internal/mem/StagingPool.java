package org.hpio.internal.mem;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Off-heap buffers of one size and alignment (page-aligned by default; what O_DIRECT asks of addresses), shared
 * by every thread: the staging buffers of synchronous transfers and the archive's block buffers. The most
 * recently given back is handed out first (still in the cache).
 *
 * <p>Ownership: {@link #acquire()} hands a buffer to the caller, who owns it until it gives it back with
 * {@link #release}; it must not be touched after that. The pool keeps at most {@code retained} idle buffers;
 * others are dropped and freed by the garbage collector (each lives in its own automatic arena), so memory is
 * bounded by the callers in flight plus {@code retained}. Thread-safe.
 */
public final class StagingPool {
    /** 256 KiB: fits in L2, so the swap copy that follows a read hits the cache. */
    public static final int DEFAULT_BUFFER_BYTES = 256 * 1024;
    private static final StagingPool SHARED =
            new StagingPool(DEFAULT_BUFFER_BYTES, 2 * Runtime.getRuntime().availableProcessors());

    private final int bufferBytes;
    private final int alignment;
    private final int retained;
    private final ConcurrentLinkedDeque<MemorySegment> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger idleCount = new AtomicInteger();

    /** Buffers of {@code bufferBytes}, 4 KiB aligned, at most {@code retained} kept idle. */
    public StagingPool(int bufferBytes, int retained) {
        this(bufferBytes, 4096, retained);
    }

    /** Buffers of {@code bufferBytes} aligned to {@code alignment} (a power of two), at most {@code retained} idle. */
    public StagingPool(int bufferBytes, int alignment, int retained) {
        if (Integer.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("alignment must be a power of two, was " + alignment);
        }
        this.bufferBytes = bufferBytes;
        this.alignment = alignment;
        this.retained = retained;
    }

    /** The pool every hpio class shares for synchronous transfers. */
    public static StagingPool shared() {
        return SHARED;
    }

    public int bufferBytes() {
        return bufferBytes;
    }

    public MemorySegment acquire() {
        MemorySegment buffer = idle.pollFirst();
        if (buffer != null) {
            idleCount.decrementAndGet();
            return buffer;
        }
        return Arena.ofAuto().allocate(bufferBytes, alignment);
    }

    public void release(MemorySegment buffer) {
        if (buffer.byteSize() != bufferBytes) {
            throw new IllegalArgumentException("not a buffer of this pool: " + buffer);
        }
        if (idleCount.incrementAndGet() <= retained) {
            idle.addFirst(buffer);
        } else {
            idleCount.decrementAndGet();
        }
    }
}
