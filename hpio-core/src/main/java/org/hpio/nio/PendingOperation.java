package org.hpio.nio;

import org.hpio.internal.io.IoRequest;
import org.hpio.internal.sys.Errno;

import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.CompletionHandler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * One read, write or force of an {@link HpioAsynchronousFileChannel} in flight, and its {@link Future}.
 *
 * <p>Completion runs {@link #settle} on whichever thread retires the engine's completion (the engine's
 * completion thread, or a thread waiting in {@link #get}): it finishes the buffer transfer (copy-out of a staged
 * read, positions, staging memory back) and completes the future; it never runs the user's handler, which
 * goes to the channel's executor. {@link #get} waits on the engine request itself, so a platform thread reaps
 * its own completion and a virtual thread parks.
 */
final class PendingOperation<A> implements Future<Integer> {
    private final HpioAsynchronousFileChannel channel;
    private final BufferTransfer transfer;
    private final boolean read;
    private final A attachment;
    private final CompletionHandler<Integer, ? super A> handler;
    private final CompletableFuture<Integer> result = new CompletableFuture<>();
    private volatile IoRequest request;
    /**
     * Set once {@link #settle} is done with the caller's buffer (data copied, positions moved, staging back):
     * what the channel's close waits for ({@link #awaitBufferReturned}).
     */
    private volatile boolean bufferReturned;

    PendingOperation(HpioAsynchronousFileChannel channel, BufferTransfer transfer, boolean read, A attachment,
                     CompletionHandler<Integer, ? super A> handler) {
        this.channel = channel;
        this.transfer = transfer;
        this.read = read;
        this.attachment = attachment;
        this.handler = handler;
    }

    /** Called once, at submission, before the channel lists this operation as in flight. */
    void submitted(IoRequest submitted) {
        this.request = submitted;
    }

    /**
     * Called once, after {@link #submitted} and outside the channel's locks: settles when the request
     * completes, at once on this thread if it already did (settling may hand a handler to an executor that
     * runs it on the calling thread, and that handler may close the channel).
     */
    void listen() {
        if (handler != null) {
            request.whenDone(this::settle);   // nobody waits: the engine must retire it by itself
        } else {
            // A Future is only ever seen through get or isDone, which retire the completion themselves (so do
            // submitters at the engine's bounds): no wake-up of the engine's completion thread per operation.
            request.whenDoneLazily(this::settle);
        }
    }

    IoRequest request() {
        return request;
    }

    /** The request completed: the kernel is done with the memory. Short, never blocks, never runs user code. */
    private void settle() {
        channel.retired(this);
        IoRequest r = request;
        Integer bytes = null;
        Throwable failure = null;
        try {
            if (r.errno() == 0) {   // done before a close could stop it: reported, as the JDK does
                long moved = r.result();
                bytes = read && moved == 0 && transfer.bytes() > 0 ? -1 : (int) moved;
                transfer.finish(moved);
            } else if (r.errno() == Errno.ECANCELED || !channel.isOpen()) {
                failure = new AsynchronousCloseException();
            } else {
                failure = JdkErrors.asJdks(r.exception());   // a failed call: in the JDK's words
            }
        } catch (RuntimeException | Error e) {
            failure = new IOException(e);
        } finally {
            if (transfer != null) {
                transfer.release();
            }
            bufferReturned = true;
        }
        deliver(bytes, failure);
    }

    /**
     * Waits until {@link #settle} is done with the caller's buffer, after the request completed. The request's
     * completion can come before the submitting thread set the listener ({@link #listen}, called right after the
     * submission, outside the channel's lock); that thread then settles the operation itself, moments later.
     */
    void awaitBufferReturned() {
        while (!bufferReturned) {
            LockSupport.parkNanos(10_000);
        }
    }

    /** Fails the operation before it reached the engine (its transfer, if any, already released). */
    void failBeforeSubmission(Throwable failure) {
        deliver(null, failure);
    }

    private void deliver(Integer bytes, Throwable failure) {
        if (handler == null) {
            if (failure != null) {
                result.completeExceptionally(failure);
            } else {
                result.complete(bytes);
            }
            return;
        }
        dispatch(channel.handlerExecutor(), handler, attachment, bytes, failure);
    }

    /**
     * Runs {@code handler} on {@code executor}, never on the calling thread. When the executor refuses it (shut
     * down after the operation began, or saturated), the handler runs on a thread of its own: the JDK's channel
     * hands the executor the whole operation when it begins, so a handler whose operation the executor took
     * before its shutdown still runs; none is dropped.
     */
    static <V, A> void dispatch(Executor executor, CompletionHandler<V, ? super A> handler, A attachment, V value,
                                Throwable failure) {
        Runnable task = () -> {
            if (failure != null) {
                handler.failed(failure, attachment);
            } else {
                handler.completed(value, attachment);
            }
        };
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            HpioAsynchronousFileChannel.OWN_THREAD_HANDLERS.execute(task);
        }
    }

    // ---- Future ----

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (result.isDone() || !result.cancel(false)) {   // false once done, as the JDK's futures say
            return false;
        }
        IoRequest r = request;
        if (r != null) {
            channel.cancel(r);
        }
        if (mayInterruptIfRunning) {   // as the JDK: a forceful cancel closes the channel
            channel.closeQuietly();
        }
        return true;
    }

    @Override
    public boolean isCancelled() {
        return result.isCancelled();
    }

    @Override
    public boolean isDone() {
        IoRequest r = request;
        if (!result.isDone() && r != null) {
            r.isDone();   // retires a completion already posted, which settles this operation
        }
        return result.isDone();
    }

    /**
     * Waits for the request itself (retiring its completion, see the class comment), at most
     * {@link #CANCEL_CHECK_NANOS} at a time: a {@link #cancel} completes this future at once while the request
     * may go on (a read the device already has), and every thread waiting here then throws
     * CancellationException, as the Javadoc of AsynchronousChannel says, within that time.
     */
    @Override
    public Integer get() throws InterruptedException, ExecutionException {
        IoRequest r = request;
        if (r != null) {
            while (!result.isDone() && !r.await(CANCEL_CHECK_NANOS, TimeUnit.NANOSECONDS)) {
                // the request goes on: look whether this future was cancelled meanwhile
            }
        }
        return result.get();
    }

    @Override
    public Integer get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        IoRequest r = request;
        if (r != null) {
            while (!result.isDone()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TimeoutException();
                }
                if (r.await(Math.min(left, CANCEL_CHECK_NANOS), TimeUnit.NANOSECONDS)) {
                    break;   // done: settled now, or by the thread retiring it a moment later
                }
            }
        }
        return result.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /** How long a thread in {@link #get} waits for the request before it looks again for a cancel. */
    static final long CANCEL_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** A future already done (nothing to transfer, or the channel was closed). */
    static Future<Integer> done(Integer bytes, Throwable failure) {
        CompletableFuture<Integer> f = new CompletableFuture<>();
        if (failure != null) {
            f.completeExceptionally(failure);
        } else {
            f.complete(bytes);
        }
        return f;
    }
}
