package org.hpio.internal.mem;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Off-heap memory that holds heap data for the kernel while an asynchronous request is in flight: 4 KiB
 * aligned (O_DIRECT-ready). Up to {@link #POOLED_MAX} bytes it comes from pools of power-of-two sizes from
 * 4 KiB; above, from an arena of its own that {@link #release()} frees at once (never left to the garbage
 * collector, so native memory cannot pile up between collections).
 *
 * <p>Ownership: {@link #acquire} hands the buffer to the caller (in practice: to the request it stages for),
 * who owns it until exactly one {@link #release()}; nothing may touch {@link #segment()} after that.
 * {@link #capacity()} is what the buffer really occupies, the figure a staging budget should count.
 */
public final class StagingBuffer {
    public static final int POOLED_MAX = 1 << 20;
    private static final int MIN_SHIFT = 12;
    private static final int MAX_SHIFT = 20;
    private static final StagingPool[] POOLS = new StagingPool[MAX_SHIFT - MIN_SHIFT + 1];

    static {
        for (int shift = MIN_SHIFT; shift <= MAX_SHIFT; shift++) {
            POOLS[shift - MIN_SHIFT] = new StagingPool(1 << shift, Math.max(4, 64 >> (shift - MIN_SHIFT)));
        }
    }

    private final MemorySegment segment;
    private final MemorySegment whole;
    private final StagingPool pool;
    private final Arena arena;
    private final AtomicBoolean released = new AtomicBoolean();
    /** Buffers acquired and not yet released, JVM-wide: the reliability suite's native-memory leak check. */
    private static final AtomicLong OUTSTANDING = new AtomicLong();

    private StagingBuffer(MemorySegment whole, long bytes, StagingPool pool, Arena arena) {
        this.whole = whole;
        this.segment = whole.asSlice(0, bytes);
        this.pool = pool;
        this.arena = arena;
    }

    /** A buffer of {@code bytes} (at least 1 is allocated). */
    public static StagingBuffer acquire(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative size: " + bytes);
        }
        StagingBuffer buffer;
        if (bytes <= POOLED_MAX) {
            StagingPool pool = POOLS[shiftFor(bytes) - MIN_SHIFT];
            buffer = new StagingBuffer(pool.acquire(), bytes, pool, null);
        } else {
            Arena arena = Arena.ofShared();
            buffer = new StagingBuffer(arena.allocate(bytes, 4096), bytes, null, arena);
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
        return bytes <= POOLED_MAX ? 1L << shiftFor(bytes) : bytes;
    }

    private static int shiftFor(long bytes) {
        int shift = bytes <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(bytes - 1);
        return Math.max(MIN_SHIFT, shift);
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

    /** Gives the memory back (to its pool, or frees it); a second call is an error. */
    public void release() {
        if (!released.compareAndSet(false, true)) {
            throw new IllegalStateException("staging buffer released twice");
        }
        OUTSTANDING.decrementAndGet();
        if (pool != null) {
            pool.release(whole);
        } else {
            arena.close();
        }
    }
}
