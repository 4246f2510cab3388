package org.hpio.internal.io;

import org.hpio.internal.sys.Errno;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A submitted {@link IoOperation}: in flight until the engine completes it with a result (bytes moved, never
 * less than 0) or an errno. Waiting parks the thread (virtual threads unmount); nothing here synchronizes.
 *
 * <p>The operation's buffer belongs to the engine until {@link #isDone()} is true.
 */
public final class IoRequest {
    private static final Runnable NO_LISTENER = () -> { };
    private static final Runnable COMPLETED = () -> { };

    private final IoOperation operation;
    private final CountDownLatch done = new CountDownLatch(1);
    /** The listener to run at completion; {@link #COMPLETED} once completion has run the listeners. */
    private final AtomicReference<Runnable> listener = new AtomicReference<>(NO_LISTENER);
    private volatile long result;
    private volatile int errno;
    /** Set once the result is in, before the listener runs; the latch opens after it ran. */
    private volatile boolean completed;

    IoRequest(IoOperation operation) {
        this.operation = operation;
    }

    public IoOperation operation() {
        return operation;
    }

    public boolean isDone() {
        return completed;
    }

    /** Waits until the request is done. */
    public void await() throws InterruptedException {
        done.await();
    }

    /** Waits at most {@code timeout}; returns whether the request is done. A timeout of 0 polls. */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        return timeout <= 0 ? done.getCount() == 0 : done.await(timeout, unit);
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
        return isDone() && errno == Errno.ECANCELED;
    }

    /** The failure as an exception naming the operation, file and offset; null on success. */
    public IOException exception() {
        requireDone();
        if (errno == 0) {
            return null;
        }
        String path = operation.file() == null ? "(no file)" : operation.file().path();
        return Errno.exception(operation.kind().name().toLowerCase(java.util.Locale.ROOT), errno, path,
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
     * Runs {@code action} once when the request completes: on the engine's completing thread, before any
     * waiter wakes, so it must be short and must not block; at once on this thread if it is already done. At
     * most one listener.
     */
    public void whenDone(Runnable action) {
        if (!listener.compareAndSet(NO_LISTENER, action)) {
            if (listener.get() == COMPLETED) {
                action.run();
                return;
            }
            throw new IllegalStateException("a listener is already set");
        }
    }

    /**
     * Called by the engine, exactly once: the result is visible to the listener, and the listener has run
     * before any waiter wakes.
     */
    void complete(long bytes, int error) {
        this.result = bytes;
        this.errno = error;
        this.completed = true;
        try {
            Runnable action = listener.getAndSet(COMPLETED);
            if (action != NO_LISTENER && action != COMPLETED) {
                action.run();
            }
        } finally {
            done.countDown();
        }
    }

    private void requireDone() {
        if (!isDone()) {
            throw new IllegalStateException("request still in flight: " + operation.describe());
        }
    }

    @Override
    public String toString() {
        return operation.describe() + (isDone() ? (errno == 0 ? " -> " + result : " -> " + Errno.describe(errno)) : " (in flight)");
    }
}
