package org.hpio.internal.io;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A bound on the units held at once, and the one way hpio waits for room under it: an engine's staging bytes
 * ({@link StagingBudget}), a file's requests in flight ({@code AsyncFile}); an engine's requests in flight are
 * counted here too, but whoever waits for one of its places queues in the engine ({@code EngineBase}).
 * Units fit when they stay within the limit, or when nothing is held (one demand larger than the whole bound is
 * admitted alone). At the bound, {@link #acquire} fails at once (fail-fast) or waits as its caller's
 * {@link Wait} says: helping retire the completions that free units, or parking on this gate. Waiters are served
 * in order: while any waits, {@link #acquire} does not take units past it, so a large demand is not starved by
 * a stream of small ones that would each fit sooner (a 48 MiB heap write among 1 MiB ones on one staging
 * budget). Every unit taken is given back by one {@link #release}. Thread-safe.
 *
 * <p>Design note. The count is one atomic long: {@link #tryAcquire} is a compare-and-set, {@link #release} a
 * compare-and-set too (it refuses to release more than is held); neither locks nor allocates, which keeps the
 * engine's per-request admission as cheap as the semaphore it replaces. The order of waiters is a queue of their
 * threads; only the thread at its head may take units ({@link #fitsInTurn}), so only the head is woken: a
 * release unparks it, and a head that leaves the queue (having taken its units, or interrupted) unparks the
 * next. A thread parks here ({@link LockSupport#park}) after counting itself in {@code parked} and looking at the
 * count and the queue once more; a release or a leaving head writes first and then reads {@code parked}. Both
 * sides write one volatile and then read the other's, so either the parking thread sees the change or the waker
 * sees the parking thread and unparks the head, whose permit outlives a park not yet begun: no wake-up is lost,
 * and a release with nobody parked reads one counter. (Waking every parked waiter on each release instead,
 * as a condition's signalAll did, cost 2,000 virtual threads reading 64 KiB into heap buffers through hpio's
 * provider, beyond the 64 MiB staging budget, 1.2 ms of CPU per read: 1,600 reads/s against 34,000 for the JDK.)
 */
public final class AdmissionGate {
    /**
     * How a thread waits for room: one round of waiting, after which the gate tries again. It returns when
     * units may have been released (or after a time of its choosing); it ends the wait by throwing
     * {@link InterruptedException} when the thread is interrupted.
     */
    @FunctionalInterface
    public interface Wait {
        void forRoom(AdmissionGate gate, long units) throws InterruptedException;
    }

    private final long limit;
    private final boolean failFast;
    private final AtomicLong held = new AtomicLong();
    private final AtomicInteger parked = new AtomicInteger();
    /** The threads waiting in {@link #acquire}, first come first. */
    private final Queue<Thread> waiting = new ConcurrentLinkedQueue<>();

    /** A gate of {@code limit} units (at least 1); {@code failFast}: {@link #acquire} refuses instead of waiting. */
    public AdmissionGate(long limit, boolean failFast) {
        if (limit < 1) {
            throw new IllegalArgumentException("an admission limit must be at least 1, was " + limit);
        }
        this.limit = limit;
        this.failFast = failFast;
    }

    /**
     * The wait of an engine's own bounds: the units come back as the engine's requests complete, so a thread
     * that can poll the engine retires completions for a slice ({@link Completions#pollFor}); one that cannot
     * (a virtual thread) parks on the gate until a release, without a timeout (a timed park costs a virtual
     * thread a timer task per wait), while the engine knows that a waiter parks ({@link Completions#parking}).
     */
    static Wait helping(Completions engine) {
        return (gate, units) -> {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (engine.pollFor(() -> gate.fitsInTurn(units), IoRequests.SLICE_NANOS, () -> { })) {
                return;
            }
            engine.parking(true);
            try {
                gate.awaitRoom(units, Long.MAX_VALUE);
            } finally {
                engine.parking(false);
            }
        };
    }

    /** Takes {@code units} if they fit now; never waits, never allocates. */
    public boolean tryAcquire(long units) {
        while (true) {
            long h = held.get();
            if (h != 0 && units > limit - h) {
                return false;
            }
            if (held.compareAndSet(h, h + units)) {
                return true;
            }
        }
    }

    /**
     * Takes {@code units}, waiting by {@code wait} while they do not fit or an earlier waiter is still waiting
     * (first come, first served). Returns false at once, having taken nothing, when they do not fit and the gate
     * is fail-fast (which queues nobody). With nobody waiting, the first try costs what {@link #tryAcquire}
     * costs.
     *
     * @throws InterruptedException when {@code wait} was interrupted (nothing is taken; the thread leaves the
     *                              queue and the next in line looks again)
     */
    public boolean acquire(long units, Wait wait) throws InterruptedException {
        if (failFast || waiting.isEmpty()) {
            if (tryAcquire(units)) {
                return true;
            }
            if (failFast) {
                return false;
            }
        }
        Thread me = Thread.currentThread();
        waiting.add(me);
        try {
            while (waiting.peek() != me || !tryAcquire(units)) {
                wait.forRoom(this, units);
            }
            return true;
        } finally {
            waiting.remove(me);
            wakeParked();   // the next in line may fit now
        }
    }

    /**
     * Whether {@code units} fit now and it is the calling thread's turn: nobody waits in {@link #acquire}, or
     * the calling thread is the first who does. What a {@link Wait} waits for.
     */
    public boolean fitsInTurn(long units) {
        Thread first = waiting.peek();
        return fits(units) && (first == null || first == Thread.currentThread());
    }

    /** Whether {@code units} would fit now. */
    public boolean fits(long units) {
        long h = held.get();
        return h == 0 || units <= limit - h;
    }

    /**
     * Parks until a release may have made room for {@code units} (or the waiter ahead of this thread left), or
     * {@code nanos} passed ({@code Long.MAX_VALUE}: no time limit); returns at once if they fit now in this
     * thread's turn ({@link #fitsInTurn}). Only the first waiter of {@link #acquire} is woken by a release: a
     * thread further back waits until those ahead of it left. It may also return early (a spurious wake-up);
     * its caller looks again. Takes nothing. Meant for a {@link Wait}, whose thread waits in {@link #acquire}:
     * any other thread is never woken, only its time limit ends its wait.
     *
     * @throws InterruptedException if the thread is interrupted before it parks or while it is parked (the
     *                              interrupt status is cleared)
     */
    public void awaitRoom(long units, long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        parked.incrementAndGet();
        try {
            if (!fitsInTurn(units)) {
                if (nanos == Long.MAX_VALUE) {
                    LockSupport.park(this);
                } else {
                    LockSupport.parkNanos(this, nanos);
                }
            }
        } finally {
            parked.decrementAndGet();
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    /**
     * Gives back {@code units} taken before, and wakes the first waiter.
     *
     * @throws IllegalStateException if fewer than {@code units} are held (nothing changes)
     */
    public void release(long units) {
        while (true) {
            long h = held.get();
            if (units > h) {
                throw new IllegalStateException("releasing " + units + " units but only " + h + " are held");
            }
            if (held.compareAndSet(h, h - units)) {
                break;
            }
        }
        wakeParked();
    }

    /**
     * Wakes the first waiter, if any thread is parked in {@link #awaitRoom} (after a release, or after the queue's
     * head left): only it may take units, and it wakes the next when it leaves.
     */
    private void wakeParked() {
        if (parked.get() != 0) {
            Thread first = waiting.peek();
            if (first != null) {
                LockSupport.unpark(first);
            }
        }
    }

    /** The thread whose turn it is in {@link #acquire}, if any waits. */
    public Thread firstInLine() {
        return waiting.peek();
    }

    /** The units held now. */
    public long held() {
        return held.get();
    }

    public long limit() {
        return limit;
    }
}
