package org.hpio.internal.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;

/**
 * Views of reusable off-heap memory with a lifetime of their own: the archive's loads hand out memory from a
 * pool, and a view made here fails on access once its arena is closed (instead of showing whatever the memory
 * holds next), which is what {@code LoadedFile} promises. Recycling without this view would need the
 * memory's own arena to close, which frees it.
 *
 * <p>{@link MemorySegment#reinterpret(long, Arena, java.util.function.Consumer)} is a restricted call, hence
 * here. The view keeps {@code memory} reachable through its cleanup action until the arena closes.
 */
public final class ScopedMemory {
    private ScopedMemory() {
    }

    /**
     * A view of {@code memory}'s bytes whose lifetime is {@code scope}'s: closing {@code scope} makes the view
     * (and its slices) inaccessible and then runs {@code onClose}, which typically gives {@code memory} back to
     * its pool. The caller must not use {@code memory} itself while the view lives.
     */
    public static MemorySegment view(MemorySegment memory, Arena scope, Runnable onClose) {
        return memory.reinterpret(memory.byteSize(), scope, unused -> {
            Reference.reachabilityFence(memory);   // memory (maybe of an automatic arena) lives as long as the view
            onClose.run();
        });
    }
}
