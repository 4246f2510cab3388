package org.hpio.internal.mem;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Off-heap memory that holds heap data for the kernel while an asynchronous request is in flight: 4 KiB
 * aligned (O_DIRECT-ready). Up to {@link #POOLED_MAX} bytes it comes from a {@link MemoryPool} of size classes
 * from 4 KiB (each keeping up to 256 KiB or 4 buffers idle); above, from an arena of its own that
 * {@link #release()} frees at once (never left to the garbage collector, so native memory cannot pile up between
 * collections).
 *
 * <p>Ownership: {@link #acquire} hands the buffer to the caller (in practice: to the request it stages for),
 * who owns it until exactly one {@link #release()}; nothing may touch {@link #segment()} after that. Its
 * contents are undefined (pooled memory is not zeroed). {@link #capacity()} is what the buffer really occupies,
 * the figure a staging budget should count.
 */
public final class StagingBuffer {
    public static final int POOLED_MAX = 1 << 20;
    /** Staging is short-lived, so its classes from 64 KiB come from huge-page slabs where the kernel has them. */
    private static final MemoryPool POOL = new MemoryPool(POOLED_MAX, MemoryPool.IdleBound.perClass(256 << 10, 4),
            true);
    /** Buffers acquired and not yet released, JVM-wide: the reliability suite's native-memory leak check. */
    private static final AtomicLong OUTSTANDING = new AtomicLong();

    private final MemorySegment segment;
    private final MemorySegment whole;
    private final Arena arena;
    private final AtomicBoolean released = new AtomicBoolean();

    /** {@code arena}: the buffer's own, or null when {@code whole} is the pool's. */
    private StagingBuffer(MemorySegment whole, long bytes, Arena arena) {
        this.whole = whole;
        this.segment = whole.asSlice(0, bytes);
        this.arena = arena;
    }

    /** A buffer of {@code bytes} (at least 1 is allocated). */
    public static StagingBuffer acquire(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative size: " + bytes);
        }
        StagingBuffer buffer;
        if (bytes <= POOLED_MAX) {
            buffer = new StagingBuffer(POOL.take(bytes), bytes, null);
        } else {
            Arena arena = Arena.ofShared();
            buffer = new StagingBuffer(arena.allocate(bytes, MemoryPool.ALIGNMENT), bytes, arena);
        }
        OUTSTANDING.incrementAndGet();
        return buffer;
    }

    /** Staging buffers acquired and not yet released, in the whole JVM. */
    public static long outstanding() {
        return OUTSTANDING.get();
    }

    /** The bytes {@link #acquire} of {@code bytes} occupies. */
    public static long capacityFor(long bytes) {
        return POOL.capacityFor(bytes);
    }

    /** Exactly the bytes asked for. */
    public MemorySegment segment() {
        if (released.get()) {
            throw new IllegalStateException("staging buffer already released");
        }
        return segment;
    }

    public long capacity() {
        return whole.byteSize();
    }

    /** Gives the memory back (to the pool, or frees it); a second call is an error. */
    public void release() {
        if (!released.compareAndSet(false, true)) {
            throw new IllegalStateException("staging buffer released twice");
        }
        OUTSTANDING.decrementAndGet();
        if (arena == null) {
            POOL.give(whole);
        } else {
            arena.close();
        }
    }
}
