package org.hpio.internal.mem;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Off-heap staging buffers of one size, page-aligned, shared by every thread.
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
    private final int retained;
    private final ConcurrentLinkedQueue<MemorySegment> idle = new ConcurrentLinkedQueue<>();
    private final AtomicInteger idleCount = new AtomicInteger();

    public StagingPool(int bufferBytes, int retained) {
        this.bufferBytes = bufferBytes;
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
        MemorySegment buffer = idle.poll();
        if (buffer != null) {
            idleCount.decrementAndGet();
            return buffer;
        }
        return Arena.ofAuto().allocate(bufferBytes, 4096);
    }

    public void release(MemorySegment buffer) {
        if (buffer.byteSize() != bufferBytes) {
            throw new IllegalArgumentException("not a buffer of this pool: " + buffer);
        }
        if (idleCount.incrementAndGet() <= retained) {
            idle.offer(buffer);
        } else {
            idleCount.decrementAndGet();
        }
    }
}
