package org.hpio.internal.io;

import org.hpio.internal.sys.NativeFile;

import java.io.IOException;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * An asynchronous I/O engine: operations go in, each completes its own {@link IoRequest}. Two mechanisms
 * implement it: {@link UringEngine} (the kernel's io_uring, through the FFM API) and {@link ThreadPoolEngine}
 * (positional reads and writes on a bounded pool of threads, where io_uring is missing or refused). Both pass
 * one contract test suite. Get one from {@link IoEngines}.
 *
 * <p>Bounds: at most {@link EngineConfig#maxInFlight()} requests are in flight; at the bound, submission
 * blocks (parking the thread) or, when the engine is fail-fast, throws {@link EngineSaturatedException}. Whoever
 * waits beyond the bound, a thread in {@link #submit} or a request of {@link #submitToWait}, waits in one queue
 * and takes a freed place in the order it came, so neither kind can starve the other. Memory
 * never grows with a backlog. Results are never adjusted: a short read or write is reported as such.
 *
 * <p>O_DIRECT files: buffer address, file offset and length must be multiples of the file's
 * {@link org.hpio.internal.sys.DirectAlignment}; an unaligned request is refused at submission with an
 * IOException saying which of the three is off (no bounce buffer is made behind the caller's back).
 *
 * <p>Thread-safe: any thread may submit, cancel and wait.
 */
public sealed interface IoEngine extends AutoCloseable permits UringEngine, ThreadPoolEngine {
    /** "uring" or "threads". */
    String name();

    EngineConfig config();

    /** Submits one operation. */
    IoRequest submit(IoOperation operation) throws IOException;

    /**
     * Submits one operation for a caller that waits for its request next (a blocking channel call). When every
     * place in flight is taken, the request waits in the engine for the next free place, in order, instead of the
     * caller waiting for room (without fail-fast; with it, as {@link #submit}); it can be cancelled while it
     * waits. The bound on requests in flight holds either way; what waits beyond it is one request per waiting
     * thread.
     */
    IoRequest submitToWait(IoOperation operation) throws IOException;

    /**
     * Submits several operations in one batch (one {@code io_uring_enter} on the io_uring engine). Blocks
     * until all were admitted; if admission fails part way, the ones already submitted stay in flight and a
     * {@link PartialSubmissionException} lists them.
     */
    List<IoRequest> submitAll(List<IoOperation> operations) throws IOException;

    /**
     * Does one operation on the calling thread, by a blocking system call, and returns its request already
     * done (completed, failed or, by an injected fault, cancelled): for work that costs less than a hand-off
     * to the engine's mechanism, such as a small buffered write that only copies into the page cache. The
     * operation passes the same choke points as a submitted one: the fault hook, the engine's bound, the
     * file lease. A refused admission throws, as {@link #submit} does; an I/O failure is the request's errno.
     */
    IoRequest perform(IoOperation operation) throws IOException;

    /**
     * A READ done at once on the calling thread when all of its data is in the page cache (preadv2 with
     * RWF_NOWAIT, which never waits for the device), and its request returned done; otherwise submitted as
     * {@link #submit} does, in flight as usual. A read done at once takes no place in flight (it holds nothing
     * after the call), so it does not wait behind a full engine. The fault hook is asked once either way; a
     * refused admission throws. For small reads, whose hand-off to the engine costs more than the copy.
     */
    IoRequest readNowOrSubmit(IoOperation operation) throws IOException;

    /**
     * As {@link #readNowOrSubmit}, for a caller that waits for the request next (a blocking channel call): a
     * read that stops short at the end of the file (the file's size asked after it) is done at once too; when the
     * read cannot be done at once, it goes in as {@link #submitToWait} does, so beyond the bound it
     * takes its turn in the engine's queue with every other waiting caller's request instead of racing them for
     * each freed place (which, with thousands of virtual threads queued, a platform thread never wins).
     */
    IoRequest readNowOrSubmitToWait(IoOperation operation) throws IOException;

    /**
     * Asks for {@code request} to be cancelled. It then completes with ECANCELED, or normally if it finished
     * first; either way its buffer is the caller's again only once it is done. Returns false when the request
     * is already done or not of this engine.
     */
    boolean cancel(IoRequest request);

    /**
     * Asks for every request on {@code file} not yet done, in flight or queued for a place, to be cancelled, as
     * {@link #cancel} does each; returns how many were asked. A request submitted while this runs may be
     * missed (a caller that marks the file closed first, and whose submitters look at that mark after they
     * submit, cancelling their own request if set, misses none of those), and so may one that a preempted
     * thread was moving from the queue to a place the whole time: such a request completes as usual. Costs its
     * callers nothing per request, and holds up no admission: the engine's own queue and table of live
     * requests are looked through.
     */
    int cancelAll(NativeFile file);

    /** Requests submitted and not yet completed. */
    int inFlight();

    /** Whether {@link #close} began: the engine refuses new requests (the JVM's shutdown hook closes every engine). */
    boolean isClosed();

    /**
     * Whether the calling thread is retiring this engine's completions now (a listener of a request runs on
     * it): it must not wait for another request of this engine, whose completion it would have to retire.
     */
    default boolean retiringOnThisThread() {
        return false;
    }

    /** The bound on staging bytes that users of this engine hold for their requests in flight. */
    StagingBudget staging();

    /**
     * Lets the calling thread, which has nothing else to do, retire this engine's completions for at most
     * {@code nanos}, as a platform thread waiting for a request does (see {@link IoRequests}): on io_uring one
     * such thread waits in the kernel and retires every completion it finds (running their listeners), the
     * others stand by, parked, after {@code beforeStandingBy} ran (so that whoever has work for them can unpark
     * them). Returns early once {@code enough} holds. Returns false at once where the thread should park
     * instead (a virtual thread, the portable engine, an io_uring without timed waits): its workers or the
     * engine's completion thread retire the completions then. For an executor whose idle threads wait for the
     * completions whose handlers they run, with no hand-off.
     */
    default boolean pollCompletions(BooleanSupplier enough, long nanos, Runnable beforeStandingBy) {
        return ((Completions) this).pollFor(enough, nanos, beforeStandingBy);
    }

    /**
     * Says that the calling side polls this engine with {@link #pollCompletions} again and again, and is now
     * between two polls ({@code true}) or no longer ({@code false}); calls pair up. While such a poller is
     * present, the engine's completion thread stays out of the way, as it does while a thread polls: the
     * completions wait for the poller's next poll. So the poller must come back within milliseconds (an
     * executor whose threads poll between tasks ends its presence when a task runs long).
     */
    default void pollerPresent(boolean present) {
        ((Completions) this).pollerPresence(present);
    }

    /**
     * Refuses new requests, cancels those in flight, waits for every completion (so no buffer is still the
     * kernel's), and frees the engine's resources. Idempotent.
     */
    @Override
    void close() throws IOException;
}
