package org.hpio.internal.io;

import org.hpio.internal.sys.Errno;
import org.hpio.internal.sys.NativeFile;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * What both engines share: admission against the in-flight bound, the file lease each request holds until it
 * completes, the O_DIRECT alignment check, the table of live requests, submission (admission, then the
 * engine's {@link #enqueue}), the operations done on the calling thread instead ({@link #perform},
 * {@link #readNowOrSubmit}: the same admission, so the same fault hook and bounds, except that a read done at
 * once takes no place), and the drain on close.
 *
 * @param <J> the engine's per-request state
 */
abstract class EngineBase<J extends EngineBase.Job> implements Completions {
    // Completions' defaults fit the thread-pool engine: its workers complete requests, a waiter just parks.

    /** An entry of the queue for a place in flight: a {@link Job} to dispatch with it, or a {@link PlaceTicket}. */
    interface WaitsForPlace {
    }

    /**
     * Per-request state: the request, and the lease that keeps its file open until completion. An injected
     * fault may shorten what is really done ({@link #op()}: a prefix of the request's operation) or fail it.
     */
    static class Job implements WaitsForPlace {
        final IoRequest request;
        final NativeFile.Lease lease;
        /** Set at admission when the fault hook shortened the operation; null otherwise. */
        IoOperation shortened;
        /** Set at admission when the fault hook fails the operation at completion; 0 otherwise. */
        int injectedErrno;

        Job(IoRequest request, NativeFile.Lease lease) {
            this.request = request;
            this.lease = lease;
        }

        /** What the engine really does: the request's operation, or the prefix a short fault left of it. */
        IoOperation op() {
            IoOperation s = shortened;
            return s != null ? s : request.operation();
        }

        int fd() {
            return lease.fd();
        }
    }

    /**
     * A thread waiting in the queue for a place for its own request ({@link #submit}, {@link #perform},
     * {@link #readNowOrSubmit}): the thread that frees a place hands it over (or, at close, refuses it) and
     * unparks it. Settled once, by whichever of the two moves first: a withdrawn ticket (its thread was
     * interrupted) gets no place, a granted one holds a place its thread must use or give back.
     */
    private static final class PlaceTicket implements WaitsForPlace {
        private static final int WAITING = 0;
        private static final int GRANTED = 1;
        private static final int REFUSED = 2;
        private static final int WITHDRAWN = 3;

        private final Thread thread = Thread.currentThread();
        private final AtomicInteger state = new AtomicInteger(WAITING);

        /** Settles the ticket as {@code outcome} and unparks its thread; false if it was settled before. */
        boolean settle(int outcome) {
            if (!state.compareAndSet(WAITING, outcome)) {
                return false;
            }
            LockSupport.unpark(thread);
            return true;
        }

        boolean settled() {
            return state.get() != WAITING;
        }

        boolean granted() {
            return state.get() == GRANTED;
        }
    }

    /** Any thread but the submitter: asks a buffer's arena whether a worker may use it. */
    private static final Thread ANOTHER_THREAD = new Thread(() -> { });

    final EngineConfig config;
    final StagingBudget staging;
    final LiveJobs<J> live;
    /** Places in flight: one per request from admission to completion. */
    private final AdmissionGate permits;
    /**
     * Who waits for a place in flight, in the order they came (one FIFO for both kinds, so neither starves the
     * other): jobs of callers that wait for their request anyway ({@link #submitToWait}), dispatched by the
     * thread that frees their place, and threads that wait for a place themselves ({@link PlaceTicket}).
     */
    private final ConcurrentLinkedQueue<WaitsForPlace> waitingForPlace = new ConcurrentLinkedQueue<>();
    /** Set while one thread moves waiting jobs into freed places (see {@link #admitWaiting}). */
    private final AtomicBoolean admittingWaiting = new AtomicBoolean();
    volatile boolean closing;

    EngineBase(EngineConfig config) {
        this.config = config;
        this.permits = new AdmissionGate(config.maxInFlight(), config.failFast());
        this.live = new LiveJobs<>(config.maxInFlight());
        this.staging = new StagingBudget(config.maxStagingBytes(), config.failFast(), this);
    }

    abstract String engineName();

    abstract J newJob(IoRequest request, NativeFile.Lease lease);

    /** Hands an admitted job to the engine's own mechanism (the ring, or the pool). */
    abstract void enqueue(J job);

    /** See {@link IoEngine#submit}: admission, then the injected fault or the engine's mechanism. */
    public final IoRequest submit(IoOperation op) throws IOException {
        J job = admit(op);
        if (injectedFault(job)) {
            return job.request;
        }
        dispatch(job);
        return job.request;
    }

    /**
     * See {@link IoEngine#submitToWait}: as {@link #submit}, but when every place in flight is taken the request
     * waits in the engine's queue for the next free place instead of the caller waiting for one; the caller then
     * waits for the request as usual. A thread beyond the bound so wakes once (at its completion), not twice
     * (for a place, then for the completion), and the place goes to the queued request as soon as it is freed.
     */
    public final IoRequest submitToWait(IoOperation op) throws IOException {
        if (!queuesForPlace(op)) {
            return submit(op);   // fail-fast refuses at the bound; a confined buffer is used on this thread only
        }
        InjectedFault fault = checkAdmission(op);
        if (!waitingForPlace.isEmpty() || !permits.tryAcquire(1)) {
            return queueForPlace(newLeasedJob(op, fault));
        }
        J job = admitWithPlace(op, fault);
        if (!injectedFault(job)) {
            dispatch(job);
        }
        return job.request;
    }

    /** Whether {@code op} may wait in the queue for a place (not fail-fast, not bound to the submitting thread). */
    private boolean queuesForPlace(IoOperation op) {
        return !config.failFast() && !onlySubmitterCanUse(op);
    }

    /** {@code job}, leased and without a place in flight, queued; dispatched when a place is free. */
    private IoRequest queueForPlace(J job) {
        waitingForPlace.add(job);
        if (closing && waitingForPlace.remove(job)) {   // close may have emptied the queue before this add
            completeWithoutPlace(job, 0, Errno.ECANCELED);
        }
        admitWaiting();   // a place freed since the failed tryAcquire would otherwise stay unused
        return job.request;
    }

    /**
     * Moves the queue's entries into free places, in order: dispatches a job, hands a place to a waiting thread
     * (one thread at a time; a thread that finds another at it leaves, and that one looks again before it
     * stops). After close, cancels the jobs and refuses the threads instead.
     */
    private void admitWaiting() {
        while (!waitingForPlace.isEmpty() && (closing || permits.fits(1))) {
            if (!admittingWaiting.compareAndSet(false, true)) {
                return;
            }
            try {
                admitWaitingNow();
            } finally {
                admittingWaiting.set(false);
            }
        }
    }

    private void admitWaitingNow() {
        boolean admitted = false;
        try {
            admitted = admitQueued();
        } finally {
            if (admitted) {
                queuedJobsAdmitted();
            }
        }
    }

    /** The loop of {@link #admitWaitingNow}; true when it made a queued job live. */
    private boolean admitQueued() {
        boolean admitted = false;
        while (!waitingForPlace.isEmpty()) {
            if (closing) {
                WaitsForPlace next = waitingForPlace.poll();
                if (next instanceof PlaceTicket ticket) {
                    settleTicket(ticket, PlaceTicket.REFUSED);
                } else if (next != null) {
                    completeWithoutPlace((Job) next, 0, Errno.ECANCELED);
                    waitEndedOffRing(null);
                }
                continue;
            }
            if (!permits.tryAcquire(1)) {
                return admitted;
            }
            WaitsForPlace next = waitingForPlace.poll();
            if (next == null) {
                permits.release(1);
                return admitted;
            }
            if (next instanceof PlaceTicket ticket) {
                if (!settleTicket(ticket, PlaceTicket.GRANTED)) {
                    permits.release(1);   // withdrawn: the place goes to the next in line
                }
                continue;
            }
            J job = queuedJob(next);
            live.add(job);
            admitted = true;
            if (!refusedAtClose(job) && !injectedFault(job)) {
                dispatch(job);
            }
        }
        return admitted;
    }

    /** Settles {@code ticket} (see {@link PlaceTicket#settle}); its thread may be waiting in the kernel. */
    private boolean settleTicket(PlaceTicket ticket, int outcome) {
        if (!ticket.settle(outcome)) {
            return false;
        }
        waitEndedOffRing(ticket.thread);
        return true;
    }

    @SuppressWarnings("unchecked")   // the queue holds only this engine's jobs and tickets
    private J queuedJob(WaitsForPlace entry) {
        return (J) entry;
    }

    /** At close (after {@link #closing} is set): every job still queued for a place completes ECANCELED. */
    final void cancelWaiting() {
        admitWaiting();
    }

    /** Cancels {@code request} if it is still queued for a place (then it completes ECANCELED at once). */
    final boolean cancelIfWaiting(IoRequest request) {
        for (WaitsForPlace entry : waitingForPlace) {
            if (entry instanceof Job job && job.request == request) {
                if (waitingForPlace.remove(job)) {
                    completeWithoutPlace(job, 0, Errno.ECANCELED);
                    waitEndedOffRing(null);
                    return true;
                }
                return false;
            }
        }
        return false;
    }

    /** See {@link IoEngine#cancel}. */
    abstract boolean cancel(IoRequest request);

    /**
     * See {@link IoEngine#cancelAll}. Looks through the queue and the live table without holding up admission
     * (holding {@link #admittingWaiting} over a scan of thousands of queued jobs let every place drain: the
     * engine then sat idle with its readers queued). A request met while it moves from the queue to a place
     * (cancel finds it in neither for a moment) is asked again until it is cancelled or done.
     */
    public final int cancelAll(NativeFile file) {
        Set<IoRequest> found = Collections.newSetFromMap(new IdentityHashMap<>());   // one moving is seen twice
        for (WaitsForPlace entry : waitingForPlace) {
            if (entry instanceof Job job && job.request.operation().file() == file) {
                found.add(job.request);
            }
        }
        for (IoRequest request : live.requests()) {
            if (request.operation().file() == file) {
                found.add(request);
            }
        }
        int asked = 0;
        for (IoRequest request : found) {
            if (cancelMoving(request)) {
                asked++;
            }
        }
        return asked;
    }

    /** Cancels {@code request}, asking again for a moment while it is neither queued nor live yet (moving). */
    private boolean cancelMoving(IoRequest request) {
        long deadline = System.nanoTime() + MOVE_NANOS;
        while (true) {
            if (cancel(request)) {
                return true;
            }
            if (request.isDone() || System.nanoTime() > deadline) {
                return false;   // done, or not this engine's to cancel: it completes by itself
            }
            Thread.yield();   // a virtual thread gives its carrier to the thread moving it
        }
    }

    /** How long {@link #cancelAll} asks again for a request on its way from the queue to a place. */
    private static final long MOVE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** Completes a job that holds no place (a read done at once, a cancelled queued one): its file is let go. */
    private static void completeWithoutPlace(Job job, long bytes, int errno) {
        closeLease(job);
        job.request.complete(bytes, errno);
    }

    /** Hands {@code job} to the engine, or does it here when only this thread can use its buffer. */
    private void dispatch(J job) {
        if (onlySubmitterCanUse(job.request.operation())) {
            runBlocking(job);
        } else {
            enqueue(job);
        }
    }

    /**
     * Whether {@code op}'s buffer belongs to a confined arena of the submitting thread while native calls are off:
     * a worker then cannot hand it to the JDK's channel (the native engine uses it by address, as the kernel
     * does), so the operation is done on the submitting thread, and the request is complete when it returns.
     */
    private static boolean onlySubmitterCanUse(IoOperation op) {
        return op.buffer() != null && op.file() != null && op.file().isPortable()
                && !op.buffer().isAccessibleBy(ANOTHER_THREAD);
    }

    /**
     * Admits {@code op}: asks the fault hook about it (once), waits for (or, fail-fast, demands) a free place
     * in flight; leases its file. A refused submission (injected) throws before anything is held.
     */
    final J admit(IoOperation op) throws IOException {
        InjectedFault fault = checkAdmission(op);
        acquirePermit();
        return admitWithPlace(op, fault);
    }

    /**
     * As {@link #admit}, for one operation of a batch: when no place is free at once, {@code beforeWaiting} runs
     * first (the batch hands the kernel the jobs it admitted so far, whose completions free the places this one
     * waits for; without that a batch larger than the free places waited for itself).
     */
    final J admitInBatch(IoOperation op, Runnable beforeWaiting) throws IOException {
        InjectedFault fault = checkAdmission(op);
        if (!waitingForPlace.isEmpty() || !permits.tryAcquire(1)) {
            beforeWaiting.run();
            acquirePermit();
        }
        return admitWithPlace(op, fault);
    }

    /** The checks before a place is taken: engine open, O_DIRECT alignment, an injected refusal (thrown). */
    private InjectedFault checkAdmission(IoOperation op) throws IOException {
        if (closing) {
            throw new IOException("the " + engineName() + " engine is closed");
        }
        if (op.file() != null && op.file().isDirect() && op.buffer() != null) {
            op.file().directAlignment().check(op.buffer().address(), op.position(), op.buffer().byteSize());
        }
        InjectedFault fault = config.faults().faultFor(op);
        if (fault.kind() == InjectedFault.Kind.REFUSE_SUBMISSION) {
            throw Errno.exception("submit of " + op.kind().name().toLowerCase(Locale.ROOT)
                    + " (injected fault)", fault.errno(), op.file() == null ? "(no file)" : op.file().path(),
                    op.buffer() == null ? -1 : op.position());
        }
        return fault;
    }

    /** With a place taken: the job, its file leased, recorded live; on failure the place is given back. */
    private J admitWithPlace(IoOperation op, InjectedFault fault) throws IOException {
        J job;
        try {
            if (closing) {
                throw new IOException("the " + engineName() + " engine is closed");
            }
            job = newLeasedJob(op, fault);
            live.add(job);
        } catch (IOException | RuntimeException | Error e) {
            releasePlace();
            throw e;
        }
        if (refusedAtClose(job)) {
            throw new IOException("the " + engineName() + " engine is closed");
        }
        return job;
    }

    /**
     * Whether {@code job}, just made live, must not go to the engine after all because close began meanwhile:
     * close may have found the table of live requests empty before it was added (and gone on to stop the
     * engine), so the job is finished here, ECANCELED, its place and lease given back. Adding, then looking at
     * {@link #closing}, pairs with close's setting it, then looking at the table (both volatile): either close
     * sees the job and waits for it, or the job sees close. The same as {@link #queueForPlace} does.
     */
    private boolean refusedAtClose(J job) {
        if (!closing) {
            return false;
        }
        finish(job, 0, Errno.ECANCELED);
        return true;
    }

    /** A job for {@code op} with its file leased and the fault hook's decision noted; not yet live. */
    private J newLeasedJob(IoOperation op, InjectedFault fault) throws IOException {
        NativeFile.Lease lease = op.file() == null ? null : op.file().lease();
        try {
            IoRequest request = new IoRequest(op, this);
            J job = newJob(request, lease);
            applyFault(job, fault);
            return job;
        } catch (RuntimeException | Error e) {
            if (lease != null) {
                lease.close();   // the file is not held by a request that never went in
            }
            throw e;
        }
    }

    /** Frees a place in flight: the first in the queue takes it (see {@link #submitToWait}, {@link PlaceTicket}). */
    private void releasePlace() {
        permits.release(1);
        if (!waitingForPlace.isEmpty()) {
            admitWaiting();
        }
    }

    /**
     * A place in flight: at once when one is free and nobody queues for one (the per-request path); else,
     * fail-fast, refused; else this thread queues for one in turn ({@link PlaceTicket}) and waits.
     */
    private void acquirePermit() throws IOException {
        if (waitingForPlace.isEmpty() && permits.tryAcquire(1)) {
            return;
        }
        if (config.failFast()) {
            if (permits.tryAcquire(1)) {   // a fail-fast engine queues nothing
                return;
            }
            throw new EngineSaturatedException(config.maxInFlight() + " requests already in flight on the "
                    + engineName() + " engine");
        }
        PlaceTicket ticket = new PlaceTicket();
        waitingForPlace.add(ticket);
        admitWaiting();   // also refuses it if close emptied the queue before this add
        awaitTurn(ticket);
    }

    /**
     * Waits until {@code ticket} is settled: a thread that can poll the engine retires completions meanwhile
     * (they free the places), one that cannot (a virtual thread) parks while the engine knows that a waiter
     * parks ({@link Completions#parking}). On return the thread holds a place.
     *
     * @throws IOException when the engine closed first; {@link InterruptedIOException} when the thread was
     *         interrupted first (then it holds no place, and the interrupt status is kept)
     */
    private void awaitTurn(PlaceTicket ticket) throws IOException {
        while (!ticket.settled()) {
            if (Thread.interrupted()) {
                withdraw(ticket);
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for room in the " + engineName()
                        + " engine");
            }
            if (!pollFor(ticket::settled, IoRequests.SLICE_NANOS, () -> { })) {
                parking(true);
                try {
                    if (!ticket.settled()) {
                        LockSupport.park(this);
                    }
                } finally {
                    parking(false);
                }
            }
        }
        if (!ticket.granted()) {
            throw new IOException("the " + engineName() + " engine is closed");
        }
    }

    /** Takes {@code ticket} out of the queue; a place handed to it in the meantime goes to the next in line. */
    private void withdraw(PlaceTicket ticket) {
        if (ticket.settle(PlaceTicket.WITHDRAWN)) {
            waitingForPlace.remove(ticket);
        } else if (ticket.granted()) {
            releasePlace();
        }
    }

    /** Notes in {@code job} what the fault hook decided at admission (a shortened operation, a failure). */
    private static void applyFault(Job job, InjectedFault fault) {
        IoOperation op = job.request.operation();
        switch (fault.kind()) {
            case COMPLETE_WITH_ERRNO -> job.injectedErrno = fault.errno();
            case SHORT -> {
                if (op.kind() != IoOperation.Kind.READ && op.kind() != IoOperation.Kind.WRITE) {
                    throw new IllegalStateException("a short transfer can only be injected into a read or write, not "
                            + op.describe());
                }
                if (fault.bytes() < op.length()) {
                    job.shortened = op.shortenedTo(fault.bytes());
                }
            }
            case NONE, REFUSE_SUBMISSION -> { }
        }
    }

    /**
     * Applies an injected failure: when the fault hook failed {@code job}'s operation at admission, the job
     * completes with that errno at once, without any I/O, and this returns true (the engine does not submit it).
     */
    final boolean injectedFault(J job) {
        int errno = job.injectedErrno;
        if (errno == 0) {
            return false;
        }
        finish(job, 0, errno);
        return true;
    }

    /**
     * Does {@code op} on the calling thread and returns its request, already done: the same admission as a
     * submission (the fault hook, the engine's bound, the file lease, the table of live requests), then
     * {@link BlockingIo} instead of the engine's own mechanism, then the same completion (listener, waiters).
     */
    public final IoRequest perform(IoOperation op) throws IOException {
        J job = admit(op);
        if (!injectedFault(job)) {
            runBlocking(job);
        }
        return job.request;
    }

    /**
     * See {@link IoEngine#readNowOrSubmit}: the admission checks (the fault hook is asked once) and the file's
     * lease, then a read that does not wait on this thread, which takes no place in flight (it holds nothing
     * after the call, so a full engine does not make it wait); only if that could not read everything does
     * the request take a place, as {@link #submit} does, and go to the engine's mechanism.
     */
    public final IoRequest readNowOrSubmit(IoOperation op) throws IOException {
        return readNow(op, false);
    }

    /** See {@link IoEngine#readNowOrSubmitToWait}: {@link #readNowOrSubmit}, then as {@link #submitToWait}. */
    public final IoRequest readNowOrSubmitToWait(IoOperation op) throws IOException {
        return readNow(op, true);
    }

    private IoRequest readNow(IoOperation op, boolean callerWaits) throws IOException {
        if (op.kind() != IoOperation.Kind.READ) {
            throw new IllegalArgumentException("only a read can be tried without waiting, not " + op.describe());
        }
        J job = newLeasedJob(op, checkAdmission(op));
        if (job.injectedErrno != 0) {
            completeWithoutPlace(job, 0, job.injectedErrno);
            return job.request;
        }
        BlockingIo.Outcome outcome;
        try {
            // A blocking call takes a short read at the end of the file at once too; an asynchronous one (AsyncFile,
            // AsynchronousFileChannel) leaves it to the engine, as before (what their tests' pending reads use).
            outcome = BlockingIo.readNow(job, callerWaits);
        } catch (RuntimeException | Error e) {
            completeWithoutPlace(job, 0, Errno.EIO);
            throw e;
        }
        if (outcome != null) {
            completeWithoutPlace(job, outcome.bytes(), outcome.errno());
            return job.request;
        }
        if (callerWaits && queuesForPlace(op)) {
            if (!waitingForPlace.isEmpty() || !permits.tryAcquire(1)) {
                return queueForPlace(job);   // its turn after the requests queued before it
            }
            placeTaken(job);
        } else {
            placeLeased(job);
        }
        dispatch(job);
        return job.request;
    }

    /**
     * Takes a place in flight for {@code job}, already leased (waiting for one, or fail-fast refusing), and
     * records it live; if it cannot, the lease is let go and the failure thrown, with nothing held.
     */
    private void placeLeased(J job) throws IOException {
        try {
            acquirePermit();
        } catch (IOException | RuntimeException | Error e) {
            closeLease(job);
            throw e;
        }
        placeTaken(job);
    }

    /** Records {@code job}, leased and holding a place just taken, live; if the engine closed, lets both go. */
    private void placeTaken(J job) throws IOException {
        if (closing) {
            releasePlace();
            closeLease(job);
            throw new IOException("the " + engineName() + " engine is closed");
        }
        live.add(job);
    }

    private static void closeLease(Job job) {
        if (job.lease != null) {
            job.lease.close();
        }
    }

    /**
     * Does {@code job}'s operation by blocking calls on this thread and completes it. An unexpected runtime
     * failure completes it with EIO (nothing stays live) and is rethrown.
     */
    final void runBlocking(J job) {
        if (claimedByCaller(job)) {
            runClaimed(job);
        }
    }

    /**
     * Whether the calling thread may run {@code job} itself ({@link #perform}, a buffer only the submitter can
     * use): false when a cancel took it first (then it is finished already). The thread-pool engine's cancel
     * ends a job nobody runs yet; its claim here keeps it from ending one that this thread is about to run.
     */
    boolean claimedByCaller(J job) {
        return true;
    }

    /** Runs {@code job}, claimed by this thread, and completes it. */
    final void runClaimed(J job) {
        BlockingIo.Outcome outcome;
        try {
            outcome = BlockingIo.run(job);
        } catch (RuntimeException | Error e) {
            finish(job, 0, Errno.EIO);
            throw e;
        }
        finish(job, outcome.bytes(), outcome.errno());
    }

    /** Completes {@code job}: its file and place in flight are released before waiters and listeners run. */
    final void finish(J job, long bytes, int errno) {
        if (!live.remove(job)) {
            return;
        }
        if (job.lease != null) {
            job.lease.close();
        }
        releasePlace();
        deliver(job.request, bytes, errno);
    }

    /** Hands {@code request} its result (its waiters and listener run): at once here; an engine may hold it a moment. */
    void deliver(IoRequest request, long bytes, int errno) {
        request.complete(bytes, errno);
    }

    public final int inFlight() {
        return live.size();
    }

    /** How many wait in the queue for a place now: requests and threads (counts the queue: for tests). */
    final int queuedForPlace() {
        return waitingForPlace.size();
    }

    public final boolean isClosed() {
        return closing;
    }

    public final EngineConfig config() {
        return config;
    }

    public final StagingBudget staging() {
        return staging;
    }

    /** Waits until every live request completed (after close asked them to cancel). */
    final void awaitDrained() {
        awaitDrained(live::any);
    }

    /**
     * Waits until {@code pending} has no request left to wait for (null), awaiting each it gives; an interrupt
     * is kept for after: close must not return with buffers still the kernel's (or a worker's).
     */
    final void awaitDrained(Supplier<IoRequest> pending) {
        boolean interrupted = false;
        IoRequest any;
        while ((any = pending.get()) != null) {
            try {
                any.await(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                interrupted = true;   // close must not return with buffers still the kernel's
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
