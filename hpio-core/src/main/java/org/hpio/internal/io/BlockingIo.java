package org.hpio.internal.io;

import org.hpio.internal.sys.Errno;
import org.hpio.internal.sys.Syscalls;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * An engine operation done by blocking positional system calls on the calling thread: what the portable
 * engine's workers do for every request, and what {@link IoEngine#perform} does on the initiating thread for
 * either engine. The result is never adjusted: a short read or write is reported as such; a write-then-fsync
 * continues a short write before it forces, and reports the bytes written even when a step fails.
 *
 * <p>The calls go through the job's file lease ({@code NativeFile.Lease}: a descriptor's system calls, or the JDK's
 * channel where native calls are off), which the request holds until it completes.
 *
 * <p>Buffer ownership: the job's request owns the operation's buffer for the duration of {@link #run}, as
 * the kernel would under io_uring; the buffer is used by address, so a submitter's confined arena is fine.
 */
final class BlockingIo {
    /** What the calls came to: bytes moved and 0, or the bytes before a failure and its errno. */
    record Outcome(long bytes, int errno) {
    }

    private BlockingIo() {
    }

    /** Does {@code job}'s operation (or the prefix a short fault left of it); never throws an IOException. */
    static Outcome run(EngineBase.Job job) {
        IoOperation op = job.op();
        try {
            // The submitter's arena may be confined to its thread: a worker uses the memory as the kernel
            // does under io_uring, by address, while the request owns the buffer.
            MemorySegment buffer = op.buffer() == null || op.file().isPortable() ? op.buffer()
                    : Syscalls.anyThreadView(op.buffer());
            return switch (op.kind()) {
                case READ -> new Outcome(job.lease.read(buffer, op.position()), 0);
                case WRITE -> new Outcome(job.lease.write(buffer, op.position()), 0);
                case FSYNC -> {
                    job.lease.force(op.metadata());
                    yield new Outcome(0, 0);
                }
                case WRITE_THEN_FSYNC -> writeThenFsync(job, buffer);
                case NOP -> new Outcome(0, 0);
            };
        } catch (IOException e) {
            return new Outcome(0, Errno.of(e));
        }
    }

    /**
     * {@code job}'s read (or the prefix a short fault left of it) if all of it can be had without waiting for
     * the device (preadv2 RWF_NOWAIT), or, when {@code toEndOfFile}, all of it up to the end of the file (a short
     * read, or none, whose end is the file's size asked right after: {@code Files.readAllBytes}' last read, a
     * stream's last buffer); null when not (none or only part of it is in the page cache, or the file system
     * cannot say: the engine then does the whole read as usual). A failure is the outcome's errno.
     */
    static Outcome readNow(EngineBase.Job job, boolean toEndOfFile) {
        IoOperation op = job.op();
        if (op.file().isPortable()) {
            return null;   // the JDK cannot read without waiting: the engine does the whole read
        }
        try {
            long bytes = job.lease.readNow(op.buffer(), op.position(), toEndOfFile);
            return bytes == Syscalls.WOULD_BLOCK ? null : new Outcome(bytes, 0);
        } catch (IOException e) {
            return new Outcome(0, Errno.of(e));
        }
    }

    /** Writes all of the buffer, then forces; the result counts the bytes written even when a step fails. */
    private static Outcome writeThenFsync(EngineBase.Job job, MemorySegment buffer) {
        IoOperation op = job.op();
        long done = 0;
        try {
            while (done < buffer.byteSize()) {
                long n = job.lease.write(buffer.asSlice(done), op.position() + done);
                if (n == 0) {
                    throw Errno.exception("pwrite", Errno.EIO, op.file().path(), op.position() + done);
                }
                done += n;
            }
            job.lease.force(op.metadata());
            return new Outcome(done, 0);
        } catch (IOException e) {
            return new Outcome(done, Errno.of(e));
        }
    }
}
