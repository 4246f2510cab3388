package org.hpio.nio;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A value handed once from one thread to another that waits for it a limited time: the waiter either gets it or
 * gives up, and the giver learns which ({@link #offer} returns false once the waiter gave up). The early
 * warm-up waits here for the provider the JDK constructs ({@link NativeFiles#warmUpEarly}). Thread-safe; one
 * waiter.
 */
final class HandOver<T> {
    private static final int WAITING = 0;
    private static final int HANDED_OVER = 1;
    private static final int GAVE_UP = 2;

    /** Set before {@link #state} turns {@link #HANDED_OVER} (a volatile write then a compare-and-set). */
    private volatile T value;
    /** {@link #WAITING}, then {@link #HANDED_OVER} or {@link #GAVE_UP} for good, by compare-and-set. */
    private final AtomicInteger state = new AtomicInteger(WAITING);
    /** The waiting thread, unparked by {@link #offer}; null before {@link #await} begins. */
    private volatile Thread waiter;

    /** One already handed over: {@link #await} returns {@code value} at once. */
    static <T> HandOver<T> of(T value) {
        HandOver<T> handOver = new HandOver<>();
        handOver.offer(value);
        return handOver;
    }

    /**
     * Hands {@code offered} to the waiter: true when it has a value (this one or another offer's: of offers
     * made at once, one value is kept), false when it gave up waiting (it will never see one).
     */
    boolean offer(T offered) {
        if (state.get() == WAITING) {
            if (value == null) {
                value = offered;
            }
            if (state.compareAndSet(WAITING, HANDED_OVER)) {
                Thread waiting = waiter;
                if (waiting != null) {
                    LockSupport.unpark(waiting);
                }
                return true;
            }
        }
        return state.get() == HANDED_OVER;
    }

    /**
     * The value, at once or once offered; null when none came within {@code nanos} (then this hand-over gave
     * up for good). An interrupt does not end the wait (nor stay pending: it is cleared).
     */
    T await(long nanos) {
        waiter = Thread.currentThread();
        long deadline = System.nanoTime() + nanos;
        while (state.get() == WAITING) {
            long left = deadline - System.nanoTime();
            if (left <= 0 && state.compareAndSet(WAITING, GAVE_UP)) {
                return null;
            }
            LockSupport.parkNanos(this, Math.max(left, 0));
            Thread.interrupted();   // else a pending interrupt would make every park return at once
        }
        return value;
    }
}
