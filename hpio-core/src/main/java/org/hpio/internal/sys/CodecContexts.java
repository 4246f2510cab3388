package org.hpio.internal.sys;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Native codec contexts kept for reuse (libdeflate's decompressors, libzstd's decompression contexts): a context
 * is not thread-safe, so each whole-buffer call takes one and gives it back. Contexts are created on demand; at
 * most {@code keep} idle ones are kept, the rest freed.
 *
 * <p>Ownership: {@link #take()} hands a context to the caller until it passes it to {@link #give} (and then must
 * not use it). Thread-safe.
 */
final class CodecContexts {
    /** A downcall that creates a context (NULL when out of memory). */
    @FunctionalInterface
    interface Create {
        MemorySegment create() throws Throwable;
    }

    /** A downcall that frees a context. */
    @FunctionalInterface
    interface Free {
        void free(MemorySegment context) throws Throwable;
    }

    private final String createCall;
    private final int keep;
    private final Create create;
    private final Free free;
    private final ConcurrentLinkedDeque<MemorySegment> idle = new ConcurrentLinkedDeque<>();

    /** Contexts made by {@code create} (the library's {@code createCall}), freed by {@code free}, {@code keep} kept. */
    CodecContexts(String createCall, int keep, Create create, Free free) {
        this.createCall = createCall;
        this.keep = keep;
        this.create = create;
        this.free = free;
    }

    /** A context of the caller's own: a kept one, or a new one; {@link OutOfMemoryError} when none can be made. */
    MemorySegment take() {
        MemorySegment context = idle.pollFirst();
        if (context != null) {
            return context;
        }
        try {
            context = create.create();
        } catch (Throwable t) {
            throw rethrown(t);
        }
        if (context.address() == 0) {
            throw new OutOfMemoryError(createCall + " returned NULL");
        }
        return context;
    }

    /** Keeps {@code context} for a later call, or frees it when {@code keep} are kept already. */
    void give(MemorySegment context) {
        if (idle.size() < keep) {
            idle.addFirst(context);
            return;
        }
        try {
            free.free(context);
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    /** {@code t} itself when unchecked (an {@link Error} is thrown here), else wrapped. */
    static RuntimeException rethrown(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
