package org.hpio.async;

import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoOperation;
import org.hpio.internal.io.IoRequest;
import org.hpio.internal.io.IoRequests;
import org.hpio.internal.mem.StagingBuffer;
import org.hpio.internal.sys.Errno;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.Objects;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The handle of one asynchronous request (000 §4.1.2, Figure 3), with the states of Figure 4: In Flight, then
 * Completed, I/O Error or Cancelled; I/O Error (and Cancelled) move to Error Cleared by
 * {@link #clearException()}. Every Done method that includes a request in I/O Error throws its IOException,
 * each time, until it is cleared; a cancelled one throws {@link AsyncIOCanceledException}.
 *
 * <p>When a request leaves In Flight, everything is in place: a read into a heap array has been copied into
 * the array, staging memory is back, and the file's count of requests in flight went down. That happens on
 * whichever thread retires the completion (one that waits, polls or initiates on the same engine), never
 * later than the first Done method that sees the request done.
 *
 * <p>Thread-safe: any thread may wait for, cancel or clear a request.
 */
public final class AsyncFileRequest {
    /** The states of Figure 4. */
    public enum State { IN_FLIGHT, COMPLETED, IO_ERROR, CANCELLED, ERROR_CLEARED }

    /** The file this request belongs to. */
    public final AsyncFile parent;

    /** The initiating method ("writeArray", "force"...): the description is made from it only when needed. */
    private final String operation;
    private final long position;
    private final long length;
    /**
     * Where a read lands (or a direct write's memory), until the request settles; null for a staged write,
     * whose data was copied at initiation: the request must not keep the caller's array alive.
     */
    private volatile Transfer transfer;
    private final boolean read;
    private final IoRequest[] parts;
    private final StagingBuffer[] staging;
    private final long stagingBytes;
    private final IoEngine engine;
    private final AtomicInteger remaining;
    private volatile State state = State.IN_FLIGHT;
    private volatile IOException failure;
    private volatile long transferred;
    private final AtomicReference<CompletableFuture<Long>> future = new AtomicReference<>();

    // One argument per final field, given by the two places AsyncFile initiates a request (a transfer, a force).
    @SuppressWarnings("checkstyle:ParameterNumber")
    AsyncFileRequest(AsyncFile parent, String operation, long position, Transfer transfer, boolean read,
                     IoEngine engine, StagingBuffer[] staging, long stagingBytes, int parts) {
        this.parent = parent;
        this.operation = operation;
        this.position = position;
        this.length = transfer == null ? 0 : transfer.bytes();
        this.transfer = read || (transfer != null && transfer.direct() != null) ? transfer : null;
        this.read = read;
        this.engine = engine;
        this.staging = staging;
        this.stagingBytes = stagingBytes;
        this.parts = new IoRequest[parts];
        this.remaining = new AtomicInteger(parts);
    }

    /** Called once by the file after submission: each part settles the request when the last one is retired. */
    void attach(List<IoRequest> submitted) {
        for (int i = 0; i < parts.length; i++) {
            parts[i] = submitted.get(i);
        }
        if (parts.length == 0) {
            settle();
            return;
        }
        for (IoRequest part : parts) {
            part.whenDoneLazily(this::partDone);
        }
    }

    private void partDone() {
        if (remaining.decrementAndGet() == 0) {
            settle();
        }
    }

    /** Everything that happens when the last part is retired; runs once, on the retiring thread. */
    private void settle() {
        boolean cancelled = false;
        IOException error = null;
        long moved = 0;
        try {
            for (IoRequest part : parts) {
                int errno = part.errno();
                if (errno == Errno.ECANCELED) {
                    cancelled = true;
                } else if (errno != 0) {
                    error = error != null ? error : part.exception();
                } else {
                    moved += part.result();
                    error = error != null ? error : shortTransfer(part);
                }
            }
            Transfer target = transfer;
            if (!cancelled && error == null && read && target.direct() == null) {
                long offset = 0;
                for (StagingBuffer buffer : staging) {
                    target.decode(buffer.segment(), offset);
                    offset += buffer.segment().byteSize();
                }
            }
        } catch (RuntimeException e) {
            error = new IOException(description() + ": " + e, e);
        } finally {
            for (StagingBuffer buffer : staging) {
                buffer.release();
            }
            if (stagingBytes > 0) {
                engine.staging().release(stagingBytes);
            }
        }
        transfer = null;
        transferred = moved;
        failure = cancelled ? new AsyncIOCanceledException(description() + " was cancelled") : error;
        state = cancelled ? State.CANCELLED : error != null ? State.IO_ERROR : State.COMPLETED;
        parent.retired(this);
        CompletableFuture<Long> f = future.get();
        if (f != null) {
            completeLater(f);
        }
    }

    private IOException shortTransfer(IoRequest part) {
        IoOperation op = part.operation();
        long asked = op.buffer() == null ? 0 : op.buffer().byteSize();
        if (part.result() >= asked) {
            return null;
        }
        String where = " at offset " + (op.position() + part.result()) + " of " + parent.path();
        return read ? new EOFException(description() + ": the file ended" + where + " (truncated since initiation?)")
                : new IOException(description() + ": only " + part.result() + " of " + asked
                        + " bytes written; stopped" + where);
    }

    // ---- the paper's methods ----

    /** Waits for ever until the request is done; {@code done(TIME_INF)}. */
    public boolean done() throws IOException {
        return done(AsyncFile.TIME_INF);
    }

    /**
     * Waits at most {@code timetowait} milliseconds (0 polls, {@link AsyncFile#TIME_INF} or any negative value
     * waits for ever) and returns whether the request is done. Throws the request's IOException when it is in
     * I/O Error (each time, until cleared), {@link AsyncIOCanceledException} when it was cancelled, and
     * {@link InterruptedIOException} when the thread is interrupted while it waits.
     */
    public boolean done(long timetowait) throws IOException {
        if (settled()) {   // already done (a small request is, when initiation returns): nothing to wait for
            throwIfFailed();
            return true;
        }
        return AsyncFile.allDone(timetowait, this);
    }

    /** {@link #done(long)} with a unit. */
    public boolean done(long timeout, TimeUnit unit) throws IOException {
        return AsyncFile.await(List.of(this), true, unit.toNanos(timeout));
    }

    /**
     * Cancels the request if it is still in flight and returns once it no longer is: its state is then
     * Cancelled (or Completed or I/O Error, if it finished first), and its buffer is the caller's again (a
     * cancelled read leaves the array as it was).
     */
    public void cancel() throws IOException {
        for (IoRequest part : parts) {
            if (part != null && !part.isDone()) {
                engine.cancel(part);
            }
        }
        awaitUninterruptibly();
    }

    /** Moves a request in I/O Error or Cancelled to Error Cleared; does nothing in any other state. */
    public void clearException() {
        State s = state;
        if (s == State.IO_ERROR || s == State.CANCELLED) {
            state = State.ERROR_CLEARED;
            parent.cleared(this);
        }
    }

    // ---- additions ----

    public State state() {
        return state;
    }

    /** The failure of a request in I/O Error or Cancelled (also after it was cleared); null otherwise. */
    public IOException exception() {
        return failure;
    }

    /** Bytes moved; meaningful once the request is done. */
    public long transferred() {
        return transferred;
    }

    /** The file offset the request starts at. */
    public long position() {
        return position;
    }

    /** The request's length in bytes. */
    public long length() {
        return length;
    }

    /**
     * Waits until the request is no longer in flight, however often the thread is interrupted meanwhile (the
     * interrupt status is kept for the caller): the one wait for "the kernel is done with this memory", before a
     * read's or a direct write's buffer is freed, reused or handed back to a pool. Throws nothing: the request's
     * outcome (Completed, I/O Error, Cancelled) stays for {@link #done(long)} and {@link #state()}. The request
     * settles in the listener of its last part, before that part reads as done.
     */
    public void awaitUninterruptibly() {
        while (!settled()) {
            List<IoRequest> attached = Arrays.stream(parts).filter(Objects::nonNull).toList();
            if (attached.size() < parts.length) {
                // Another thread is still submitting it (perhaps waiting at the engine's bound): it attaches the
                // parts, or, if the engine refuses them, settles the request as refused (see refused).
                LockSupport.parkNanos(SUBMISSION_LOOK_NANOS);
                continue;
            }
            IoRequests.awaitAllUninterruptibly(attached);
        }
    }

    /** How often a thread waiting for a request that another thread is still submitting looks again. */
    static final long SUBMISSION_LOOK_NANOS = 20_000;

    /**
     * Called once by the file when the engine refused the submission (nothing of it is in flight): the request
     * leaves flight as Error Cleared, since its initiator was told by the exception and nobody else holds it,
     * so that a close, a cancel or a wait over the file's requests that met it while it was being submitted
     * does not wait for it for ever.
     */
    void refused() {
        transfer = null;
        state = State.ERROR_CLEARED;
    }

    /**
     * A view for composition (003's "future bridge"): completes with the bytes moved, or exceptionally with
     * the request's IOException (an {@link AsyncIOCanceledException} when cancelled). It is completed on the
     * common fork-join pool, never on an engine's completion thread, and without a thread blocked per request.
     * Cancelling the future does not cancel the I/O: use {@link #cancel()}.
     */
    public CompletableFuture<Long> toCompletableFuture() {
        CompletableFuture<Long> f = future.get();
        if (f != null) {
            return f;
        }
        f = new CompletableFuture<>();
        if (!future.compareAndSet(null, f)) {
            return future.get();
        }
        for (IoRequest part : parts) {
            if (part != null) {
                part.prompt();   // nobody may wait: the engine must retire it by itself
            }
        }
        if (state != State.IN_FLIGHT) {
            completeLater(f);
        }
        return f;
    }

    private void completeLater(CompletableFuture<Long> f) {
        ForkJoinPool.commonPool().execute(() -> {
            IOException e = failure;
            if (e != null) {
                f.completeExceptionally(e);
            } else {
                f.complete(transferred);
            }
        });
    }

    /** What the request is, for messages: "writeArray of 4096 bytes at offset 0 of /path", "force of /path". */
    String description() {
        return operation.equals(AsyncFile.FORCE) ? operation + " of " + parent.path()
                : AsyncFile.describe(operation, length, position, parent.path());
    }

    // ---- for AsyncFile ----

    StagingBuffer[] stagingBuffers() {
        return staging;
    }

    boolean settled() {
        return state != State.IN_FLIGHT;
    }

    /** Adds the parts still in flight to {@code out}. */
    void pendingParts(List<IoRequest> out) {
        for (IoRequest part : parts) {
            if (part != null && !part.isDone()) {
                out.add(part);
            }
        }
    }

    /** Throws the request's failure if it is in I/O Error or Cancelled. */
    void throwIfFailed() throws IOException {
        State s = state;
        if (s == State.IO_ERROR || s == State.CANCELLED) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return description() + " [" + state + "]";
    }
}
