package org.hpio.async;

import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * Which writes of one file are done on the initiating thread ({@code IoEngine.perform}: one pwrite, through
 * the engine's fault hook, bounds and file lease) instead of being handed to the engine: small plain writes
 * to a regular file opened buffered (no O_DIRECT, DSYNC or SYNC), from a platform thread, while no other
 * request of the file is in flight. Such a write only copies into the page cache, which costs less than any
 * hand-off.
 *
 * <p>Design note. ext4 has no non-blocking buffered write (pwritev2 RWF_NOWAIT fails with EOPNOTSUPP), so
 * io_uring hands every buffered ext4 write to a kernel worker (io-wq: 1,649 of 20,000 4 KiB writes completed
 * inside io_uring_enter here), and the portable engine hands it to a pool thread: a 4 KiB write paid two
 * thread wake-ups for a copy of a few microseconds. Candidates, 4 KiB heap-array writes to a warm 64 MiB
 * file, median of rounds, side by side in one JVM each (AMD EPYC, 2 vCPUs under KVM, Linux 6.18, ext4, a
 * busy shared machine; microseconds per write, AsynchronousFileChannel with a heap buffer in the same run):
 * <ul>
 *   <li>io_uring as before (the kernel punts to io-wq): 9.9; this pwrite on the caller's thread: 3.2;
 *       AsynchronousFileChannel: 19.2;</li>
 *   <li>io_uring with IOSQE_ASYNC on every write (straight to io-wq, {@code -Dhpio.uring.offloadBytes=1}):
 *       13.9, worse than letting the kernel punt;</li>
 *   <li>the portable engine: pool thread 14.5, this pwrite 3.6.</li>
 * </ul>
 * The pwrite is the only one under 1/1.5 of AsynchronousFileChannel's cost, on both engines; {@code hpio
 * bench async} keeps the queued path as {@code hpio-queued-write-4k} beside it. The bound, 16 KiB: there the
 * pwrite still cost about half of the queued write (14.8 against 26.2 us), at 64 KiB only 20% less (31.8
 * against 39.6 us) while holding the caller for the whole copy, which a kernel worker would overlap.
 *
 * <p>What it keeps: the request is the same request, completed (or in I/O Error) when initiation returns;
 * its error surfaces on the Done methods exactly once per request, as any other; the fault injector sees it
 * at the same choke point. Ordering: requests in flight at once are unordered (AsyncFile, Durability), and
 * a write that finds an earlier request of its file in flight goes to the engine as before, so it never
 * overtakes one. A force initiated after it returns covers it, since it completed before. Buffers: the
 * write is staged like any heap write (copied off-heap at initiation); the staging buffer is the request's
 * during the pwrite and back in its pool when initiation returns, and off-heap memory the caller passed is
 * the caller's again then. Blocking: a
 * buffered write may wait in the kernel (dirty-page throttling when the disk falls behind, reading a page to
 * fill it partly), or its thread may lose its core; measured here, about 1 in 1,000 random 4 KiB pwrites took
 * over 1 ms (the worst 64 ms) on a busy 2-vCPU VM. When an inline write took longer than {@link #SLOW_NANOS},
 * the file's writes go to the engine for a back-off that starts at {@link #MIN_BACK_OFF_NANOS} and doubles
 * (up to {@link #MAX_BACK_OFF_NANOS}) while the first inline write after each back-off is slow again, and
 * starts over after a fast one: a stray slow write costs a millisecond of queued writes, while a kernel that
 * keeps throttling sees the caller's share of it fall geometrically.
 *
 * <p>{@code -Dhpio.async.inlineWriteBytes=N} sets the largest inline write (default {@value #DEFAULT_MAX_BYTES}
 * bytes; 0 turns the path off), read when a file is opened.
 */
final class InlineWrites {
    static final String PROPERTY = "hpio.async.inlineWriteBytes";
    /** No write inline. */
    static final InlineWrites NEVER = new InlineWrites(0, System::nanoTime);
    static final long DEFAULT_MAX_BYTES = 16 << 10;
    /** An inline write slower than this waited for something other than a copy. */
    static final long SLOW_NANOS = 1_000_000;
    /** The first back-off after a slow inline write: the file's writes go to the engine meanwhile. */
    static final long MIN_BACK_OFF_NANOS = 1_000_000;
    static final long MAX_BACK_OFF_NANOS = 1_000_000_000;

    /** The largest write done inline; 0 for a file whose writes never are. */
    private final long maxBytes;
    /** System.nanoTime until which writes go to the engine (after a slow inline write); 0 when none. */
    private volatile long backOffUntil;
    /** The next back-off's length. A heuristic: racing updates from several threads lose nothing that matters. */
    private volatile long nextBackOff = MIN_BACK_OFF_NANOS;

    /** System.nanoTime, or a test's clock. */
    private final LongSupplier clock;

    InlineWrites(long maxBytes, LongSupplier clock) {
        this.maxBytes = maxBytes;
        this.clock = clock;
    }

    /** The policy for {@code file}, opened at {@code path}: inline writes only for a buffered regular file. */
    static InlineWrites forFile(NativeFile file, Path path) {
        boolean buffered = !file.isDirect() && (file.flags() & Syscalls.O_DSYNC) == 0;   // O_SYNC includes O_DSYNC
        long max = Math.max(0, Long.getLong(PROPERTY, DEFAULT_MAX_BYTES));
        return new InlineWrites(buffered && Files.isRegularFile(path) ? max : 0, System::nanoTime);
    }

    /**
     * Whether a plain write of {@code bytes} goes inline; {@code othersInFlight}: whether any request of the
     * file is in flight now (the write then goes to the engine, behind it). Never from a virtual thread: a
     * write that waits in the kernel would hold its carrier (the engines never block one in the kernel).
     */
    boolean admits(long bytes, boolean othersInFlight) {
        return bytes > 0 && bytes <= maxBytes && !othersInFlight && !Thread.currentThread().isVirtual()
                && !backingOff();
    }

    /** Notes how long an inline write took: a slow one starts a back-off (the next one twice as long). */
    void took(long nanos) {
        long backOff = nextBackOff;
        if (nanos <= SLOW_NANOS) {
            if (backOff != MIN_BACK_OFF_NANOS) {
                nextBackOff = MIN_BACK_OFF_NANOS;
            }
            return;
        }
        backOffUntil = clock.getAsLong() + backOff;
        nextBackOff = Math.min(MAX_BACK_OFF_NANOS, 2 * backOff);
    }

    /** Whether writes go to the engine now because an inline write was slow. */
    boolean backingOff() {
        long until = backOffUntil;
        return until != 0 && clock.getAsLong() - until < 0;
    }

    long maxBytes() {
        return maxBytes;
    }
}
