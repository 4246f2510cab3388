package org.hpio.internal.io;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/**
 * Waiting for one, any or all of several requests, of one engine or of several. The one place where threads
 * wait for completions: a platform thread waiting on the io_uring engine reaps the completion ring itself
 * ({@link Completions#pollFor}); anyone else registers with each pending request and parks until one of them
 * completes. Waits in the kernel are sliced, so an interrupt is seen within {@link #SLICE_NANOS}; a parked
 * thread is unparked by the completion itself (or an interrupt), so it parks without a timeout unless the
 * caller gave one: a timed park costs a virtual thread a timer task, and the scheduler's timer thread a
 * wake-up, per wait.
 */
public final class IoRequests {
    /** The longest a waiting thread stays in the kernel before it looks again. */
    static final long SLICE_NANOS = 50_000_000L;

    private IoRequests() {
    }

    /**
     * Waits at most {@code timeoutNanos} until every request of {@code requests} is done; a timeout of 0 (or
     * less) polls, {@code Long.MAX_VALUE} waits for ever. Returns whether all are done.
     */
    public static boolean awaitAll(List<IoRequest> requests, long timeoutNanos) throws InterruptedException {
        return await(requests, true, timeoutNanos);
    }

    /**
     * Waits at most {@code timeoutNanos} until at least one request of {@code requests} is done (true), or
     * the time passed (false). An empty list is never satisfied: false at once, without waiting.
     */
    public static boolean awaitAny(List<IoRequest> requests, long timeoutNanos) throws InterruptedException {
        return await(requests, false, timeoutNanos);
    }

    static boolean await(List<IoRequest> requests, boolean all, long timeoutNanos) throws InterruptedException {
        if (requests.isEmpty()) {
            return all;   // all of none are done; any of none never is, and no wait can change that
        }
        requests.getFirst().engine().reapAvailable();   // completions the kernel already posted
        if (satisfied(requests, all)) {
            return true;
        }
        if (timeoutNanos <= 0) {
            return false;
        }
        long deadline = timeoutNanos == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + timeoutNanos;
        Registration registration = new Registration(requests, all);
        try {
            while (true) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (registration.getAsBoolean()) {
                    return true;
                }
                long left = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                waitOnce(requests, registration, left, registration);
            }
        } finally {
            registration.leave();
        }
    }

    /**
     * This thread's wait for {@code requests}: what satisfies it ({@link #getAsBoolean}), and its registration
     * with each request, made only once it is about to park ({@link #run}; a thread that polls the ring retires
     * the completions itself and needs none). One waiter node per request: a node is an entry of one request's
     * stack of waiters (its {@code next} is that stack's), so a node pushed onto a second request's stack would
     * cut the first stack short, and the other threads waiting for that request would never be woken.
     */
    private static final class Registration implements Runnable, BooleanSupplier {
        private final Thread thread = Thread.currentThread();
        private final List<IoRequest> requests;
        private final boolean all;
        /** The node of a single request's wait, or null. */
        private IoRequest.Waiter single;
        /** The nodes of a wait for several, one per request in order, or null. */
        private IoRequest.Waiter[] several;

        Registration(List<IoRequest> requests, boolean all) {
            this.requests = requests;
            this.all = all;
        }

        @Override
        public boolean getAsBoolean() {
            return satisfied(requests, all);
        }

        @Override
        public void run() {
            if (single != null || several != null) {
                return;
            }
            if (requests.size() == 1) {
                single = new IoRequest.Waiter(thread);
                requests.getFirst().addWaiter(single);
                return;
            }
            IoRequest.Waiter[] nodes = new IoRequest.Waiter[requests.size()];
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = new IoRequest.Waiter(thread);
            }
            several = nodes;
            for (int i = 0; i < nodes.length; i++) {
                requests.get(i).addWaiter(nodes[i]);
            }
        }

        /** Marks every node as left: a completion skips it, the next registration drops it. */
        void leave() {
            if (single != null) {
                single.thread = null;
            }
            if (several != null) {
                for (IoRequest.Waiter node : several) {
                    node.thread = null;
                }
            }
        }
    }

    /**
     * One slice of waiting: in the engine when all the requests are of one engine that lets this thread
     * poll, else parked (every engine involved then knows that a waiter depends on its completion thread).
     */
    private static void waitOnce(List<IoRequest> requests, BooleanSupplier satisfied, long nanos,
                                 Registration registration) {
        Completions only = soleEngine(requests);
        if (only != null && only.pollFor(satisfied, Math.min(nanos, SLICE_NANOS), registration)) {
            return;
        }
        registration.run();
        if (only != null) {   // the usual case: no set of engines to make per park
            only.parking(true);
            try {
                park(requests, satisfied, nanos);
            } finally {
                only.parking(false);
            }
            return;
        }
        Set<Completions> engines = Collections.newSetFromMap(new IdentityHashMap<>());
        for (IoRequest r : requests) {
            engines.add(r.engine());
        }
        engines.forEach(e -> e.parking(true));
        try {
            park(requests, satisfied, nanos);
        } finally {
            engines.forEach(e -> e.parking(false));
        }
    }

    private static void park(List<IoRequest> requests, BooleanSupplier satisfied, long nanos) {
        if (!satisfied.getAsBoolean()) {
            if (nanos == Long.MAX_VALUE) {
                LockSupport.park(requests.getFirst());
            } else {
                LockSupport.parkNanos(requests.getFirst(), nanos);
            }
        }
    }

    /** The engine of every request of {@code requests} when they share one, else null (found without allocating). */
    private static Completions soleEngine(List<IoRequest> requests) {
        Completions first = requests.getFirst().engine();
        for (IoRequest r : requests) {
            if (r.engine() != first) {
                return null;
            }
        }
        return first;
    }

    /**
     * Waits until every request of {@code requests} is done, however often the thread is interrupted (a
     * buffer must not go back to its owner while the kernel may still write it); the interrupt is kept.
     */
    public static void awaitAllUninterruptibly(List<IoRequest> requests) {
        boolean interrupted = false;
        while (true) {
            try {
                if (awaitAll(requests, Long.MAX_VALUE)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean satisfied(List<IoRequest> requests, boolean all) {
        for (IoRequest r : requests) {
            if (r.completedFlag() != all) {
                return !all;
            }
        }
        return all;
    }
}
