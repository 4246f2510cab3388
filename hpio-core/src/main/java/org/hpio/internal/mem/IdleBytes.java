package org.hpio.internal.mem;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes several {@link BufferPool}s (a {@link MemoryPool}'s size classes) keep idle between them, and the
 * most they may: a pool asks {@link #tryKeep} before it keeps a buffer and reports {@link #taken} when it hands
 * one out again. The count may briefly run over the bound while a refused request undoes its add, never for
 * long. Thread-safe.
 */
final class IdleBytes {
    /** No bound: nothing is counted. */
    static final IdleBytes UNBOUNDED = new IdleBytes(Long.MAX_VALUE);

    private final long max;
    private final AtomicLong idle = new AtomicLong();

    IdleBytes(long max) {
        this.max = max;
    }

    /** Counts {@code bytes} more kept idle and says true, or says false (and counts nothing) when over the bound. */
    boolean tryKeep(long bytes) {
        if (this == UNBOUNDED) {
            return true;
        }
        if (idle.addAndGet(bytes) <= max) {
            return true;
        }
        idle.addAndGet(-bytes);
        return false;
    }

    /** Counts {@code bytes} kept idle before as handed out again. */
    void taken(long bytes) {
        if (this != UNBOUNDED) {
            idle.addAndGet(-bytes);
        }
    }

    /** The bytes kept idle now. */
    long idle() {
        return idle.get();
    }
}
