package org.hpio.internal.mem;

import org.hpio.internal.sys.NativeAccess;
import org.hpio.internal.sys.ScopedMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Recycled off-heap memory in power-of-two size classes from 4 KiB, 4 KiB aligned (O_DIRECT-ready), with a
 * bound on the memory kept idle: hpio's one native memory pool. Fresh native memory costs a page fault and a
 * zero fill per page on every use, so buffers are kept and reused. Each use has its own instance and bound:
 * core's staging buffers ({@link StagingBuffer}: classes up to 1 MiB, a few buffers per class) and the
 * archive's loads (classes up to 1 TiB, 256 MiB idle over all classes).
 *
 * <p>Each class is a {@link BufferPool}; the classes share one {@link IdleBytes} count. Sizes below 4 KiB are
 * rounded up to the 4 KiB class; sizes above the largest class are not pooled.
 *
 * <p>Ownership: {@link #take} hands memory to the caller until it passes it to {@link #give} exactly once (and
 * then must not touch it: it may hold another owner's bytes next); {@link #scoped} ties it to an arena instead.
 * Memory from the pool is not zeroed. Thread-safe.
 */
public final class MemoryPool {
    /** The alignment of every pooled buffer. */
    public static final int ALIGNMENT = 4096;
    private static final int MIN_SHIFT = 12;

    private final int maxShift;
    private final BufferPool[] classes;
    private final IdleBytes idle;

    /**
     * How much memory a pool keeps idle: per size class at most {@code classBytes} or {@code classBuffers}
     * buffers, whichever is more, and at most {@code totalBytes} over all classes.
     */
    public record IdleBound(long totalBytes, long classBytes, int classBuffers) {
        /** At most {@code bytes} idle over all classes, however they are spread. */
        public static IdleBound total(long bytes) {
            return new IdleBound(bytes, Long.MAX_VALUE, 0);
        }

        /** Per class at most {@code bytes} or {@code buffers} buffers, whichever is more; no bound over all. */
        public static IdleBound perClass(long bytes, int buffers) {
            return new IdleBound(Long.MAX_VALUE, bytes, buffers);
        }

        int buffersOf(long classSize) {
            return (int) Math.min(Integer.MAX_VALUE, Math.max(classBytes / classSize, classBuffers));
        }
    }

    /** Classes from 4 KiB up to {@code largestClass} (a power of two), keeping idle what {@code bound} allows. */
    public MemoryPool(long largestClass, IdleBound bound) {
        this(largestClass, bound, false);
    }

    /**
     * As above; with {@code hugePages}, new buffers of the classes from 64 KiB to 2 MiB are carved from slabs
     * the kernel is asked to back with huge pages ({@link HugePageSlabs}: a device then reads a buffer as one
     * segment), where it does so. For memory that goes back soon (staging): a slab stays mapped while any of its
     * buffers is in use.
     */
    public MemoryPool(long largestClass, IdleBound bound, boolean hugePages) {
        if (Long.bitCount(largestClass) != 1 || largestClass < 1L << MIN_SHIFT) {
            throw new IllegalArgumentException("largest class must be a power of two from 4 KiB: " + largestClass);
        }
        this.maxShift = Long.numberOfTrailingZeros(largestClass);
        this.idle = bound.totalBytes() == Long.MAX_VALUE ? IdleBytes.UNBOUNDED : new IdleBytes(bound.totalBytes());
        this.classes = new BufferPool[maxShift - MIN_SHIFT + 1];
        for (int shift = MIN_SHIFT; shift <= maxShift; shift++) {
            classes[shift - MIN_SHIFT] = new BufferPool(1L << shift, ALIGNMENT, bound.buffersOf(1L << shift), idle,
                    hugePages ? HugePageSlabs.forBuffersOf(1L << shift) : null);
        }
    }

    /** Whether {@link #take} of {@code bytes} comes from a size class (not: larger than the largest class). */
    public boolean pools(long bytes) {
        return bytes <= 1L << maxShift;
    }

    /** The bytes {@link #take} of {@code bytes} occupies: its class's size, or the size itself when not pooled. */
    public long capacityFor(long bytes) {
        return pools(bytes) ? 1L << shiftFor(bytes) : bytes;
    }

    /**
     * At least {@code bytes} (at least one) of 4 KiB aligned memory, its contents undefined: a whole buffer of
     * the size class, or above the largest class exactly {@code bytes} in an automatic arena of its own (left to
     * the garbage collector by {@link #give}). The caller owns it until it passes it to {@link #give}.
     */
    public MemorySegment take(long bytes) {
        long size = Math.max(1, bytes);
        if (!pools(size)) {
            return Arena.ofAuto().allocate(size, ALIGNMENT);
        }
        return classes[shiftFor(size) - MIN_SHIFT].acquire();
    }

    /**
     * Gives back memory from {@link #take} (the segment it returned, not a slice); memory of a size this pool does
     * not keep is dropped, for the garbage collector to free with its automatic arena.
     */
    public void give(MemorySegment buffer) {
        long size = buffer.byteSize();
        if (Long.bitCount(size) == 1 && size >= 1L << MIN_SHIFT && size <= 1L << maxShift) {
            classes[Long.numberOfTrailingZeros(size) - MIN_SHIFT].release(buffer);
        }
    }

    /**
     * {@code bytes} (at least one) of memory aligned to at least {@code alignment} (a power of two up to
     * {@value #ALIGNMENT}), its contents undefined, valid until {@code arena} closes: a view of a pooled buffer
     * ({@link ScopedMemory}) that goes back to the pool when the arena closes. Sizes below 4 KiB or above the
     * largest class come straight from {@code arena}, and so does everything when native calls are off (the
     * view is a restricted call): no recycling then.
     */
    public MemorySegment scoped(Arena arena, long bytes, int alignment) {
        long size = Math.max(1, bytes);
        if (size < 1L << MIN_SHIFT || !pools(size) || alignment > ALIGNMENT || !NativeAccess.available()) {
            return arena.allocate(size, Math.max(alignment, 64));
        }
        MemorySegment buffer = take(size);
        return ScopedMemory.view(buffer, arena, () -> give(buffer)).asSlice(0, size);
    }

    /** The bytes kept idle now under a bound over all classes (0 when there is none). */
    long idleBytes() {
        return idle.idle();
    }

    private static int shiftFor(long bytes) {
        int shift = bytes <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(bytes - 1);
        return Math.max(MIN_SHIFT, shift);
    }
}
