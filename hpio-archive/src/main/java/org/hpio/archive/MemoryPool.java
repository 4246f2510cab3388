package org.hpio.archive;

import org.hpio.internal.sys.NativeAccess;
import org.hpio.internal.sys.ScopedMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Recycled off-heap memory for loads: fresh native memory costs a page fault and a zero fill per page on every
 * load (three passes over a file's bytes where the read alone is one), so buffers are kept and reused. Sizes are
 * rounded up to a power of two from 4 KiB (smaller ones come straight from the caller's arena); at most
 * {@value #KEEP_BYTES} bytes are kept free, process-wide, and the rest are left to the garbage collector (each
 * buffer has its own automatic arena).
 *
 * <p>Ownership: {@link #allocate} returns a view scoped to the caller's arena ({@link ScopedMemory}); when that
 * arena closes the view becomes inaccessible and the buffer returns to the pool. Memory from the pool is not
 * zeroed: every caller overwrites what it hands out. Thread-safe.
 */
final class MemoryPool {
    static final long KEEP_BYTES = 256L << 20;
    private static final int MIN_SHIFT = 12;
    private static final int MAX_SHIFT = 40;
    static final int ALIGNMENT = 4096;
    @SuppressWarnings("unchecked")
    private static final ConcurrentLinkedDeque<MemorySegment>[] FREE = new ConcurrentLinkedDeque[MAX_SHIFT + 1];
    private static final AtomicLong FREE_BYTES = new AtomicLong();

    static {
        for (int i = 0; i < FREE.length; i++) {
            FREE[i] = new ConcurrentLinkedDeque<>();
        }
    }

    private MemoryPool() {
    }

    /**
     * {@code bytes} (at least one) of memory aligned to 4 KiB (at least {@code alignment}, a power of two up to
     * 4 KiB), valid until {@code arena} closes; its contents are undefined.
     */
    static MemorySegment allocate(Arena arena, long bytes, int alignment) {
        long size = Math.max(1, bytes);
        if (size < 1L << MIN_SHIFT || alignment > ALIGNMENT || !NativeAccess.available()) {
            // native calls off: no scoped view (a restricted call) to recycle through, so fresh memory
            return arena.allocate(size, Math.max(alignment, 64));
        }
        int shift = 64 - Long.numberOfLeadingZeros(size - 1);
        if (shift > MAX_SHIFT) {
            return arena.allocate(size, Math.max(alignment, 64));
        }
        MemorySegment buffer = FREE[shift].pollFirst();
        if (buffer != null) {
            FREE_BYTES.addAndGet(-buffer.byteSize());
        } else {
            buffer = Arena.ofAuto().allocate(1L << shift, ALIGNMENT);
        }
        MemorySegment kept = buffer;
        return ScopedMemory.view(buffer, arena, () -> give(kept)).asSlice(0, size);
    }

    /**
     * {@code bytes} (at least one) of 4 KiB aligned memory that the caller owns until it passes the result to
     * {@link #give} exactly once (and then must not touch it again: it may hold another load's bytes next). Not
     * scoped to an arena: closing a shared arena costs a JVM-wide handshake (about 50 us measured here on a
     * 2-core AMD EPYC, more than reading a 64 KiB file), which a per-load lifetime cannot afford. Sizes the pool
     * does not keep come from an automatic arena of their own and are left to the garbage collector by
     * {@code give}.
     */
    static MemorySegment take(long bytes) {
        long size = Math.max(1, bytes);
        int shift = 64 - Long.numberOfLeadingZeros(size - 1);
        if (size < 1L << MIN_SHIFT || shift > MAX_SHIFT) {
            return Arena.ofAuto().allocate(size, ALIGNMENT);
        }
        MemorySegment buffer = FREE[shift].pollFirst();
        if (buffer != null) {
            FREE_BYTES.addAndGet(-buffer.byteSize());
            return buffer;
        }
        return Arena.ofAuto().allocate(1L << shift, ALIGNMENT);
    }

    /** Gives back memory from {@link #take} (the segment it returned, not a slice). */
    static void give(MemorySegment buffer) {
        long size = buffer.byteSize();
        if (Long.bitCount(size) != 1 || size < 1L << MIN_SHIFT || size > 1L << MAX_SHIFT) {
            return; // not a pooled size: the garbage collector frees it with its automatic arena
        }
        if (FREE_BYTES.addAndGet(buffer.byteSize()) <= KEEP_BYTES) {
            FREE[Long.numberOfTrailingZeros(buffer.byteSize())].addFirst(buffer);
        } else {
            FREE_BYTES.addAndGet(-buffer.byteSize());
        }
    }
}
