package org.hpio.internal.io;

import org.hpio.internal.sys.NativeAccess;
import org.hpio.internal.sys.Errno;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.UringLayout;
import org.hpio.internal.sys.UringRing;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The io_uring engine: real kernel-asynchronous I/O driven through the FFM API (no JNI, no liburing).
 *
 * <p>Submission: any thread fills submission entries under a lock (a {@link ReentrantLock}, so a virtual
 * thread parks rather than pins) and hands every entry published so far to the kernel with one
 * {@code io_uring_enter}; {@link #submitAll} puts a whole batch in one call, and then retires whatever already
 * completed (page-cache reads complete inside the call). Completion: a platform thread that waits for a request
 * reaps the ring itself, holding the reap lock while it waits in {@code io_uring_enter(GETEVENTS)} with a
 * timeout and completing every request it finds (one wake-up per batch, no hand-off to another thread: the
 * leader/follower pattern; other waiters park as standbys and take over when it leaves). The engine's own
 * completion thread serves only those who cannot poll: requests with a listener, and parked threads (virtual
 * threads must not block in the kernel, which would pin their carrier). Requests that nobody waits for are
 * retired by the next submission, wait or {@link IoRequest#isDone()} on the engine.
 *
 * <p>Each request takes one or two completion slots (user_data is the slot number). A write-then-fsync is two
 * linked entries (IOSQE_IO_LINK); io_uring fails the link when the write comes back short, so the fsync
 * completes ECANCELED and the engine submits the rest of the write, linked to a new fsync, until all is
 * written: the result is never reported durable for bytes that were not written before the force.
 */
public final class UringEngine extends EngineBase<UringEngine.UringJob> implements IoEngine {
    private static final long CANCEL_TAG = 1L << 62;
    private static final long WAKE_TAG = 1L << 61;
    /** user_data of an entry turned into a NOP after io_uring_enter failed (see {@link #abandonUnconsumed}). */
    private static final long ABANDONED_TAG = 1L << 60;
    /**
     * Buffered transfers from this size on go to a kernel worker ({@link #offload}); 0 (one core, or
     * {@code -Dhpio.uring.offloadBytes=0}) keeps every transfer inline.
     */
    static final long OFFLOAD_BYTES = Runtime.getRuntime().availableProcessors() > 1
            ? Long.getLong("hpio.uring.offloadBytes", 128 << 10) : 0;
    private static final int[] REQUIRED_OPS = {UringLayout.IORING_OP_NOP, UringLayout.IORING_OP_READ,
            UringLayout.IORING_OP_WRITE, UringLayout.IORING_OP_FSYNC, UringLayout.IORING_OP_ASYNC_CANCEL};

    /**
     * A request and its slots in flight. {@code written}: bytes moved by its read or write so far (the
     * write of a write-then-fsync may take several rounds).
     */
    static final class UringJob extends Job {
        long written;
        int partsOut;
        int writeErrno;
        int fsyncErrno;
        int writeSlot = -1;
        int otherSlot = -1;

        UringJob(IoRequest request, NativeFile.Lease lease) {
            super(request, lease);
        }
    }

    private final UringRing ring;
    private final ReentrantLock submitLock = new ReentrantLock();
    /** Held by whichever thread is retiring completions: the completion thread, or a submitter reaping inline. */
    private final ReentrantLock reapLock = new ReentrantLock();
    /**
     * Slot i: the job whose entry has user_data i. Taken under submitLock; the thread that retires the entry's
     * completion clears it and gives the slot back through {@link #returnedSlots}, without submitLock (which
     * submitters hold across io_uring_enter), except for a linked write-then-fsync.
     */
    private final UringJob[] slots;
    /** Free slots, a stack; guarded by submitLock. */
    private final int[] freeSlots;
    private int freeCount;
    /**
     * Slots given back by completions, taken into {@link #freeSlots} when it runs out: a ring with one writer (the
     * reap lock's holder, see {@link #returnSlot}) and one reader (submitLock's holder), so neither side ever
     * waits for the other: with a lock here, a virtual thread refilling its free slots under submitLock could
     * park on it while a completion returned slots, holding submitLock the while. It never holds more than
     * every slot, so it cannot overrun.
     */
    private final int[] returnedSlots = new int[2 * config.maxInFlight()];
    /** Slots written to {@link #returnedSlots} (guarded by reapLock; published by {@link #returnedPublished}). */
    private long returnedWritten;
    private volatile long returnedPublished;
    /** Slots taken from {@link #returnedSlots} (guarded by submitLock). */
    private long returnedTaken;
    private final Thread reaper;
    private volatile boolean stopReaper;
    /**
     * Set while the completion thread parks in {@link #reapLoop} for want of work (not while it waits in the
     * kernel, where completions wake it): only then does a thread that gives it work need to unpark it
     * ({@link #wakeReaperIfParked}).
     */
    private volatile boolean reaperParked;
    /** Waiting threads may wait in the kernel themselves (the ring takes timed waits: IORING_FEAT_EXT_ARG). */
    private final boolean callerPolling;
    /**
     * Platform threads inside {@link #pollFor} now, and threads present between their polls
     * ({@link #pollerPresence}): while any, the completion thread stays out of the way.
     */
    private final AtomicInteger pollers = new AtomicInteger();
    /** Threads parked waiting for a request of this engine (virtual threads, waits across engines). */
    private final AtomicInteger parked = new AtomicInteger();
    /** Listeners set on requests still in flight. */
    private final AtomicInteger listeners = new AtomicInteger();
    /** Pollers waiting for the reap lock, to be woken when its holder leaves. */
    private final Queue<Thread> standby = new ConcurrentLinkedQueue<>();
    /** The platform thread waiting in the kernel in {@link #pollFor} now, if any (see {@link #waitEndedOffRing}). */
    private volatile Thread pollerInKernel;
    /** Set once a wake-up is on its way to {@link #pollerInKernel}: one kernel wait costs at most one. */
    private final AtomicBoolean wakeSent = new AtomicBoolean();
    /** Kernel waits of {@link #pollFor} that ended with nothing posted (their time ran out): for tests. */
    private final AtomicLong emptyPolls = new AtomicLong();
    /**
     * While more than this many requests are in flight ({@value #DEFER_PROPERTY}, default 64; 0: never), a
     * virtual thread's submission only publishes its entry, and the completion thread submits every entry
     * published meanwhile with its next io_uring_enter (see {@link #enqueue}).
     */
    private final int deferAbove = Integer.getInteger(DEFER_PROPERTY, 64);
    /** Set, under reapLock, when close unmaps the ring: pollers then leave it alone. */
    private volatile boolean ringClosed;
    /** Entries published and not yet submitted (guarded by submitLock); {@link #deferred} says whether any are. */
    private int unsubmitted;
    private volatile boolean deferred;
    /** Jobs failed because io_uring_enter refused their entries, to be completed outside submitLock. */
    private final Queue<UringJob> abandoned = new ConcurrentLinkedQueue<>();
    /** The errno of the last io_uring_enter that failed outright (guarded by submitLock). */
    private int refusedErrno = Errno.EIO;

    private UringEngine(EngineConfig config, UringRing ring) {
        super(config);
        this.ring = ring;
        limitKernelWorkers(ring);
        int slotCount = 2 * config.maxInFlight();
        this.slots = new UringJob[slotCount];
        this.freeSlots = new int[slotCount];
        for (int i = 0; i < slotCount; i++) {
            freeSlots[i] = slotCount - 1 - i;
        }
        this.freeCount = slotCount;
        this.callerPolling = ring.canTimeWaits() && !Boolean.getBoolean("hpio.uring.completionThreadOnly");
        this.batchWaitMicros = ring.canBatchWaits() ? Math.max(0, Integer.getInteger(BATCH_WAIT_PROPERTY, 50)) : 0;
        this.reaper = Thread.ofPlatform().daemon().name("hpio-uring-completions").start(this::reapLoop);
    }

    /**
     * Starts an engine, or throws an IOException saying why io_uring cannot be used here (missing, refused by
     * seccomp or kernel.io_uring_disabled, memlock, or an opcode hpio needs missing from the probe).
     */
    static UringEngine open(EngineConfig config) throws IOException {
        if (!NativeAccess.available()) {
            throw new IOException("io_uring cannot start: native calls are off: "
                    + NativeAccess.unavailableReason());
        }
        int entries = Integer.highestOneBit(Math.max(8, 2 * config.maxInFlight() + 8) - 1) << 1;
        UringRing ring;
        try {
            ring = createRing(entries, config.sqPollIdleMillis());
        } catch (IOException e) {
            throw new IOException("io_uring cannot start: " + e.getMessage(), e);
        }
        try {
            BitSet supported = ring.supportedOps();
            for (int op : REQUIRED_OPS) {
                if (!supported.get(op)) {
                    throw new IOException("io_uring lacks opcode " + op + " (IORING_REGISTER_PROBE)");
                }
            }
            if ((ring.features() & UringLayout.IORING_FEAT_NODROP) == 0) {
                throw new IOException("io_uring lacks IORING_FEAT_NODROP (kernel too old)");
            }
            return new UringEngine(config, ring);
        } catch (IOException | RuntimeException e) {
            ring.close();
            throw e;
        }
    }

    /**
     * The ring: with a kernel submission thread when {@code sqPollIdleMillis} asks for one and the kernel grants
     * it; when it refuses (an old kernel, a limit on such threads), a plain ring, and a warning says why.
     */
    private static UringRing createRing(int entries, int sqPollIdleMillis) throws IOException {
        if (sqPollIdleMillis > 0) {
            try {
                return UringRing.createKernelSubmitting(entries, 2 * entries, sqPollIdleMillis);
            } catch (IOException e) {
                System.getLogger(UringEngine.class.getName()).log(System.Logger.Level.WARNING,
                        "io_uring refused a kernel submission thread (SQPOLL): " + e.getMessage()
                                + "; submitting with io_uring_enter instead");
            }
        }
        return UringRing.create(entries, 2 * entries);
    }

    /** Whether a kernel thread takes this engine's entries (IORING_SETUP_SQPOLL, see EngineConfig#sqPollIdleMillis). */
    boolean kernelSubmits() {
        return ring.kernelSubmits();
    }

    @Override
    public String name() {
        return "uring";
    }

    @Override
    String engineName() {
        return name();
    }

    @Override
    UringJob newJob(IoRequest request, NativeFile.Lease lease) {
        return new UringJob(request, lease);
    }

    static final String DEFER_PROPERTY = "hpio.uring.deferAbove";
    /** The longest the completion thread waits in the kernel while virtual threads may leave it entries to submit. */
    private static final long DEFER_WAIT_NANOS = 1_000_000;

    /**
     * Queues and submits one admitted job (one io_uring_enter), then retires what already completed. Under load
     * (more than {@link #deferAbove} in flight, and nobody but the completion thread polling) a virtual thread
     * only publishes the entry: it is about to park anyway, and the completion thread, which is awake while
     * virtual threads wait, submits every entry published since its last io_uring_enter in one call (one
     * block-layer plug, one device notification) as soon as its wait returns, which under that load is at the next
     * completion, at most {@link #DEFER_WAIT_NANOS} later. Their completions then also run their kernel task work on that thread,
     * not on the carriers that submitted them.
     */
    @Override
    void enqueue(UringJob job) {
        // Inside a reap (a queued job taking the place a completion freed, see EngineBase.submitToWait): the
        // reaping thread submits it with the others after the batch, not with an io_uring_enter per completion.
        // With a kernel submission thread, publishing is submitting: nothing is left for the completion thread.
        boolean defer = !ring.kernelSubmits() && (reapLock.isHeldByCurrentThread() || deferAbove > 0 && callerPolling
                && Thread.currentThread().isVirtual() && pollers.get() == 0 && live.size() > deferAbove);
        submitLock.lock();
        try {
            queueOrAbandon(job);
            if (defer) {
                unsubmitted += ring.flush();
                deferred = unsubmitted > 0;
            } else {
                submitQueued();
            }
        } finally {
            submitLock.unlock();
        }
        finishAbandoned();
        if (defer) {
            wakeReaperIfParked();   // it submits them; awake, it does after its current wait
        }
        reapAvailable();
    }

    /** Submits the entries virtual threads left to be submitted (cheap when there are none). */
    private void submitDeferred() {
        if (deferred) {
            submitLock.lock();
            try {
                submitQueued();
            } finally {
                submitLock.unlock();
            }
            finishAbandoned();
        }
    }

    @Override
    public List<IoRequest> submitAll(List<IoOperation> operations) throws IOException {
        List<UringJob> jobs = new ArrayList<>(operations.size());
        List<IoRequest> requests = new ArrayList<>(operations.size());
        IOException failure = null;
        Runnable submitAdmitted = () -> submitBatch(jobs);   // before a wait for a place (see admitInBatch)
        for (IoOperation op : operations) {
            try {
                UringJob job = admitInBatch(op, submitAdmitted);
                requests.add(job.request);
                if (!injectedFault(job)) {
                    jobs.add(job);
                }
            } catch (IOException e) {
                failure = e;
                break;
            }
        }
        if (jobs.isEmpty() && failure != null) {
            throw requests.isEmpty() ? failure : new PartialSubmissionException(requests, operations.size(), failure);
        }
        submitBatch(jobs);
        reapAvailable();
        if (failure != null) {
            throw new PartialSubmissionException(requests, operations.size(), failure);
        }
        return requests;
    }

    /** Hands {@code jobs} (admitted, not yet queued) to the kernel in one io_uring_enter, then empties the list. */
    private void submitBatch(List<UringJob> jobs) {
        if (jobs.isEmpty()) {
            return;
        }
        submitLock.lock();
        try {
            for (UringJob job : jobs) {
                queueOrAbandon(job);
            }
            submitQueued();
        } finally {
            submitLock.unlock();
        }
        jobs.clear();
        finishAbandoned();
    }

    /**
     * Queues {@code job} (under submitLock), or fails it with the errno that refused the last submit, or with
     * ECANCELED once close began: close waits only for the jobs published before (see
     * {@link #awaitPublishedDrained}), and the ring may be gone by now.
     */
    private void queueOrAbandon(UringJob job) {
        if (closing) {
            abandon(job, Errno.ECANCELED);
        } else if (!queue(job)) {
            abandon(job, refusedErrno);
        }
    }

    /**
     * Fails {@code job}, never published, with {@code errno} when {@link #finishAbandoned} completes it: as its
     * write's errno and as its fsync's, since {@link #complete} reports an fsync or a NOP by the latter.
     */
    private void abandon(UringJob job, int errno) {
        job.writeErrno = errno;
        job.fsyncErrno = errno;
        abandoned.add(job);
    }

    /**
     * Fills the entries of {@code job} (under submitLock); false, taking nothing, when the submission queue
     * has no room even after a submit (only after io_uring_enter failed, see {@link #submitQueued}).
     */
    private boolean queue(UringJob job) {
        IoOperation op = job.op();
        if (!makeRoom(op.kind() == IoOperation.Kind.WRITE_THEN_FSYNC ? 2 : 1)) {
            return false;
        }
        switch (op.kind()) {
            case READ -> job.writeSlot = prepare(job, UringLayout.IORING_OP_READ, offload(op), op.buffer(), op.position(), 0);
            case WRITE -> job.writeSlot = prepare(job, UringLayout.IORING_OP_WRITE, offload(op), op.buffer(), op.position(), 0);
            case FSYNC -> job.otherSlot = prepare(job, UringLayout.IORING_OP_FSYNC, (byte) 0, null, 0, fsyncFlags(op));
            case NOP -> job.otherSlot = prepare(job, UringLayout.IORING_OP_NOP, (byte) 0, null, 0, 0);
            case WRITE_THEN_FSYNC -> queueWriteThenFsync(job);
        }
        return true;
    }

    /**
     * IOSQE_ASYNC for a buffered read or write of at least {@link #OFFLOAD_BYTES} when there is a second core:
     * io_uring otherwise copies page-cache data inline, inside io_uring_enter, on the submitting thread, so a
     * large transfer from or to a warm cache would not overlap the caller's work at all (000 §4.2's premise);
     * a kernel worker does the copy instead. Small transfers stay inline (a hand-off costs more than they do);
     * O_DIRECT never copies, and the device overlaps it anyway. An operation whose caller keeps its copy
     * ({@link IoOperation#offloadCopy()} false) stays inline too: where the caller's own threads fill every core,
     * a kernel worker only takes a core from them (see {@code AsyncFileOptions#offloadCopies}).
     */
    static byte offload(IoOperation op) {
        return OFFLOAD_BYTES > 0 && op.offloadCopy() && op.length() >= OFFLOAD_BYTES && op.file() != null
                && !op.file().isDirect() ? UringLayout.IOSQE_ASYNC : 0;
    }

    /**
     * The kernel's workers (io-wq) that one submitting thread may have for regular files:
     * {@value #KERNEL_WORKERS_PROPERTY}, default 2. io_uring hands an operation that cannot go on without
     * blocking to such a worker (an O_DIRECT read while the device's tags are all taken, which 256 in flight
     * can do; a transfer marked by {@link #offload}); the kernel's default allows several per core and per
     * submitting thread, and each is a thread of this process until it has been idle for seconds. Two keep
     * the offloaded copies on both cores of a small machine without a crowd of threads behind many submitters
     * (virtual threads submit from every carrier).
     */
    static final String KERNEL_WORKERS_PROPERTY = "hpio.uring.kernelWorkers";

    private static void limitKernelWorkers(UringRing ring) {
        int workers = Integer.getInteger(KERNEL_WORKERS_PROPERTY, 2);
        if (workers > 0) {
            try {
                ring.limitWorkers(workers, 0);
            } catch (IOException e) {   // before Linux 5.15: the kernel's own limits stay
                System.getLogger(UringEngine.class.getName()).log(System.Logger.Level.DEBUG,
                        "IORING_REGISTER_IOWQ_MAX_WORKERS refused: " + e.getMessage());
            }
        }
    }

    /** Room for {@code entries} entries, submitting what is queued if need be; a linked pair never straddles two submits. */
    private boolean makeRoom(int entries) {
        if (ring.sqSpace() < entries) {
            submitQueued();
            if (ring.kernelSubmits() && !ringClosed) {
                try {
                    ring.awaitSqSpace(entries);   // the kernel's thread takes published entries in its own time
                } catch (IOException e) {
                    int errno = Errno.of(e);
                    refusedErrno = errno == 0 ? Errno.EIO : errno;
                }
            }
        }
        return ring.sqSpace() >= entries;
    }

    /** The rest of the write (from job.written), linked to an fsync. */
    private void queueWriteThenFsync(UringJob job) {
        IoOperation op = job.op();
        MemorySegment rest = op.buffer().asSlice(job.written);
        job.writeErrno = 0;
        job.fsyncErrno = 0;
        job.writeSlot = prepare(job, UringLayout.IORING_OP_WRITE, UringLayout.IOSQE_IO_LINK, rest,
                op.position() + job.written, 0);
        job.otherSlot = prepare(job, UringLayout.IORING_OP_FSYNC, (byte) 0, null, 0, fsyncFlags(op));
    }

    private static int fsyncFlags(IoOperation op) {
        return op.metadata() ? 0 : UringLayout.IORING_FSYNC_DATASYNC;
    }

    /** One entry for {@code job}; returns its slot. */
    private int prepare(UringJob job, byte opcode, byte flags, MemorySegment buffer, long position, int opFlags) {
        long sqe = ring.nextSqe();
        if (sqe < 0) {
            throw new IllegalStateException("no submission entry although room was made");   // a bug here
        }
        if (freeCount == 0) {
            takeReturnedSlots();
        }
        int slot = freeSlots[--freeCount];
        slots[slot] = job;
        job.partsOut++;
        int fd = job.lease == null ? -1 : job.fd();
        long address = buffer == null ? 0 : buffer.address();
        int length = buffer == null ? 0 : (int) Math.min(buffer.byteSize(), Integer.MAX_VALUE & ~4095);
        ring.prep(sqe, opcode, flags, fd, address, length, position, opFlags, slot);
        return slot;
    }

    /** Moves the slots completions gave back into the free stack (under submitLock). */
    private void takeReturnedSlots() {
        long published = returnedPublished;
        int capacity = returnedSlots.length;
        for (; returnedTaken < published; returnedTaken++) {
            freeSlots[freeCount++] = returnedSlots[(int) (returnedTaken % capacity)];
        }
    }

    /** Gives {@code slot} back from the completion side (under reapLock); never waits for a submitter. */
    private void returnSlot(int slot) {
        returnedSlots[(int) (returnedWritten % returnedSlots.length)] = slot;
        returnedPublished = ++returnedWritten;
    }

    /**
     * Publishes and submits every queued entry (under submitLock). EAGAIN/EBUSY (completions must drain first)
     * and EINTR are retried; any other failure of io_uring_enter consumed nothing, so the entries still waiting
     * are turned into NOPs and their requests fail with that errno (see {@link #finishAbandoned}): no request is
     * left live for an operation the kernel never got, and no caller is told "failed" for one it will still do.
     */
    private void submitQueued() {
        int pending = unsubmitted + ring.flush();
        unsubmitted = 0;
        deferred = false;
        while (pending > 0) {
            try {
                pending -= ring.enter(pending, 0, false);
            } catch (IOException e) {
                int errno = Errno.of(e);
                if (errno == Errno.EINTR) {
                    continue;
                }
                if (errno != Errno.EAGAIN && errno != 16 /* EBUSY */) {
                    refusedErrno = errno == 0 ? Errno.EIO : errno;
                    if (ring.kernelSubmits()) {
                        // Only the wake-up failed: the entries are the kernel thread's, which may be taking
                        // them right now, so they cannot be neutralized; it takes them when it next runs.
                        System.getLogger(UringEngine.class.getName()).log(System.Logger.Level.WARNING,
                                "waking io_uring's submission thread failed: " + e.getMessage());
                        return;
                    }
                    abandonUnconsumed(refusedErrno);
                    return;
                }
                reapAvailable();                 // completions must drain first
                LockSupport.parkNanos(50_000);
            }
        }
    }

    /** Neutralizes the entries the kernel did not take and marks their jobs failed with {@code errno} (under submitLock). */
    private void abandonUnconsumed(int errno) {
        ring.neutralizeUnconsumed(ABANDONED_TAG, userData -> {
            if ((userData & (CANCEL_TAG | WAKE_TAG | ABANDONED_TAG)) != 0) {
                return;
            }
            int slot = (int) userData;
            UringJob job = slots[slot];
            slots[slot] = null;
            freeSlots[freeCount++] = slot;
            job.partsOut--;
            if (slot == job.writeSlot) {
                job.writeErrno = errno;
            } else {
                job.fsyncErrno = errno;
            }
            if (job.partsOut == 0) {
                abandoned.add(job);
            }
        });
    }

    /** Completes the jobs {@link #abandonUnconsumed} failed; called after submitLock is released. */
    private void finishAbandoned() {
        UringJob job;
        while ((job = abandoned.poll()) != null) {
            complete(job);
        }
    }

    @Override
    public boolean cancel(IoRequest request) {
        if (cancelIfWaiting(request)) {
            return true;
        }
        UringJob job = live.get(request);
        if (job == null) {
            return false;
        }
        submitLock.lock();
        try {
            boolean asked = false;
            for (int slot : new int[]{job.writeSlot, job.otherSlot}) {
                if (slot >= 0 && slots[slot] == job && makeRoom(1)) {
                    ring.prep(ring.nextSqe(), UringLayout.IORING_OP_ASYNC_CANCEL, (byte) 0, -1, slot, 0, 0, 0,
                            CANCEL_TAG | slot);
                    asked = true;
                }
            }
            submitQueued();
            return asked;
        } finally {
            submitLock.unlock();
            finishAbandoned();
        }
    }

    // ---- completion side ----

    /**
     * The completion thread. When the kernel can time its waits (EXT_ARG), it serves only those who cannot
     * reap for themselves (listeners, parked threads) while no caller polls, and parks otherwise; without
     * EXT_ARG it waits for every completion, as callers then always park.
     */
    private void reapLoop() {
        while (!stopReaper) {
            if (callerPolling && !backgroundNeeded() && !deferred) {
                parkReaper();
                continue;
            }
            submitDeferred();
            reapLock.lock();
            try {
                if (reapAndSubmit() == 0 && !stopReaper && (!callerPolling || backgroundNeeded())) {
                    if (callerPolling) {
                        waitForBatch(deferAbove > 0 && live.size() > deferAbove / 2 ? DEFER_WAIT_NANOS
                                : IoRequests.SLICE_NANOS);
                    } else {
                        ring.enter(0, 1, true);
                    }
                    reapAndSubmit();
                }
            } catch (IOException | RuntimeException e) {
                System.getLogger(UringEngine.class.getName()).log(System.Logger.Level.ERROR,
                        "io_uring_enter(GETEVENTS) failed: " + e.getMessage());
                LockSupport.parkNanos(1_000_000);
            } finally {
                reapLock.unlock();
            }
            wakeStandby();
        }
    }

    static final String BATCH_WAIT_PROPERTY = "hpio.uring.batchWaitMicros";
    /** See {@link #waitForBatch}: {@value #BATCH_WAIT_PROPERTY}; 0 turns batched waits off. */
    private final int batchWaitMicros;

    /**
     * The completion thread's wait in the kernel. With many requests in flight (and Linux 6.12's minimum wait),
     * it waits up to {@link #batchWaitMicros} for an eighth of them (at most 32) before it settles for one: one
     * wake-up, and one round of wake-ups of the threads waiting, per batch instead of per completion, for a
     * delay that is small beside the queueing such a load has anyway. Few in flight: the first completion ends
     * the wait, as before.
     */
    private void waitForBatch(long timeoutNanos) throws IOException {
        int inFlight = live.size();
        if (batchWaitMicros > 0 && inFlight >= 64) {
            ring.waitCompletions(Math.min(32, inFlight / 8), batchWaitMicros, timeoutNanos);
        } else {
            ring.waitCompletion(timeoutNanos);
        }
    }

    /**
     * Retires every posted completion (under reapLock), then submits what was published meanwhile: requests
     * queued for a place take the places these completions freed, and listeners may submit follow-ups; inside a
     * reap both only publish (see {@link #enqueue}), so all of them go to the kernel in one io_uring_enter here,
     * before this thread waits in the kernel or leaves. The batch's requests are told their results (their
     * waiters unparked, their listeners run) only after that submission: the device gets the freed places back
     * before this thread spends time waking threads (in {@code bench nio}'s virtual-thread rows, about a tenth
     * less CPU per read), and whatever the listeners submit goes in one more io_uring_enter.
     */
    private int reapAndSubmit() {
        int reaped;
        holdingResults = true;
        try {
            reaped = ring.reap(this::dispatch);
            submitDeferred();
        } finally {
            holdingResults = false;
            deliverHeld();
        }
        submitDeferred();
        return reaped;
    }

    /** Set while the reap lock's holder is inside {@link #reapAndSubmit}'s reap (guarded by reapLock). */
    private boolean holdingResults;
    /**
     * The results {@link #reapAndSubmit} holds until its submission is made: request, bytes and errno at the same
     * index, {@link #heldCount} of them (guarded by reapLock; arrays, not an object per completion).
     */
    private IoRequest[] heldRequests = new IoRequest[64];
    private long[] heldBytes = new long[64];
    private int[] heldErrnos = new int[64];
    private int heldCount;

    @Override
    void deliver(IoRequest request, long bytes, int errno) {
        if (holdingResults && reapLock.isHeldByCurrentThread()) {
            hold(request, bytes, errno);
        } else {
            request.complete(bytes, errno);
        }
    }

    private void hold(IoRequest request, long bytes, int errno) {
        if (heldCount == heldRequests.length) {
            int grown = heldCount * 2;
            heldRequests = Arrays.copyOf(heldRequests, grown);
            heldBytes = Arrays.copyOf(heldBytes, grown);
            heldErrnos = Arrays.copyOf(heldErrnos, grown);
        }
        heldRequests[heldCount] = request;
        heldBytes[heldCount] = bytes;
        heldErrnos[heldCount] = errno;
        heldCount++;
    }

    /**
     * Tells every held request its result, even when a listener throws, an Error too (the first throwable is
     * rethrown): a request left untold would leave its waiters parked for good.
     */
    private void deliverHeld() {
        Throwable failure = null;
        int count = heldCount;
        heldCount = 0;
        for (int k = 0; k < count; k++) {
            IoRequest request = heldRequests[k];
            heldRequests[k] = null;   // not kept reachable until the slot is reused
            try {
                request.complete(heldBytes[k], heldErrnos[k]);
            } catch (RuntimeException | Error e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
    }

    /** The completion thread has work: requests in flight that a listener or a parked thread waits for. */
    private boolean backgroundNeeded() {
        return pollers.get() == 0 && (listeners.get() > 0 || parked.get() > 0) && !live.isEmpty();
    }

    /** Wakes the completion thread if it has work (after a change to what {@link #backgroundNeeded} reads). */
    private void attend() {
        if (callerPolling && backgroundNeeded()) {
            wakeReaperIfParked();
        }
    }

    /**
     * The completion thread's park for want of work. It says so first and then looks again: with
     * {@link #wakeReaperIfParked}, whose callers change what it looks at ({@link #backgroundNeeded}'s counters,
     * {@link #deferred}) and then read the flag, this is a Dekker pair (all volatile), so either this thread
     * sees their change and stays up or they see the flag and unpark it. Without the flag every virtual
     * thread's read unparked it twice (its deferred submission, its park) while it waited in the kernel,
     * where an unpark does nothing: about 6% of the reading threads' CPU (Intel Xeon, 1,000 readers).
     */
    private void parkReaper() {
        reaperParked = true;
        try {
            if (!backgroundNeeded() && !deferred && !stopReaper) {
                LockSupport.park(this);
            }
        } finally {
            reaperParked = false;
        }
    }

    /** Unparks the completion thread if it parks in {@link #parkReaper} (see there). */
    private void wakeReaperIfParked() {
        if (reaperParked) {
            LockSupport.unpark(reaper);
        }
    }

    /** Hands the poller's role on: a thread that waited for the reap lock looks again. */
    private void wakeStandby() {
        Thread next = standby.peek();
        if (next != null) {
            LockSupport.unpark(next);
        }
    }

    @Override
    public boolean retiringOnThisThread() {
        return reapLock.isHeldByCurrentThread();
    }

    @Override
    public void reapAvailable() {
        // Not from inside a dispatch (a listener asking isDone): reaping again there would see the same entries.
        if (reapLock.isHeldByCurrentThread() || ringClosed) {
            return;
        }
        try {
            if (ring.available() > 0 && reapLock.tryLock()) {
                try {
                    if (!ringClosed) {
                        if (Thread.currentThread().isVirtual()) {
                            ring.reap(this::dispatch);   // what this publishes, the completion thread submits
                        } else {
                            reapAndSubmit();
                        }
                    }
                } finally {
                    reapLock.unlock();
                }
            }
        } catch (IllegalStateException e) {
            if (!ringClosed) {
                throw e;
            }   // else the engine closed under this call: nothing is left to reap
        }
    }

    /**
     * A waiting platform thread polls the ring itself: with the reap lock, it retires what is posted or
     * waits in io_uring_enter for the next completion (at most {@code nanos}); without it (another thread
     * polls and will retire this thread's completions too), it parks as a standby until that thread leaves.
     * Virtual threads never wait in the kernel (that would pin their carrier): they park.
     */
    @Override
    public boolean pollFor(BooleanSupplier satisfied, long nanos, Runnable beforeParking) {
        if (!callerPolling || Thread.currentThread().isVirtual() || reapLock.isHeldByCurrentThread()) {
            return false;
        }
        submitDeferred();   // a thread about to wait must not leave entries unsubmitted
        pollers.incrementAndGet();
        try {
            if (reapLock.tryLock()) {
                try {
                    if (ringClosed) {
                        return false;
                    }
                    if (reapAndSubmit() == 0 && waitedInKernel(satisfied, nanos)) {
                        reapAndSubmit();
                    }
                } catch (IOException e) {
                    System.getLogger(UringEngine.class.getName()).log(System.Logger.Level.ERROR,
                            "io_uring_enter(GETEVENTS) failed: " + e.getMessage());
                    return false;
                } finally {
                    reapLock.unlock();
                    wakeStandby();   // on every way out: a standby must not wait its slice with nobody polling
                }
            } else {
                standBy(satisfied, nanos, beforeParking);
            }
            return true;
        } finally {
            if (pollers.decrementAndGet() == 0) {
                attend();
            }
        }
    }

    /**
     * The poller's wait in the kernel (holding the reap lock), unless {@code satisfied} holds: until a completion
     * is posted, or a wake-up from {@link #waitEndedOffRing}, or {@code nanos} pass. Saying that it waits there,
     * then looking at {@code satisfied}, pairs with a settler's change, then look at {@link #pollerInKernel}
     * (all volatile): either this thread sees the change, or the settler sees it and wakes it. False when it
     * did not wait.
     */
    private boolean waitedInKernel(BooleanSupplier satisfied, long nanos) throws IOException {
        // Cleared before this wait is announced: a settler's wake-up sent for an earlier wait (its NOP reaped
        // before this one) must not stand for this wait's.
        wakeSent.set(false);
        pollerInKernel = Thread.currentThread();
        try {
            if (satisfied.getAsBoolean()) {
                return false;
            }
            if (!ring.waitCompletion(nanos)) {
                emptyPolls.incrementAndGet();
            }
            return true;
        } finally {
            pollerInKernel = null;
        }
    }

    /**
     * Wakes the thread waiting in the kernel in {@link #pollFor} when what it may wait for came without a
     * completion (a place or staging handed to it, a queued request cancelled): a NOP whose completion ends its
     * wait, at most one per wait. Nothing happens while no platform thread waits there: under load the threads
     * that free places hold the reap lock (nobody else can be in the kernel), and those that poll see changes
     * before they go in.
     */
    @Override
    public void waitEndedOffRing(Thread waiter) {
        Thread inKernel = pollerInKernel;
        if (inKernel == null || inKernel == Thread.currentThread() || waiter != null && waiter != inKernel
                || !wakeSent.compareAndSet(false, true)) {
            return;   // a waiter that is not in the kernel is unparked by whoever settles what it waits for
        }
        submitLock.lock();
        try {
            if (closing) {
                return;   // close wakes the ring's threads itself, and the ring may be gone
            }
            long sqe = ring.nextSqe();
            if (sqe >= 0) {
                ring.prep(sqe, UringLayout.IORING_OP_NOP, (byte) 0, -1, 0, 0, 0, 0, WAKE_TAG);
                submitQueued();
            } else {
                wakeSent.set(false);   // a full queue is about to be submitted, and its completions end the wait
            }
        } finally {
            submitLock.unlock();
            finishAbandoned();
        }
    }

    /** How many of {@link #pollFor}'s kernel waits ended with nothing posted (for tests). */
    long emptyPolls() {
        return emptyPolls.get();
    }

    /** Whether a platform thread waits in the kernel in {@link #pollFor} now (for tests). */
    boolean pollerInKernel() {
        return pollerInKernel != null;
    }

    /**
     * Waits as a standby while another thread holds the reap lock: parked until that thread leaves (it wakes the
     * first standby), this thread's request completes, or {@code nanos} pass. Queuing, then looking at the lock,
     * pairs with the holder's unlock, then look at the queue (all volatile): either the holder sees this thread
     * queued and wakes it, or this thread sees the lock free and goes back to poll instead of parking. A standby
     * that leaves with the lock free wakes the next, which may have been the one woken while this one was
     * leaving anyway.
     */
    private void standBy(BooleanSupplier satisfied, long nanos, Runnable beforeParking) {
        Thread me = Thread.currentThread();
        beforeParking.run();
        standby.add(me);
        try {
            if (!satisfied.getAsBoolean() && reapLock.isLocked()) {
                LockSupport.parkNanos(this, nanos);
            }
        } finally {
            standby.remove(me);
            if (!reapLock.isLocked()) {
                wakeStandby();
            }
        }
    }

    @Override
    public void pollerPresence(boolean present) {
        if (present) {
            pollers.incrementAndGet();
        } else if (pollers.decrementAndGet() == 0) {
            attend();
        }
    }

    @Override
    public void parking(boolean start) {
        if (start) {
            parked.incrementAndGet();
            attend();
        } else {
            parked.decrementAndGet();
        }
    }

    @Override
    public void queuedJobsAdmitted() {
        attend();   // their waiters parked, maybe while nothing was live: the completion thread then slept
    }

    @Override
    public void listener(boolean added) {
        if (added) {
            listeners.incrementAndGet();
            attend();
        } else {
            listeners.decrementAndGet();
        }
    }

    private void dispatch(long userData, int result) {
        if ((userData & (CANCEL_TAG | WAKE_TAG | ABANDONED_TAG)) != 0) {
            return;
        }
        int slot = (int) userData;
        UringJob job = slots[slot];
        if (job.op().kind() != IoOperation.Kind.WRITE_THEN_FSYNC) {
            // One entry, one completion: nothing a submitter touches, so no submitLock (a submitter holds it
            // across io_uring_enter; waiting for it here parked this thread once per completion under load).
            slots[slot] = null;
            returnSlot(slot);
            job.partsOut--;
            record(job, slot, result);
            complete(job);
            return;
        }
        submitLock.lock();
        try {
            slots[slot] = null;
            freeSlots[freeCount++] = slot;
            job.partsOut--;
            record(job, slot, result);
            if (job.partsOut > 0) {
                return;
            }
            if (continueShortWrite(job)) {
                return;
            }
        } finally {
            submitLock.unlock();
            finishAbandoned();
        }
        complete(job);
    }

    /** Notes one entry's result in its job: bytes moved or errno of the data part, or errno of the fsync/nop. */
    private static void record(UringJob job, int slot, int result) {
        if (slot != job.writeSlot) {
            if (result < 0) {
                job.fsyncErrno = -result;
            }
        } else if (result < 0) {
            job.writeErrno = -result;
        } else if (result == 0 && job.op().kind() == IoOperation.Kind.WRITE_THEN_FSYNC) {
            job.writeErrno = Errno.EIO;   // no progress: continuing would loop forever
        } else {
            job.written += result;
        }
    }

    /** A write-then-fsync whose write came back short (and so broke the link) goes on; true if resubmitted. */
    private boolean continueShortWrite(UringJob job) {
        IoOperation op = job.op();
        if (op.kind() != IoOperation.Kind.WRITE_THEN_FSYNC || job.writeErrno != 0
                || job.written >= op.buffer().byteSize() || closing) {
            return false;
        }
        if (!queue(job)) {
            job.writeErrno = refusedErrno;
            return false;
        }
        submitQueued();
        return true;
    }

    private void complete(UringJob job) {
        IoOperation op = job.op();
        if (op.kind() == IoOperation.Kind.WRITE_THEN_FSYNC) {
            if (job.writeErrno != 0) {
                finish(job, job.written, job.writeErrno);
            } else if (job.written < op.buffer().byteSize()) {
                finish(job, job.written, job.fsyncErrno != 0 ? job.fsyncErrno : Errno.ECANCELED);
            } else {
                finish(job, job.written, job.fsyncErrno);
            }
        } else if (op.kind() == IoOperation.Kind.READ || op.kind() == IoOperation.Kind.WRITE) {
            finish(job, job.writeErrno == 0 ? job.written : 0, job.writeErrno);
        } else {
            finish(job, 0, job.fsyncErrno);
        }
    }

    /**
     * Waits until the kernel holds none of this engine's requests (after close asked them to cancel): every job
     * published to the ring completed. A job made live but not published yet is not waited for. Its own thread
     * publishes it, and that thread may not run again soon: a virtual thread whose carrier others keep busy. On
     * a single carrier, with the other readers going on through the JDK's channel once their engine closed (a
     * blocking read there gives the carrier up to nobody), it never did, and the JVM's exit hung in the engines'
     * shutdown hook. When it runs, it finds the engine closing and completes the job ECANCELED unpublished
     * ({@link #queueOrAbandon}); its caller then goes on as after any request cancelled by close.
     */
    private void awaitPublishedDrained() {
        awaitDrained(this::anyPublished);
    }

    /** A request whose entry is in the ring and not yet retired, or null (looked up under submitLock). */
    private IoRequest anyPublished() {
        submitLock.lock();
        try {
            for (UringJob job : slots) {
                if (job != null && !job.request.completedFlag()) {   // not isDone: that reaps, under this lock
                    return job.request;
                }
            }
            return null;
        } finally {
            submitLock.unlock();
        }
    }

    @Override
    public void close() throws IOException {
        submitLock.lock();
        try {
            if (closing) {
                return;
            }
            closing = true;
        } finally {
            submitLock.unlock();
        }
        cancelWaiting();
        for (IoRequest request : live.requests()) {
            cancel(request);
        }
        awaitPublishedDrained();
        stopReaper = true;
        LockSupport.unpark(reaper);
        submitLock.lock();
        try {
            long sqe = ring.nextSqe();
            if (sqe >= 0) {
                ring.prep(sqe, UringLayout.IORING_OP_NOP, (byte) 0, -1, 0, 0, 0, 0, WAKE_TAG);
            }
            submitQueued();
        } finally {
            submitLock.unlock();
        }
        try {
            reaper.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        reapLock.lock();   // a thread polling the ring (an executor's, say) leaves it first
        try {
            ringClosed = true;
            ring.close();
        } finally {
            reapLock.unlock();
        }
        IoEngines.closed(this);
    }
}
