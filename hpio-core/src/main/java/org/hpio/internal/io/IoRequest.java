package org.hpio.internal.io;

import org.hpio.internal.sys.Errno;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A submitted {@link IoOperation}: in flight until the engine completes it with a result (bytes moved, never
 * less than 0) or an errno. Waiting parks the thread or, on the io_uring engine, lets a platform thread reap
 * the completion ring itself (see {@link Completions}); nothing here synchronizes, so virtual threads never pin.
 *
 * <p>The operation's buffer belongs to the engine until {@link #isDone()} is true.
 */
public final class IoRequest {
    private static final Runnable NO_LISTENER = () -> { };
    private static final Runnable COMPLETED = () -> { };

    /**
     * A thread parked waiting for this request (perhaps among others: a node of its own for each, since
     * {@code next} links this request's stack); {@code thread} is null once it left.
     */
    static final class Waiter {
        volatile Thread thread;
        Waiter next;

        Waiter(Thread thread) {
            this.thread = thread;
        }
    }

    /** Marks the waiter stack once the request completed: nobody needs to register any more. */
    private static final Waiter DONE = new Waiter(null);

    private final IoOperation operation;
    private final Completions engine;
    /** Its place in the engine's {@link LiveJobs} while in flight, else -1; guarded by that table's lock. */
    int livePlace = -1;
    /** Waiters to unpark at completion (a Treiber stack), or {@link #DONE}. */
    private volatile Waiter waiters;
    /** The listener to run at completion; {@link #COMPLETED} once completion has run the listeners. */
    private volatile Runnable listener = NO_LISTENER;
    private volatile long result;
    private volatile int errno;
    /** Set once the result is in, before the listener runs. */
    private volatile boolean resultReady;
    /** Set after the listener ran: the request is done; waiters wake after this. */
    private volatile boolean completed;
    /** 0: nobody asked for prompt completion; 1: {@link #prompt()} did (the engine counts it); 2: completed. */
    private volatile int promptState;
    // Field handles rather than Atomic* objects: three allocations fewer per request.
    private static final VarHandle WAITERS;
    private static final VarHandle LISTENER;
    private static final VarHandle PROMPT_STATE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WAITERS = lookup.findVarHandle(IoRequest.class, "waiters", Waiter.class);
            LISTENER = lookup.findVarHandle(IoRequest.class, "listener", Runnable.class);
            PROMPT_STATE = lookup.findVarHandle(IoRequest.class, "promptState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    IoRequest(IoOperation operation) {
        this(operation, Completions.NONE);
    }

    IoRequest(IoOperation operation, Completions engine) {
        this.operation = operation;
        this.engine = engine;
    }

    public IoOperation operation() {
        return operation;
    }

    /** Whether the request is done; first retires any completion the kernel already posted (never blocks). */
    public boolean isDone() {
        if (!completed) {
            engine.reapAvailable();
        }
        return completed;
    }

    /** Done, without looking for posted completions. */
    boolean completedFlag() {
        return completed;
    }

    Completions engine() {
        return engine;
    }

    /** Waits until the request is done. */
    public void await() throws InterruptedException {
        IoRequests.await(List.of(this), true, Long.MAX_VALUE);
    }

    /** Waits at most {@code timeout}; returns whether the request is done. A timeout of 0 polls. */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        return IoRequests.await(List.of(this), true, unit.toNanos(timeout));
    }

    /**
     * Bytes transferred (READ, WRITE, WRITE_THEN_FSYNC; 0 at end of file) or 0; only when done. When a
     * write-then-fsync failed, the bytes its write got to the file before the failure, none of them forced.
     */
    public long result() {
        requireDone();
        return result;
    }

    /** 0 on success, else the error number the operation failed with (ECANCELED when cancelled). */
    public int errno() {
        requireDone();
        return errno;
    }

    public boolean isCancelled() {
        return resultReady && errno == Errno.ECANCELED;
    }

    /** The failure as an exception naming the operation, file and offset; null on success. */
    public IOException exception() {
        requireDone();
        if (errno == 0) {
            return null;
        }
        String path = operation.file() == null ? "(no file)" : operation.file().path();
        return Errno.exception(operation.kind().name().toLowerCase(Locale.ROOT), errno, path,
                operation.buffer() == null ? -1 : operation.position());
    }

    /** The result, or the failure thrown. */
    public long resultOrThrow() throws IOException {
        IOException e = exception();
        if (e != null) {
            throw e;
        }
        return result;
    }

    /**
     * Runs {@code action} once when the request completes: on the thread that retires the completion, before
     * the request reads as done and before any waiter wakes, so it must be short and must not block; at once on
     * this thread if it is already done. At most one listener. The engine makes sure someone retires the
     * completion promptly (on io_uring: its completion thread, when no caller polls). A listener that throws
     * when the engine runs it is logged (WARNING); the request completes as usual.
     */
    public void whenDone(Runnable action) {
        setListener(action);
        prompt();
    }

    /**
     * Like {@link #whenDone} but lazy: the action runs whenever the completion is retired (by the next thread
     * that waits, polls, submits or {@link #prompt() prompts} on this engine), which alone does not wake the
     * engine's completion thread. For bookkeeping that only matters once someone looks.
     */
    public void whenDoneLazily(Runnable action) {
        setListener(action);
    }

    /** Asks the engine to retire this request's completion promptly even if nobody waits for it. */
    public void prompt() {
        if (PROMPT_STATE.compareAndSet(this, 0, 1)) {
            engine.listener(true);
        }
    }

    private void setListener(Runnable action) {
        if (!LISTENER.compareAndSet(this, NO_LISTENER, action)) {
            if (listener == COMPLETED) {
                action.run();
                return;
            }
            throw new IllegalStateException("a listener is already set");
        }
    }

    /** Registers {@code waiter} to be unparked at completion; false if the request is already done. */
    boolean addWaiter(Waiter waiter) {
        while (true) {
            Waiter head = waiters;
            while (head != null && head != DONE && head.thread == null) {   // drop waiters that left
                WAITERS.compareAndSet(this, head, head.next);
                head = waiters;
            }
            if (head == DONE) {
                return false;
            }
            waiter.next = head;
            if (WAITERS.compareAndSet(this, head, waiter)) {
                return true;
            }
        }
    }

    /**
     * Called by the engine, exactly once: the result is visible to the listener, and the listener has run
     * before any waiter wakes.
     */
    void complete(long bytes, int error) {
        this.result = bytes;
        this.errno = error;
        this.resultReady = true;
        try {
            Runnable action = (Runnable) LISTENER.getAndSet(this, COMPLETED);
            if (action != NO_LISTENER && action != COMPLETED) {
                runListener(action);
            }
        } finally {
            this.completed = true;
            if ((int) PROMPT_STATE.getAndSet(this, 2) == 1) {
                engine.listener(false);
            }
            for (Waiter w = (Waiter) WAITERS.getAndSet(this, DONE); w != null && w != DONE; w = w.next) {
                Thread t = w.thread;
                if (t != null) {
                    LockSupport.unpark(t);
                }
            }
        }
    }

    /**
     * Runs the listener on the thread retiring the completion. Its failure is its own, logged: thrown from here
     * it would leave that thread midway through a batch of completions (other requests' listeners not run, their
     * waiters not woken), or reach a thread that only waited for another request.
     */
    private void runListener(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            System.getLogger(IoRequest.class.getName()).log(System.Logger.Level.WARNING,
                    "the completion listener of " + operation.describe() + " failed", e);
        }
    }

    private void requireDone() {
        if (!resultReady) {
            throw new IllegalStateException("request still in flight: " + operation.describe());
        }
    }

    @Override
    public String toString() {
        return operation.describe() + (resultReady ? (errno == 0 ? " -> " + result : " -> " + Errno.describe(errno)) : " (in flight)");
    }
}
