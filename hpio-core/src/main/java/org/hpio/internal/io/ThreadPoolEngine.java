package org.hpio.internal.io;

import org.hpio.internal.sys.Errno;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
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
                engine.execute(this);
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

    @Override
    public IoRequest submit(IoOperation operation) throws IOException {
        PoolJob job = admit(operation);
        if (!injectedFault(job)) {
            pool.execute(job);
        }
        return job.request;
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

    private void execute(PoolJob job) {
        IoOperation op = job.op();
        try {
            // The submitter's arena may be confined to its thread: this worker uses the memory as the kernel
            // does under io_uring, by address, while the request owns the buffer.
            MemorySegment buffer = op.buffer() == null ? null : Syscalls.anyThreadView(op.buffer());
            if (op.kind() == IoOperation.Kind.WRITE_THEN_FSYNC) {
                writeThenFsync(job, buffer);
                return;
            }
            long bytes = switch (op.kind()) {
                case READ -> Syscalls.pread(job.fd(), buffer, op.position(), op.file().path());
                case WRITE -> Syscalls.pwrite(job.fd(), buffer, op.position(), op.file().path());
                case FSYNC -> {
                    Syscalls.force(job.fd(), op.metadata(), op.file().path());
                    yield 0;
                }
                case WRITE_THEN_FSYNC -> throw new AssertionError("handled above");
                case NOP -> 0;
            };
            finish(job, bytes, 0);
        } catch (IOException e) {
            finish(job, 0, Errno.of(e));
        } catch (RuntimeException | Error e) {
            finish(job, 0, Errno.EIO);
            throw e;
        }
    }

    /** Writes all of the buffer, then forces; the result counts the bytes written even when a step fails. */
    private void writeThenFsync(PoolJob job, MemorySegment buffer) {
        IoOperation op = job.op();
        long done = 0;
        try {
            while (done < buffer.byteSize()) {
                long n = Syscalls.pwrite(job.fd(), buffer.asSlice(done), op.position() + done, op.file().path());
                if (n == 0) {
                    throw Errno.exception("pwrite", Errno.EIO, op.file().path(), op.position() + done);
                }
                done += n;
            }
            Syscalls.force(job.fd(), op.metadata(), op.file().path());
            finish(job, done, 0);
        } catch (IOException e) {
            finish(job, done, Errno.of(e));
        }
    }

    @Override
    public boolean cancel(IoRequest request) {
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
        for (IoRequest request : live.requests()) {
            cancel(request);
        }
        awaitDrained();
        pool.shutdown();
        IoEngines.closed(this);
    }
}
