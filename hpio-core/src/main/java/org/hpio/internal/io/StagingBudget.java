package org.hpio.internal.io;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bound on the staging bytes held for requests in flight (heap data copied off-heap for the kernel): the
 * reason 003's OutOfMemoryError cannot happen here. {@link #acquire} blocks (parking, not pinning) until the
 * bytes are free, or fails at once when the engine is fail-fast; every acquire is matched by one release.
 * A single request larger than the whole budget is admitted alone, when nothing else is held.
 *
 * <p>Bytes come back when the requests holding them complete, and a completion may wait for somebody to
 * retire it: so a thread that waits here helps its engine retire completions ({@link Completions}), never
 * just sleeps on the condition while nobody else would.
 */
public final class StagingBudget {
    private final long limit;
    private final boolean failFast;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();
    private final Completions engine;
    private long held;

    public StagingBudget(long limit, boolean failFast) {
        this(limit, failFast, Completions.NONE);
    }

    StagingBudget(long limit, boolean failFast, Completions engine) {
        this.limit = limit;
        this.failFast = failFast;
        this.engine = engine;
    }

    public void acquire(long bytes) throws EngineSaturatedException, InterruptedException {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative byte count: " + bytes);
        }
        while (true) {
            lock.lock();
            try {
                if (fits(bytes)) {
                    held += bytes;
                    return;
                }
                if (failFast) {
                    throw new EngineSaturatedException("staging budget of " + limit + " bytes is in use (" + held
                            + " held, " + bytes + " more asked)");
                }
            } finally {
                lock.unlock();
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (!engine.pollFor(() -> fitsNow(bytes), IoRequests.SLICE_NANOS, () -> { })) {
                awaitRelease(bytes);
            }
        }
    }

    private void awaitRelease(long bytes) throws InterruptedException {
        engine.parking(true);
        lock.lock();
        try {
            if (!fits(bytes)) {
                released.await();   // release signals; untimed, so a virtual thread needs no timer task
            }
        } finally {
            lock.unlock();
            engine.parking(false);
        }
    }

    private boolean fitsNow(long bytes) {
        lock.lock();
        try {
            return fits(bytes);
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
