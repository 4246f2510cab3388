package org.hpio.internal.io;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bound on the staging bytes held for requests in flight (heap data copied off-heap for the kernel): the
 * reason 003's OutOfMemoryError cannot happen here. {@link #acquire} blocks (parking, not pinning) until the
 * bytes are free, or fails at once when the engine is fail-fast; every acquire is matched by one release.
 * A single request larger than the whole budget is admitted alone, when nothing else is held.
 */
public final class StagingBudget {
    private final long limit;
    private final boolean failFast;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();
    private long held;

    public StagingBudget(long limit, boolean failFast) {
        this.limit = limit;
        this.failFast = failFast;
    }

    public void acquire(long bytes) throws EngineSaturatedException, InterruptedException {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative byte count: " + bytes);
        }
        lock.lock();
        try {
            while (!fits(bytes)) {
                if (failFast) {
                    throw new EngineSaturatedException("staging budget of " + limit + " bytes is in use (" + held
                            + " held, " + bytes + " more asked)");
                }
                released.await(1, TimeUnit.SECONDS);
            }
            held += bytes;
        } finally {
            lock.unlock();
        }
    }

    private boolean fits(long bytes) {
        return held + bytes <= limit || held == 0;
    }

    public void release(long bytes) {
        lock.lock();
        try {
            if (bytes > held) {
                throw new IllegalStateException("releasing " + bytes + " bytes but only " + held + " are held");
            }
            held -= bytes;
            released.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public long held() {
        lock.lock();
        try {
            return held;
        } finally {
            lock.unlock();
        }
    }

    public long limit() {
        return limit;
    }
}
