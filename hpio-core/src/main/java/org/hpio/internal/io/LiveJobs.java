package org.hpio.internal.io;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The jobs an engine admitted and has not completed: a table of {@code capacity} places, one per request that
 * may be in flight (admission takes a permit first, so the table never overflows), each request knowing its
 * place. It replaces a concurrent hash map keyed by request: no identity hash, no node per request, which
 * measured as the largest single cost left in io_uring's Java path per I/O. Guarded by one lock that is held
 * only for a few field writes (a {@link ReentrantLock}, so a virtual thread parks rather than pins).
 *
 * @param <J> the engine's job type
 */
final class LiveJobs<J extends EngineBase.Job> {
    private final EngineBase.Job[] jobs;
    /** Free places, a stack: the most recently freed is reused first (its cache line is warm). */
    private final int[] free;
    private int freeCount;
    private volatile int size;
    private final ReentrantLock lock = new ReentrantLock();

    LiveJobs(int capacity) {
        this.jobs = new EngineBase.Job[capacity];
        this.free = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            free[i] = capacity - 1 - i;
        }
        this.freeCount = capacity;
    }

    /** Records {@code job} as live. Throws if every place is taken (admission lets no more in: a bug). */
    void add(J job) {
        lock.lock();
        try {
            if (freeCount == 0) {
                throw new IllegalStateException("more live requests than the " + jobs.length + " admitted");
            }
            int place = free[--freeCount];
            jobs[place] = job;
            job.request.livePlace = place;
            size++;
        } finally {
            lock.unlock();
        }
    }

    /** Forgets {@code job}; false if it was not live (already completed). */
    boolean remove(J job) {
        lock.lock();
        try {
            int place = job.request.livePlace;
            if (place < 0 || jobs[place] != job) {
                return false;
            }
            jobs[place] = null;
            free[freeCount++] = place;
            job.request.livePlace = -1;
            size--;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The live job of {@code request}, or null when it is not live (done, or of another engine). */
    @SuppressWarnings("unchecked")
    J get(IoRequest request) {
        lock.lock();
        try {
            int place = request.livePlace;
            if (place < 0 || place >= jobs.length) {
                return null;
            }
            EngineBase.Job job = jobs[place];
            return job != null && job.request == request ? (J) job : null;
        } finally {
            lock.unlock();
        }
    }

    /** The requests live now (a copy). */
    List<IoRequest> requests() {
        lock.lock();
        try {
            List<IoRequest> requests = new ArrayList<>(size);
            for (EngineBase.Job job : jobs) {
                if (job != null) {
                    requests.add(job.request);
                }
            }
            return requests;
        } finally {
            lock.unlock();
        }
    }

    /** Any live request, or null when none is. */
    IoRequest any() {
        lock.lock();
        try {
            for (EngineBase.Job job : jobs) {
                if (job != null) {
                    return job.request;
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }
}
