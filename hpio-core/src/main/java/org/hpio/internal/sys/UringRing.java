package org.hpio.internal.sys;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.LongConsumer;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.hpio.internal.sys.UringLayout.CQE;
import static org.hpio.internal.sys.UringLayout.PARAMS;
import static org.hpio.internal.sys.UringLayout.SQE;
import static org.hpio.internal.sys.UringLayout.offset;

/**
 * One io_uring instance: its descriptor, the mapped submission and completion rings and the SQE array, and
 * the ring index arithmetic, a port of liburing's {@code _io_uring_get_sqe}, {@code __io_uring_flush_sq} and
 * {@code io_uring_cq_advance} (axboe/liburing, src/include/liburing.h and src/queue.c).
 *
 * <p>Memory ordering as liburing has it: the SQ head (written by the kernel) and the CQ tail are loaded with
 * acquire; the SQ tail and the CQ head are stored with release, after the entries they publish or retire.
 * Every ring offset comes from the {@code io_uring_params} the kernel returned, never from constants.
 *
 * <p>Threads: the submission side ({@link #nextSqe}, the {@code prep*} methods, {@link #flush}) must be used by
 * one thread at a time (the engine holds a lock); the completion side ({@link #reap}) by one thread (the
 * engine's completion thread). The two sides may run at once, as io_uring allows.
 */
public final class UringRing implements AutoCloseable {
    private static final VarHandle INT = JAVA_INT.varHandle();
    private static final long SQE_SIZE = SQE.byteSize();
    private static final long CQE_SIZE = CQE.byteSize();
    private static final long SQE_OPCODE = offset(SQE, "opcode");
    private static final long SQE_FLAGS = offset(SQE, "flags");
    private static final long SQE_FD = offset(SQE, "fd");
    private static final long SQE_OFF = offset(SQE, "off");
    private static final long SQE_ADDR = offset(SQE, "addr");
    private static final long SQE_LEN = offset(SQE, "len");
    private static final long SQE_RW_FLAGS = offset(SQE, "rw_flags");
    private static final long SQE_USER_DATA = offset(SQE, "user_data");
    private static final long CQE_USER_DATA = offset(CQE, "user_data");
    private static final long CQE_RES = offset(CQE, "res");

    private final int ringFd;
    /** Owns the Java views of the three mappings: closed before they are unmapped. */
    private final Arena mappings;
    private final int features;
    private final MemorySegment sqRing;
    private final MemorySegment cqRing;
    private final MemorySegment sqes;
    private final int sqEntries;
    private final int cqEntries;
    private final int sqMask;
    private final int cqMask;
    private final long sqHeadOffset;
    private final long sqTailOffset;
    private final long cqHeadOffset;
    private final long cqTailOffset;
    private final long cqesOffset;
    /** Set up with IORING_SETUP_SQPOLL: a kernel thread takes published entries; see {@link #enter}. */
    private final boolean kernelSubmits;
    private final long sqFlagsOffset;
    /** Local SQ tail: entries handed out by nextSqe and not yet published by flush. */
    private int sqeTail;
    private int publishedTail;
    private boolean closed;
    /**
     * An io_uring_getevents_arg whose {@code ts} points at the __kernel_timespec right behind it; owned by
     * the ring (freed with its mappings), used by whichever thread holds the engine's reap lock.
     */
    private final MemorySegment waitArg;
    private static final long TIMESPEC_BASE = UringLayout.GETEVENTS_ARG.byteSize();
    /** io_uring_getevents_arg's min_wait_usec (Linux 6.12; {@code pad} in older headers). */
    private static final long MIN_WAIT_USEC = offset(UringLayout.GETEVENTS_ARG, "pad");
    private static final long TIMESPEC_SEC = TIMESPEC_BASE + offset(UringLayout.KERNEL_TIMESPEC, "tv_sec");
    private static final long TIMESPEC_NSEC = TIMESPEC_BASE + offset(UringLayout.KERNEL_TIMESPEC, "tv_nsec");
    private static final int ETIME = 62;

    /** Consumer of one completion. */
    @FunctionalInterface
    public interface CompletionSink {
        void accept(long userData, int result);
    }

    private UringRing(int ringFd, Arena mappings, MemorySegment params, MemorySegment sqRing, MemorySegment cqRing,
                      MemorySegment sqes) {
        this.ringFd = ringFd;
        this.mappings = mappings;
        this.features = params.get(JAVA_INT, offset(PARAMS, "features"));
        this.sqRing = sqRing;
        this.cqRing = cqRing;
        this.sqes = sqes;
        this.sqEntries = params.get(JAVA_INT, offset(PARAMS, "sq_entries"));
        this.cqEntries = params.get(JAVA_INT, offset(PARAMS, "cq_entries"));
        this.sqMask = sqRing.get(JAVA_INT, params.get(JAVA_INT, offset(PARAMS, "sq_off", "ring_mask")));
        this.cqMask = cqRing.get(JAVA_INT, params.get(JAVA_INT, offset(PARAMS, "cq_off", "ring_mask")));
        this.sqHeadOffset = params.get(JAVA_INT, offset(PARAMS, "sq_off", "head"));
        this.sqTailOffset = params.get(JAVA_INT, offset(PARAMS, "sq_off", "tail"));
        this.cqHeadOffset = params.get(JAVA_INT, offset(PARAMS, "cq_off", "head"));
        this.cqTailOffset = params.get(JAVA_INT, offset(PARAMS, "cq_off", "tail"));
        this.cqesOffset = params.get(JAVA_INT, offset(PARAMS, "cq_off", "cqes"));
        this.kernelSubmits = (params.get(JAVA_INT, offset(PARAMS, "flags")) & UringLayout.IORING_SETUP_SQPOLL) != 0;
        this.sqFlagsOffset = params.get(JAVA_INT, offset(PARAMS, "sq_off", "flags"));
        long arrayOffset = params.get(JAVA_INT, offset(PARAMS, "sq_off", "array"));
        for (int i = 0; i < sqEntries; i++) {
            sqRing.set(JAVA_INT, arrayOffset + 4L * i, i);   // identity map: SQE i is array slot i
        }
        this.sqeTail = (int) INT.getAcquire(sqRing, sqTailOffset);
        this.publishedTail = sqeTail;
        this.waitArg = mappings.allocate(TIMESPEC_BASE + UringLayout.KERNEL_TIMESPEC.byteSize(), 8);
        waitArg.set(JAVA_LONG, offset(UringLayout.GETEVENTS_ARG, "ts"), waitArg.address() + TIMESPEC_BASE);
    }

    /**
     * Makes each of io_uring's calls once on arguments the kernel refuses before it sets anything up (a ring of
     * no entries: EINVAL; no descriptor: EBADF; a mapping of no bytes: EINVAL), so that their downcalls are linked
     * and a ring set up later does not pay for it: for a thread that prepares the engine's start ahead of the
     * first need ({@code IoEngines#prepareStart}). Nothing is created, so nothing needs closing; where io_uring
     * is refused (seccomp, {@code kernel.io_uring_disabled}) the calls fail as they would anyway.
     */
    public static void exerciseCalls() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment params = arena.allocate(PARAMS);
            Syscalls.refused(() -> UringCalls.setup(0, params));
            Syscalls.refused(() -> UringCalls.enter(-1, 0, 0, 0));
            Syscalls.refused(() -> UringCalls.register(-1, 0, MemorySegment.NULL, 0));
            Syscalls.refused(() -> UringCalls.map(-1, 0, 0, arena).byteSize());
            Syscalls.refused(() -> {
                UringCalls.unmap(0, 0);
                return 0;
            });
        }
    }

    /**
     * Sets up a ring of {@code entries} submission entries and {@code cqEntries} completion entries. Throws an
     * IOException carrying the kernel's reason (ENOSYS: no io_uring; EPERM: refused by seccomp or
     * kernel.io_uring_disabled; ENOMEM: memlock) when it cannot.
     */
    public static UringRing create(int entries, int cqEntries) throws IOException {
        return create(entries, cqEntries, 0);
    }

    /** As {@link #create(int, int)}, with more IORING_SETUP_ flags (say SINGLE_ISSUER | DEFER_TASKRUN). */
    public static UringRing create(int entries, int cqEntries, int setupFlags) throws IOException {
        return create(entries, cqEntries, setupFlags, 0);
    }

    /**
     * As {@link #create(int, int)}, with a kernel submission thread (IORING_SETUP_SQPOLL) that takes published
     * entries by itself and sleeps after {@code idleMillis} without any (a thread of this process, busy while
     * it polls: it costs a core's time under load).
     */
    public static UringRing createKernelSubmitting(int entries, int cqEntries, int idleMillis) throws IOException {
        if (idleMillis < 1) {
            throw new IllegalArgumentException("the submission thread's idle time must be at least 1 ms: " + idleMillis);
        }
        return create(entries, cqEntries, UringLayout.IORING_SETUP_SQPOLL, idleMillis);
    }

    private static UringRing create(int entries, int cqEntries, int setupFlags, int sqThreadIdleMillis)
            throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment params = arena.allocate(PARAMS);
            params.set(JAVA_INT, offset(PARAMS, "flags"), UringLayout.IORING_SETUP_CQSIZE | UringLayout.IORING_SETUP_CLAMP | setupFlags);
            params.set(JAVA_INT, offset(PARAMS, "cq_entries"), cqEntries);
            params.set(JAVA_INT, offset(PARAMS, "sq_thread_idle"), sqThreadIdleMillis);
            int fd = UringCalls.setup(entries, params);
            try {
                return map(fd, params);
            } catch (IOException | RuntimeException e) {
                Syscalls.close(fd, UringCalls.WHAT);
                throw e;
            }
        }
    }

    private static UringRing map(int fd, MemorySegment params) throws IOException {
        int sqEntries = params.get(JAVA_INT, offset(PARAMS, "sq_entries"));
        int cqEntries = params.get(JAVA_INT, offset(PARAMS, "cq_entries"));
        long sqSize = params.get(JAVA_INT, offset(PARAMS, "sq_off", "array")) + 4L * sqEntries;
        long cqSize = params.get(JAVA_INT, offset(PARAMS, "cq_off", "cqes")) + CQE_SIZE * cqEntries;
        boolean single = (params.get(JAVA_INT, offset(PARAMS, "features")) & UringLayout.IORING_FEAT_SINGLE_MMAP) != 0;
        Arena mappings = Arena.ofShared();
        List<MemorySegment> mapped = new ArrayList<>();
        try {
            MemorySegment sqRing = UringCalls.map(fd, single ? Math.max(sqSize, cqSize) : sqSize,
                    UringLayout.IORING_OFF_SQ_RING, mappings);
            mapped.add(sqRing);
            MemorySegment cqRing = sqRing;
            if (!single) {
                cqRing = UringCalls.map(fd, cqSize, UringLayout.IORING_OFF_CQ_RING, mappings);
                mapped.add(cqRing);
            }
            MemorySegment sqes = UringCalls.map(fd, SQE_SIZE * sqEntries, UringLayout.IORING_OFF_SQES, mappings);
            mapped.add(sqes);
            return new UringRing(fd, mappings, params, sqRing, cqRing, sqes);
        } catch (IOException | RuntimeException e) {
            unmapAll(mappings, mapped);
            throw e;
        }
    }

    /** Closes the views' arena (no Java access after this) and then unmaps them. */
    private static void unmapAll(Arena mappings, List<MemorySegment> mapped) throws IOException {
        long[][] regions = new long[mapped.size()][];
        for (int i = 0; i < regions.length; i++) {
            regions[i] = new long[]{mapped.get(i).address(), mapped.get(i).byteSize()};
        }
        mappings.close();
        for (long[] region : regions) {
            UringCalls.unmap(region[0], region[1]);
        }
    }

    public int sqEntries() {
        return sqEntries;
    }

    public int cqEntries() {
        return cqEntries;
    }

    public int features() {
        return features;
    }

    /** The opcodes the kernel supports, from IORING_REGISTER_PROBE. */
    public BitSet supportedOps() throws IOException {
        int ops = 256;
        try (Arena arena = Arena.ofConfined()) {
            long probeSize = UringLayout.PROBE.byteSize() + ops * UringLayout.PROBE_OP.byteSize();
            MemorySegment probe = arena.allocate(probeSize, 8);
            UringCalls.register(ringFd, UringLayout.IORING_REGISTER_PROBE, probe, ops);
            int len = Byte.toUnsignedInt(probe.get(JAVA_BYTE, offset(UringLayout.PROBE, "ops_len")));
            BitSet supported = new BitSet();
            for (int i = 0; i < len; i++) {
                long op = UringLayout.PROBE.byteSize() + i * UringLayout.PROBE_OP.byteSize();
                short flags = probe.get(JAVA_SHORT, op + offset(UringLayout.PROBE_OP, "flags"));
                if ((flags & UringLayout.IO_URING_OP_SUPPORTED) != 0) {
                    supported.set(Byte.toUnsignedInt(probe.get(JAVA_BYTE, op + offset(UringLayout.PROBE_OP, "op"))));
                }
            }
            return supported;
        }
    }

    /**
     * Caps the kernel's worker threads (io-wq) serving this ring, per thread that submits to it
     * (IORING_REGISTER_IOWQ_MAX_WORKERS, Linux 5.15; threads that submit later get the same caps): {@code bounded}
     * for regular files and block devices, {@code unbounded} for the rest; 0 leaves a cap as it was.
     */
    public void limitWorkers(int bounded, int unbounded) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment values = arena.allocate(JAVA_INT, 2);
            values.setAtIndex(JAVA_INT, 0, bounded);
            values.setAtIndex(JAVA_INT, 1, unbounded);
            UringCalls.register(ringFd, UringLayout.IORING_REGISTER_IOWQ_MAX_WORKERS, values, 2);
        }
    }

    // ---- submission side (one thread at a time) ----

    /** Free submission entries: those the kernel has not consumed count as used. */
    public int sqSpace() {
        int head = (int) INT.getAcquire(sqRing, sqHeadOffset);
        return sqEntries - (sqeTail - head);
    }

    /**
     * The next free SQE, zeroed, or -1 when the ring is full (liburing's _io_uring_get_sqe). It is not seen by
     * the kernel until {@link #flush()}.
     */
    public long nextSqe() {
        int head = (int) INT.getAcquire(sqRing, sqHeadOffset);
        if (sqeTail - head >= sqEntries) {
            return -1;
        }
        long sqe = SQE_SIZE * (sqeTail & sqMask);
        sqeTail++;
        sqes.asSlice(sqe, SQE_SIZE).fill((byte) 0);
        return sqe;
    }

    /** Fills an SQE for READ, WRITE, FSYNC, NOP or ASYNC_CANCEL. */
    // One argument per SQE field, as liburing's io_uring_prep_rw; on the submission path, so no holder object.
    @SuppressWarnings("checkstyle:ParameterNumber")
    public void prep(long sqe, byte opcode, byte flags, int fd, long address, int length, long offset, int opFlags,
                     long userData) {
        sqes.set(JAVA_BYTE, sqe + SQE_OPCODE, opcode);
        sqes.set(JAVA_BYTE, sqe + SQE_FLAGS, flags);
        sqes.set(JAVA_INT, sqe + SQE_FD, fd);
        sqes.set(JAVA_LONG, sqe + SQE_OFF, offset);
        sqes.set(JAVA_LONG, sqe + SQE_ADDR, address);
        sqes.set(JAVA_INT, sqe + SQE_LEN, length);
        sqes.set(JAVA_INT, sqe + SQE_RW_FLAGS, opFlags);
        sqes.set(JAVA_LONG, sqe + SQE_USER_DATA, userData);
    }

    /**
     * Publishes the SQEs handed out since the last flush (release store of the SQ tail, after their
     * contents) and returns how many there are to submit (liburing's __io_uring_flush_sq).
     */
    public int flush() {
        int toSubmit = sqeTail - publishedTail;
        if (toSubmit > 0) {
            INT.setRelease(sqRing, sqTailOffset, sqeTail);
            publishedTail = sqeTail;
        }
        return toSubmit;
    }

    /**
     * After io_uring_enter failed outright (it consumed nothing): turns every published entry the kernel has not
     * consumed into a NOP with user_data {@code tag}, handing each one's former user_data to {@code formerUserData}
     * first; returns how many. Published entries cannot be taken back (the kernel reads them at the next enter),
     * but a NOP touches no buffer and no file, so the requests behind them may complete at once.
     */
    public int neutralizeUnconsumed(long tag, LongConsumer formerUserData) {
        int head = (int) INT.getAcquire(sqRing, sqHeadOffset);
        for (int i = head; i != publishedTail; i++) {
            long sqe = SQE_SIZE * (i & sqMask);
            formerUserData.accept(sqes.get(JAVA_LONG, sqe + SQE_USER_DATA));
            sqes.asSlice(sqe, SQE_SIZE).fill((byte) 0);
            sqes.set(JAVA_BYTE, sqe + SQE_OPCODE, UringLayout.IORING_OP_NOP);
            sqes.set(JAVA_LONG, sqe + SQE_USER_DATA, tag);
        }
        return publishedTail - head;
    }

    /**
     * io_uring_enter: submits {@code toSubmit} published entries; waits for {@code minComplete} completions.
     * With a kernel submission thread ({@link #kernelSubmits}) the entries are that thread's to take: the call
     * only wakes it if it sleeps (no system call at all when it polls and nobody waits), and returns
     * {@code toSubmit} at once, as the kernel does.
     */
    public int enter(int toSubmit, int minComplete, boolean wait) throws IOException {
        int flags = wait ? UringLayout.IORING_ENTER_GETEVENTS : 0;
        if (!kernelSubmits) {
            return UringCalls.enter(ringFd, toSubmit, minComplete, flags);
        }
        if (toSubmit > 0 && submissionThreadAsleep()) {
            flags |= UringLayout.IORING_ENTER_SQ_WAKEUP;
        }
        if (flags != 0) {
            UringCalls.enter(ringFd, toSubmit, minComplete, flags);
        }
        return toSubmit;
    }

    /** Whether the ring was set up with a kernel submission thread (SQPOLL). */
    public boolean kernelSubmits() {
        return kernelSubmits;
    }

    /**
     * With a kernel submission thread: waits until it has taken enough published entries to leave room for
     * {@code entries} (IORING_ENTER_SQ_WAIT); at once otherwise, or when there is room.
     */
    public void awaitSqSpace(int entries) throws IOException {
        while (kernelSubmits && sqSpace() < entries) {
            UringCalls.enter(ringFd, 0, 0, UringLayout.IORING_ENTER_SQ_WAIT
                    | (submissionThreadAsleep() ? UringLayout.IORING_ENTER_SQ_WAKEUP : 0));
        }
    }

    /**
     * The kernel submission thread's IORING_SQ_NEED_WAKEUP, read after a full fence: the tail published before
     * must not be ordered after this load, or the thread could fall asleep unseen with entries left
     * (liburing's sq_ring_needs_enter).
     */
    private boolean submissionThreadAsleep() {
        VarHandle.fullFence();
        return ((int) INT.getAcquire(sqRing, sqFlagsOffset) & UringLayout.IORING_SQ_NEED_WAKEUP) != 0;
    }

    /** True when the kernel takes a timeout for waits (IORING_FEAT_EXT_ARG, Linux 5.11). */
    public boolean canTimeWaits() {
        return (features & UringLayout.IORING_FEAT_EXT_ARG) != 0;
    }

    /**
     * Waits in the kernel until at least one completion is posted, or {@code timeoutNanos} passed, or a signal
     * came; returns whether the wait ended for a completion (or one was already there). Needs
     * {@link #canTimeWaits()}. Called by one thread at a time (the caller's lock guards {@link #waitArg}).
     */
    public boolean waitCompletion(long timeoutNanos) throws IOException {
        return waitCompletions(1, 0, timeoutNanos);
    }

    /** True when the kernel takes a minimum wait for batched waits (IORING_FEAT_MIN_TIMEOUT, Linux 6.12). */
    public boolean canBatchWaits() {
        return (features & UringLayout.IORING_FEAT_MIN_TIMEOUT) != 0;
    }

    /**
     * As {@link #waitCompletion}, but waits up to {@code minWaitMicros} for {@code minComplete} completions before
     * it settles for one (needs {@link #canBatchWaits()} when {@code minWaitMicros > 0}): under load one wake-up
     * then retires a batch instead of one completion.
     */
    public boolean waitCompletions(int minComplete, int minWaitMicros, long timeoutNanos) throws IOException {
        if (available() >= minComplete || minWaitMicros == 0 && available() > 0) {
            return true;
        }
        long nanos = Math.max(1_000, timeoutNanos);
        waitArg.set(JAVA_LONG, TIMESPEC_SEC, nanos / 1_000_000_000L);
        waitArg.set(JAVA_LONG, TIMESPEC_NSEC, nanos % 1_000_000_000L);
        waitArg.set(JAVA_INT, MIN_WAIT_USEC, minWaitMicros);
        try {
            UringCalls.enterWithArg(ringFd, minWaitMicros > 0 ? minComplete : 1, UringLayout.IORING_ENTER_GETEVENTS,
                    waitArg, UringLayout.GETEVENTS_ARG.byteSize());
            return true;
        } catch (ErrnoException e) {
            if (e.errno() == ETIME || e.errno() == Errno.EINTR) {
                return available() > 0;
            }
            throw e;
        }
    }

    /** Completions posted and not yet reaped. */
    public int available() {
        return (int) INT.getAcquire(cqRing, cqTailOffset) - (int) INT.get(cqRing, cqHeadOffset);
    }

    // ---- completion side (one thread) ----

    /**
     * Hands every available completion to {@code sink}, then retires them; returns the count. An entry counts
     * as taken once it is read: if {@code sink} throws, the entries read so far (the one it threw on included)
     * are retired and the exception goes on, so that no completion is ever handed over twice.
     */
    public int reap(CompletionSink sink) {
        int head = (int) INT.get(cqRing, cqHeadOffset);
        int tail = (int) INT.getAcquire(cqRing, cqTailOffset);
        int taken = head;
        try {
            while (taken != tail) {
                long cqe = cqesOffset + CQE_SIZE * (taken & cqMask);
                long userData = cqRing.get(JAVA_LONG, cqe + CQE_USER_DATA);
                int res = cqRing.get(JAVA_INT, cqe + CQE_RES);
                taken++;
                sink.accept(userData, res);
            }
        } finally {
            if (taken != head) {
                INT.setRelease(cqRing, cqHeadOffset, taken);
            }
        }
        return tail - head;
    }

    /**
     * Unmaps the rings and closes the descriptor; the caller made sure nothing is in flight. Afterwards any
     * use of this ring throws IllegalStateException (the views' arena is closed) rather than faulting.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            unmapAll(mappings, cqRing == sqRing ? List.of(sqRing, sqes) : List.of(sqRing, cqRing, sqes));
        } finally {
            Syscalls.close(ringFd, UringCalls.WHAT);
        }
    }
}
