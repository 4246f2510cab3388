package org.hpio.internal.io;

import org.hpio.internal.sys.Errno;
import org.hpio.internal.sys.NativeFile;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The portable engine: each operation is one blocking positional system call on a bounded pool of platform
 * threads (what the JDK's AsynchronousFileChannel does on Linux, 003), used where io_uring is missing or
 * refused. Same contract as {@link UringEngine}: short results surfaced, bounded in flight, cancel of a queued
 * request completes it with ECANCELED (a running one finishes), close drains.
 */
public final class ThreadPoolEngine extends EngineBase<ThreadPoolEngine.PoolJob> implements IoEngine {
    private static final int QUEUED = 0;
    private static final int RUNNING = 1;
    private static final int CANCELLED = 2;

    /** A request and whether a worker has taken it. */
    static final class PoolJob extends Job implements Runnable {
        private final ThreadPoolEngine engine;
        final AtomicInteger state = new AtomicInteger(QUEUED);

        PoolJob(ThreadPoolEngine engine, IoRequest request, NativeFile.Lease lease) {
            super(request, lease);
            this.engine = engine;
        }

        @Override
        public void run() {
            if (state.compareAndSet(QUEUED, RUNNING)) {
                engine.runClaimed(this);
            }
        }
    }

    private final ThreadPoolExecutor pool;

    private ThreadPoolEngine(EngineConfig config, ThreadFactory threads) {
        super(config);
        this.pool = new ThreadPoolExecutor(config.threads(), config.threads(), 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), threads);
        pool.allowCoreThreadTimeOut(true);
    }

    static ThreadPoolEngine open(EngineConfig config) {
        AtomicInteger n = new AtomicInteger();
        return open(config, r -> Thread.ofPlatform().daemon().name("hpio-io-" + n.incrementAndGet()).unstarted(r));
    }

    /** With the worker threads {@code threads} makes (tests hold them at a gate). */
    static ThreadPoolEngine open(EngineConfig config, ThreadFactory threads) {
        return new ThreadPoolEngine(config, threads);
    }

    @Override
    public String name() {
        return "threads";
    }

    @Override
    String engineName() {
        return name();
    }

    @Override
    PoolJob newJob(IoRequest request, NativeFile.Lease lease) {
        return new PoolJob(this, request, lease);
    }

    /**
     * Hands one admitted job to the pool. Its thread may get here only after close (a virtual thread whose
     * carrier others kept busy): close cancelled the job meanwhile (still queued), and the pool, shut down,
     * refuses it; that is no failure of the caller's, whose request is already complete, ECANCELED.
     */
    @Override
    void enqueue(PoolJob job) {
        try {
            pool.execute(job);
        } catch (RejectedExecutionException e) {
            if (job.state.compareAndSet(QUEUED, CANCELLED)) {   // close's cancel did not come first
                finish(job, 0, Errno.ECANCELED);
            }
        }
    }

    @Override
    public List<IoRequest> submitAll(List<IoOperation> operations) throws IOException {
        List<IoRequest> requests = new ArrayList<>(operations.size());
        for (IoOperation op : operations) {
            try {
                requests.add(submit(op));
            } catch (IOException e) {
                throw requests.isEmpty() ? e : new PartialSubmissionException(requests, operations.size(), e);
            }
        }
        return requests;
    }

    /** A job run on its submitter's thread is RUNNING first, as a worker's is: a cancel then leaves it to finish. */
    @Override
    boolean claimedByCaller(PoolJob job) {
        return job.state.compareAndSet(QUEUED, RUNNING);
    }

    @Override
    public boolean cancel(IoRequest request) {
        if (cancelIfWaiting(request)) {
            return true;
        }
        PoolJob job = live.get(request);
        if (job == null) {
            return false;
        }
        if (job.state.compareAndSet(QUEUED, CANCELLED)) {
            pool.remove(job);
            finish(job, 0, Errno.ECANCELED);
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        if (closing) {
            return;
        }
        closing = true;
        cancelWaiting();
        for (IoRequest request : live.requests()) {
            cancel(request);
        }
        awaitDrained();
        pool.shutdown();
        IoEngines.closed(this);
    }
}
