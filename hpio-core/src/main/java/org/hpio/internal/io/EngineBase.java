package org.hpio.internal.io;

import org.hpio.internal.sys.NativeFile;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * What both engines share: admission against the in-flight bound, the file lease each request holds until it
 * completes, the O_DIRECT alignment check, the table of live requests, and the drain on close.
 *
 * @param <J> the engine's per-request state
 */
abstract class EngineBase<J extends EngineBase.Job> implements Completions {
    // Completions' defaults fit the thread-pool engine: its workers complete requests, a waiter just parks.

    /** Per-request state: the request, and the lease that keeps its file open until completion. */
    static class Job {
        final IoRequest request;
        final NativeFile.Lease lease;

        Job(IoRequest request, NativeFile.Lease lease) {
            this.request = request;
            this.lease = lease;
        }

        IoOperation op() {
            return request.operation();
        }

        int fd() {
            return lease.fd();
        }
    }

    final EngineConfig config;
    final StagingBudget staging;
    final Map<IoRequest, J> live = new ConcurrentHashMap<>();
    private final Semaphore permits;
    volatile boolean closing;

    EngineBase(EngineConfig config) {
        this.config = config;
        this.permits = new Semaphore(config.maxInFlight());
        this.staging = new StagingBudget(config.maxStagingBytes(), config.failFast(), this);
    }

    abstract String engineName();

    abstract J newJob(IoRequest request, NativeFile.Lease lease);

    /** Admits {@code op}: waits for (or, fail-fast, demands) a free place in flight; leases its file. */
    final J admit(IoOperation op) throws IOException {
        if (closing) {
            throw new IOException("the " + engineName() + " engine is closed");
        }
        if (op.file() != null && op.file().isDirect() && op.buffer() != null) {
            op.file().directAlignment().check(op.buffer().address(), op.position(), op.buffer().byteSize());
        }
        acquirePermit();
        try {
            if (closing) {
                throw new IOException("the " + engineName() + " engine is closed");
            }
            NativeFile.Lease lease = op.file() == null ? null : op.file().lease();
            IoRequest request = new IoRequest(op, this);
            J job = newJob(request, lease);
            live.put(request, job);
            return job;
        } catch (IOException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    private void acquirePermit() throws IOException {
        if (config.failFast()) {
            if (!permits.tryAcquire()) {
                throw new EngineSaturatedException(config.maxInFlight() + " requests already in flight on the "
                        + engineName() + " engine");
            }
            return;
        }
        try {
            while (!permits.tryAcquire()) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (pollFor(() -> permits.availablePermits() > 0, IoRequests.SLICE_NANOS, () -> { })) {
                    continue;
                }
                parking(true);
                try {
                    if (permits.tryAcquire(IoRequests.SLICE_NANOS, TimeUnit.NANOSECONDS)) {
                        return;
                    }
                } finally {
                    parking(false);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for room in the " + engineName() + " engine");
        }
    }

    /**
     * Applies the configured fault hook: when it names an errno for {@code job}'s operation, the job completes
     * with that error at once, without any I/O, and this returns true (the engine then does not submit it).
     */
    final boolean injectedFault(J job) {
        int errno = config.faults().errnoFor(job.op());
        if (errno == 0) {
            return false;
        }
        finish(job, 0, errno);
        return true;
    }

    /** Completes {@code job}: its file and place in flight are released before waiters and listeners run. */
    final void finish(J job, long bytes, int errno) {
        if (live.remove(job.request) == null) {
            return;
        }
        if (job.lease != null) {
            job.lease.close();
        }
        permits.release();
        job.request.complete(bytes, errno);
    }

    public final int inFlight() {
        return live.size();
    }

    public final EngineConfig config() {
        return config;
    }

    public final StagingBudget staging() {
        return staging;
    }

    /** Waits until every live request completed (after close asked them to cancel). */
    final void awaitDrained() {
        boolean interrupted = false;
        while (!live.isEmpty()) {
            IoRequest any = live.keySet().stream().findAny().orElse(null);
            if (any == null) {
                break;
            }
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
