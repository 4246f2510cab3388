package org.hpio.async;

import org.hpio.internal.array.ArrayKind;
import org.hpio.internal.io.AdmissionGate;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;
import org.hpio.internal.io.IoOperation;
import org.hpio.internal.io.IoRequest;
import org.hpio.internal.io.IoRequests;
import org.hpio.internal.io.PartialSubmissionException;
import org.hpio.internal.mem.StagingBuffer;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;

import java.io.Closeable;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Asynchronous bulk file I/O: the AsyncFile of Bonachea's "Bulk File I/O Extensions to Java" (000 §4,
 * Figures 2-4) on hpio's engines (io_uring through the FFM API, or the portable thread-pool engine where
 * io_uring is unavailable), fixing what 003 shows of AsynchronousFileChannel: no thread per request, memory
 * bounded however far writes outrun the disk, and durability stated plainly.
 *
 * <h2>Initiation</h2>
 * {@code readArray}/{@code writeArray} take any primitive array, whole or {@code (array, offset, count)}, at
 * the file pointer (which advances at initiation, so successive calls touch consecutive data) or at a given
 * position (the pointer stays); {@code read}/{@code write} take a {@link ByteBuffer} (its remaining bytes; its
 * position and limit are left alone) or a {@link MemorySegment}. Type, bounds and end-of-file checks happen at
 * initiation: a read past the end of the file (counting writes initiated and not yet complete) throws
 * {@link EOFException} there, and nothing is started. The end of the file is the size this file last saw
 * (asked of the kernel again whenever that would refuse the read): a file shrunk through another handle
 * meanwhile ends the read short, which is then an EOFException of the request. Array elements are big-endian
 * by default (the bytes {@code DataOutputStream} and {@code BulkDataOutputStream} write), or native order by
 * option.
 *
 * <h2>Who owns the buffer</h2>
 * <ul>
 *   <li>A write from a heap array (or heap buffer or segment) copies the data off-heap at initiation: the
 *       caller may change or reuse the array as soon as {@code writeArray} returns.</li>
 *   <li>A read into a heap array lands in the array when the request is seen done (by a Done method, or the
 *       {@link AsyncFileRequest#toCompletableFuture() future}); until then the caller must not touch it. A
 *       cancelled or failed read leaves the array as it was.</li>
 *   <li>Off-heap memory the caller passes (a native segment, a direct ByteBuffer) is used by the kernel
 *       directly, with no copy: it is the request's until the request is done.</li>
 * </ul>
 *
 * <h2>Small requests</h2>
 * A plain write of at most 16 KiB ({@code -Dhpio.async.inlineWriteBytes}) to a regular file opened without
 * O_DIRECT, DSYNC or SYNC, initiated by a platform thread while no other request of the file is in flight,
 * is done by the initiating call itself: one pwrite that copies into the page cache, cheaper than handing it to a kernel or
 * pool thread (measured: about a third of the cost, see {@code InlineWrites}). Its request is returned
 * Completed, or in I/O Error with its exception thrown by the Done methods as for any request; the staged
 * copy is back in the pool when the call returns. Every other write, and every write initiated while an
 * earlier request of the file is in flight, goes to the engine as before. Likewise a read of at most 16 KiB
 * ({@code -Dhpio.async.inlineReadBytes}) of such a file (DSYNC or SYNC allowed), with nothing else of the file
 * in flight, is tried at once with preadv2 RWF_NOWAIT, which never waits for the device: it is returned
 * Completed when its data was all cached, and goes to the engine otherwise ({@code InlineReads}). The
 * durability and ordering rules below are the same for all of them.
 *
 * <h2>Bounds</h2>
 * At most {@link AsyncFileOptions#maxInFlight()} requests of this file, and the engine's bounds on requests
 * and on staging bytes (64 MiB by default), are in flight at once: at a bound initiation waits (helping to
 * retire completions meanwhile). With {@link AsyncFileOptions#failFast()} it throws instead at this file's
 * bound; at the engine's bounds it still waits, since the shared engine serves every file of the JVM (an
 * engine made with a fail-fast {@code EngineConfig}, as the tests do, throws there too). Memory never grows with
 * the backlog. One request larger than the staging bound is admitted alone.
 *
 * <h2>Durability</h2>
 * Data is durable only when a {@link #force(boolean) force} that was initiated after its write completed has
 * itself completed successfully, or when the write was initiated with {@code writeArrayDurably} (a write
 * linked to a force: IOSQE_IO_LINK on io_uring) and completed successfully, or when the file was opened
 * with DSYNC or SYNC. A failed force is reported and is final: hpio never retries a force and then trusts
 * it (after a failed fsync the kernel may have dropped the dirty pages; fsyncgate). Completion of a plain
 * write means the data reached the kernel, nothing more. The first force (or durable write) of a file opened
 * for writing forces its directory first, once per open, so a durable write's file does not vanish with its
 * name, whoever created it; with DSYNC or SYNC the directory is forced before the constructor returns. A file
 * nobody forces costs no directory fsync. Requests in flight at once are not ordered among themselves: two
 * that overlap may complete in either order (a large buffered transfer runs in a kernel worker).
 *
 * <h2>Synchronization</h2>
 * The Done methods take a time in milliseconds: 0 polls, {@link #TIME_INF} (or any negative value) waits for
 * ever. They throw the IOException of any request they include that is in I/O Error, each time, until it is
 * cleared; {@link AsyncIOCanceledException} for a cancelled one. A {@code null} in a request list is skipped
 * (Figure 5 passes a request that was never initiated). Any thread may initiate and wait; a request at the
 * file pointer takes its position and advances the pointer atomically.
 */
public final class AsyncFile implements Closeable {
    /** Wait for ever. */
    public static final int TIME_INF = -1;
    /** The operation name of a force request. */
    static final String FORCE = "force";
    /** Reads and plain writes larger than this go to the engine in parts (the kernel moves at most about 2 GiB a call). */
    static final long MAX_PART = 1L << 30;

    private final Path path;
    private final NativeFile file;
    private final IoEngine engine;
    private final AsyncFileOptions options;
    private final boolean writable;
    private final ReentrantLock pointerLock = new ReentrantLock();
    private long pointer;
    /** The end of the furthest write initiated: reads up to it pass the end-of-file check. */
    private final AtomicLong initiatedEnd = new AtomicLong();
    /** Requests in flight, and those in I/O Error or Cancelled not yet cleared. */
    private final Set<AsyncFileRequest> tracked = ConcurrentHashMap.newKeySet();
    /** Places among this file's requests in flight: one per request from initiation until it leaves In Flight. */
    private final AdmissionGate slots;
    private final AdmissionGate.Wait awaitingOwnRequests = this::awaitOwnRequests;
    /** Which plain writes are done on the initiating thread (small, buffered, nothing else in flight). */
    private final InlineWrites inlineWrites;
    /** Which reads are tried at once on the initiating thread (small, buffered, nothing else in flight). */
    private final InlineReads inlineReads;
    private volatile boolean closed;

    public AsyncFile(String name, String mode) throws IOException {
        this(Path.of(name), mode, AsyncFileOptions.defaults());
    }

    public AsyncFile(File file, String mode) throws IOException {
        this(file.toPath(), mode, AsyncFileOptions.defaults());
    }

    public AsyncFile(Path path, String mode) throws IOException {
        this(path, mode, AsyncFileOptions.defaults());
    }

    /**
     * Opens {@code path} in {@code mode} ("r", "rw", "rws" or "rwd", as {@link java.io.RandomAccessFile} has
     * them; "rw" creates the file) with {@code options}, on the JVM's shared engine.
     */
    public AsyncFile(Path path, String mode, AsyncFileOptions options) throws IOException {
        this(path, mode, options, IoEngines.shared());
    }

    /** On a given engine (tests). */
    AsyncFile(Path path, String mode, AsyncFileOptions options, IoEngine engine) throws IOException {
        this(path, mode, options, engine, true);
    }

    /**
     * On a given engine, every request handed to the engine, none done by the initiating thread (tests that
     * hold requests in flight at will).
     */
    static AsyncFile allToEngine(Path path, String mode, AsyncFileOptions options, IoEngine engine)
            throws IOException {
        return new AsyncFile(path, mode, options, engine, false);
    }

    private AsyncFile(Path path, String mode, AsyncFileOptions options, IoEngine engine, boolean inline)
            throws IOException {
        this.path = path;
        this.options = options;
        this.engine = engine;
        this.writable = !mode.equals("r");
        this.file = NativeFile.openWithDurableName(path, flags(mode, options));
        this.slots = new AdmissionGate(options.maxInFlight(), options.failFast());
        this.inlineWrites = inline ? InlineWrites.forFile(file, path) : InlineWrites.NEVER;
        this.inlineReads = inline ? InlineReads.forFile(file, path) : InlineReads.NEVER;
    }

    private static int flags(String mode, AsyncFileOptions options) {
        int flags = switch (mode) {
            case "r" -> Syscalls.O_RDONLY;
            case "rw" -> Syscalls.O_RDWR | Syscalls.O_CREAT;
            case "rws" -> Syscalls.O_RDWR | Syscalls.O_CREAT | Syscalls.O_SYNC;
            case "rwd" -> Syscalls.O_RDWR | Syscalls.O_CREAT | Syscalls.O_DSYNC;
            default -> throw new IllegalArgumentException("Illegal mode \"" + mode
                    + "\" must be one of \"r\", \"rw\", \"rws\", or \"rwd\"");
        };
        if (options.direct()) {
            flags |= Syscalls.O_DIRECT;
        }
        if (options.sync()) {
            flags |= Syscalls.O_SYNC;
        } else if (options.dsync()) {
            flags |= Syscalls.O_DSYNC;
        }
        return flags | Syscalls.O_CLOEXEC;
    }

    // ---- file-level control ----

    /** The file's size now (writes still in flight may extend it). */
    public long length() throws IOException {
        requireOpen();
        return file.size();
    }

    public long getFilePointer() throws IOException {
        requireOpen();
        pointerLock.lock();
        try {
            return pointer;
        } finally {
            pointerLock.unlock();
        }
    }

    /** Sets the file pointer (beyond the end is allowed, as for RandomAccessFile); negative is an error. */
    public void seek(long offset) throws IOException {
        requireOpen();
        if (offset < 0) {
            throw new IOException("Negative seek offset " + offset + " in " + path);
        }
        pointerLock.lock();
        try {
            pointer = offset;
        } finally {
            pointerLock.unlock();
        }
    }

    public Path path() {
        return path;
    }

    public AsyncFileOptions options() {
        return options;
    }

    /** Cancels every request of this file still in flight and returns once none is (see AsyncFileRequest#cancel). */
    public void cancel() throws IOException {
        for (AsyncFileRequest r : List.copyOf(tracked)) {
            r.cancel();
        }
    }

    /**
     * Refuses new requests, waits until every request in flight is done (writes land; nothing is cancelled),
     * and closes the file. Failures of requests nobody looked at are not thrown here. Idempotent.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        for (AsyncFileRequest r : List.copyOf(tracked)) {
            r.awaitUninterruptibly();
        }
        file.close();
    }

    // ---- initiation: arrays at the file pointer ----

    public AsyncFileRequest readArray(Object array) throws IOException {
        return readArray(array, 0, lengthOf(array));
    }

    public AsyncFileRequest readArray(Object array, int offset, int count) throws IOException {
        return atPointer(true, Transfer.OfArray.of(array, offset, count, options.order()), "readArray");
    }

    public AsyncFileRequest writeArray(Object array) throws IOException {
        return writeArray(array, 0, lengthOf(array));
    }

    public AsyncFileRequest writeArray(Object array, int offset, int count) throws IOException {
        return atPointer(false, Transfer.OfArray.of(array, offset, count, options.order()), "writeArray");
    }

    // ---- arrays at a position ----

    public AsyncFileRequest readArray(long position, Object array) throws IOException {
        return readArray(position, array, 0, lengthOf(array));
    }

    public AsyncFileRequest readArray(long position, Object array, int offset, int count) throws IOException {
        return initiate(true, position, Transfer.OfArray.of(array, offset, count, options.order()), "readArray", null);
    }

    public AsyncFileRequest writeArray(long position, Object array) throws IOException {
        return writeArray(position, array, 0, lengthOf(array));
    }

    public AsyncFileRequest writeArray(long position, Object array, int offset, int count) throws IOException {
        return initiate(false, position, Transfer.OfArray.of(array, offset, count, options.order()), "writeArray", null);
    }

    /**
     * A write at {@code position} linked to a force of the file (fdatasync, or fsync when {@code metadata}):
     * done successfully means the data is durable. A short write is continued before the force, never
     * reported durable.
     */
    public AsyncFileRequest writeArrayDurably(long position, Object array, int offset, int count, boolean metadata)
            throws IOException {
        return initiate(false, position, Transfer.OfArray.of(array, offset, count, options.order()),
                "writeArrayDurably", metadata);
    }

    /** {@link #writeArrayDurably(long, Object, int, int, boolean)} at the file pointer, of the whole array. */
    public AsyncFileRequest writeArrayDurably(Object array, boolean metadata) throws IOException {
        Transfer t = Transfer.OfArray.of(array, 0, lengthOf(array), options.order());
        pointerLock.lock();
        try {
            AsyncFileRequest r = initiate(false, pointer, t, "writeArrayDurably", metadata);
            pointer += t.bytes();
            return r;
        } finally {
            pointerLock.unlock();
        }
    }

    // ---- ByteBuffer and MemorySegment ----

    /** Reads {@code dst.remaining()} bytes at the file pointer into {@code dst} (position and limit unchanged). */
    public AsyncFileRequest read(ByteBuffer dst) throws IOException {
        return atPointer(true, new Transfer.OfSegment(writableView(dst)), "read");
    }

    public AsyncFileRequest read(long position, ByteBuffer dst) throws IOException {
        return initiate(true, position, new Transfer.OfSegment(writableView(dst)), "read", null);
    }

    /** Writes {@code src.remaining()} bytes at the file pointer (position and limit unchanged). */
    public AsyncFileRequest write(ByteBuffer src) throws IOException {
        return atPointer(false, new Transfer.OfSegment(view(src)), "write");
    }

    public AsyncFileRequest write(long position, ByteBuffer src) throws IOException {
        return initiate(false, position, new Transfer.OfSegment(view(src)), "write", null);
    }

    public AsyncFileRequest read(MemorySegment dst) throws IOException {
        return atPointer(true, new Transfer.OfSegment(requireWritable(dst)), "read");
    }

    public AsyncFileRequest read(long position, MemorySegment dst) throws IOException {
        return initiate(true, position, new Transfer.OfSegment(requireWritable(dst)), "read", null);
    }

    public AsyncFileRequest write(MemorySegment src) throws IOException {
        return atPointer(false, new Transfer.OfSegment(src), "write");
    }

    public AsyncFileRequest write(long position, MemorySegment src) throws IOException {
        return initiate(false, position, new Transfer.OfSegment(src), "write", null);
    }

    /**
     * Forces the file's data (fdatasync) or data and metadata (fsync) as a request: when it completes
     * successfully, every write that completed before it was initiated is durable. A failure is final.
     */
    public AsyncFileRequest force(boolean metadata) throws IOException {
        requireOpen();
        file.forceNewName();
        acquireSlot();
        AsyncFileRequest r = new AsyncFileRequest(this, FORCE, 0, null, false, engine,
                new StagingBuffer[0], 0, 1);
        return submit(r, List.of(IoOperation.fsync(file, metadata)), 0, Route.ENGINE);
    }

    // ---- synchronization ----

    /** Waits until every request of this file is done; see the class comment for times and exceptions. */
    public boolean allDone(long timetowait) throws IOException {
        return await(List.copyOf(tracked), true, nanos(timetowait));
    }

    /** Waits until at least one of {@code requests} is done (they may belong to different files). */
    public static boolean anyDone(long timetowait, AsyncFileRequest... requests) throws IOException {
        return await(nonNull(requests), false, nanos(timetowait));
    }

    /** Waits until every one of {@code requests} is done (they may belong to different files). */
    public static boolean allDone(long timetowait, AsyncFileRequest... requests) throws IOException {
        return await(nonNull(requests), true, nanos(timetowait));
    }

    /** The Done methods' core: wait, then throw the failure of any request included, then say if satisfied. */
    static boolean await(List<AsyncFileRequest> requests, boolean all, long timeoutNanos) throws IOException {
        long deadline = timeoutNanos == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + Math.max(0, timeoutNanos);
        List<IoRequest> pending = new ArrayList<>();
        try {
            while (!satisfied(requests, all)) {
                long left = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - System.nanoTime();
                pending.clear();
                for (AsyncFileRequest r : requests) {
                    r.pendingParts(pending);
                }
                if (left <= 0) {
                    break;
                }
                if (pending.isEmpty()) {   // a request still being submitted by another thread: it attaches or is refused
                    LockSupport.parkNanos(Math.min(left, AsyncFileRequest.SUBMISSION_LOOK_NANOS));
                    continue;
                }
                if (all) {
                    IoRequests.awaitAll(pending, left);
                } else {
                    IoRequests.awaitAny(pending, left);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for " + requests.size() + " request(s)");
        }
        for (AsyncFileRequest r : requests) {
            r.throwIfFailed();
        }
        return satisfied(requests, all);
    }

    private static boolean satisfied(List<AsyncFileRequest> requests, boolean all) {
        for (AsyncFileRequest r : requests) {
            if (r.settled() != all) {
                return !all;
            }
        }
        return all;
    }

    private static List<AsyncFileRequest> nonNull(AsyncFileRequest[] requests) {
        List<AsyncFileRequest> list = new ArrayList<>(requests.length);
        for (AsyncFileRequest r : requests) {
            if (r != null) {
                list.add(r);
            }
        }
        return list;
    }

    private static long nanos(long millis) {
        return millis < 0 ? Long.MAX_VALUE : TimeUnit.MILLISECONDS.toNanos(millis);
    }

    // ---- the initiation path ----

    private AsyncFileRequest atPointer(boolean read, Transfer transfer, String what) throws IOException {
        pointerLock.lock();
        try {
            AsyncFileRequest r = initiate(read, pointer, transfer, what, null);
            pointer += transfer.bytes();
            return r;
        } finally {
            pointerLock.unlock();
        }
    }

    /**
     * Checks, admits (this file's bound, then staging), stages and submits one request; on any failure,
     * nothing is left in flight and everything acquired is given back. {@code forceMetadata}: null for a
     * plain transfer; for a write linked to a force, whether the force is an fsync (true) or fdatasync.
     */
    private AsyncFileRequest initiate(boolean read, long position, Transfer transfer, String what, Boolean forceMetadata)
            throws IOException {
        requireOpen();
        long bytes = transfer.bytes();
        check(read, position, bytes, what);
        boolean durable = forceMetadata != null;
        if (durable) {
            file.forceNewName();
        }
        Route route = route(read, durable, bytes);
        acquireSlot();
        // A read, or a plain write, goes in parts of at most MAX_PART (the kernel moves at most about 2 GiB per
        // call); a durable write is one part, whose short writes the engine continues (linked to its fsync).
        boolean split = read || !durable;
        int partCount = bytes == 0 ? 0 : split ? (int) ((bytes + MAX_PART - 1) / MAX_PART) : 1;
        long partSize = split ? MAX_PART : bytes;
        boolean staged = transfer.direct() == null;
        long stagingBytes = 0;
        for (int i = 0; staged && i < partCount; i++) {
            stagingBytes += StagingBuffer.capacityFor(Math.min(partSize, bytes - i * partSize));
        }
        StagingBuffer[] staging = new StagingBuffer[staged ? partCount : 0];
        List<IoOperation> ops = new ArrayList<>(partCount);
        boolean budgetHeld = false;
        try {
            if (stagingBytes > 0) {
                acquireStaging(stagingBytes);
                budgetHeld = true;
            }
            for (int i = 0; i < partCount; i++) {
                long offset = i * partSize;
                long size = Math.min(partSize, bytes - offset);
                MemorySegment buffer;
                if (staged) {
                    staging[i] = StagingBuffer.acquire(size);
                    buffer = staging[i].segment();
                    if (!read) {
                        transfer.encode(offset, buffer);
                    }
                } else {
                    buffer = transfer.direct().asSlice(offset, size);
                }
                IoOperation op = read ? IoOperation.read(file, buffer, position + offset)
                        : durable ? IoOperation.writeThenFsync(file, buffer, position + offset, forceMetadata)
                        : IoOperation.write(file, buffer, position + offset);
                ops.add(options.offloadCopies() ? op : op.withoutCopyOffload());
            }
        } catch (IOException | RuntimeException | Error e) {
            giveBack(staging, budgetHeld ? stagingBytes : 0);
            throw e;
        }
        if (!read) {
            initiatedEnd.accumulateAndGet(position + bytes, Math::max);
        }
        AsyncFileRequest r = new AsyncFileRequest(this, what, position, transfer, read, engine, staging,
                stagingBytes, partCount);
        return submit(r, ops, stagingBytes, route);
    }

    /** How a request reaches the kernel. */
    private enum Route {
        /** Handed to the engine (the ring or the pool). */
        ENGINE,
        /** A small buffered write done by this thread ({@link InlineWrites}). */
        INLINE_WRITE,
        /** A small buffered read tried at once without waiting, else handed to the engine ({@link InlineReads}). */
        READ_NOW
    }

    /**
     * The route of a request, decided before it takes a place in flight. A request another thread initiates
     * meanwhile is concurrent with this one, so unordered with it whichever route either takes.
     */
    private Route route(boolean read, boolean durable, long bytes) {
        if (read) {
            return inlineReads.admits(bytes, othersInFlight()) ? Route.READ_NOW : Route.ENGINE;
        }
        return !durable && inlineWrites.admits(bytes, othersInFlight()) ? Route.INLINE_WRITE : Route.ENGINE;
    }

    /** Whether any request of this file is in flight (holds a slot) now. */
    private boolean othersInFlight() {
        return slots.held() > 0;
    }

    /**
     * Submits the operations of {@code r} by {@code route}; if the engine refuses part of them, undoes the rest
     * and throws. An inline write (or a read done at once) is done when this returns: its settling, inside
     * attach, released its staging buffer and its place in flight.
     */
    private AsyncFileRequest submit(AsyncFileRequest r, List<IoOperation> ops, long stagingBytes, Route route)
            throws IOException {
        tracked.add(r);
        List<IoRequest> submitted;
        try {
            submitted = switch (route) {
                case INLINE_WRITE -> List.of(performTimed(ops.getFirst()));
                case READ_NOW -> List.of(engine.readNowOrSubmit(ops.getFirst()));
                case ENGINE -> switch (ops.size()) {
                    case 0 -> List.of();
                    case 1 -> List.of(engine.submit(ops.getFirst()));   // no batch lists for the common case
                    default -> engine.submitAll(ops);
                };
            };
        } catch (PartialSubmissionException e) {
            for (IoRequest part : e.submitted()) {
                engine.cancel(part);
            }
            IoRequests.awaitAllUninterruptibly(e.submitted());
            tracked.remove(r);
            giveBack(r.stagingBuffers(), stagingBytes);
            r.refused();
            throw (IOException) e.getCause();
        } catch (IOException | RuntimeException | Error e) {
            tracked.remove(r);
            giveBack(r.stagingBuffers(), stagingBytes);
            r.refused();
            throw e;
        }
        r.attach(submitted);
        return r;
    }

    /** An inline write on this thread; a slow one makes the next writes go to the engine for a while. */
    private IoRequest performTimed(IoOperation op) throws IOException {
        long start = System.nanoTime();
        IoRequest done = engine.perform(op);
        inlineWrites.took(System.nanoTime() - start);
        return done;
    }

    /** Returns staging buffers, the budget they held, and this file's slot, after a failed initiation. */
    private void giveBack(StagingBuffer[] staging, long stagingBytes) {
        for (StagingBuffer b : staging) {
            if (b != null) {
                b.release();
            }
        }
        if (stagingBytes > 0) {
            engine.staging().release(stagingBytes);
        }
        slots.release(1);
    }

    /**
     * Type and range were checked by the Transfer; here: mode, position, end of file, direct-I/O alignment.
     * The end of file is the furthest of the writes initiated here and the file's size as this handle last saw
     * it, asked again (lseek) only when neither covers the read.
     */
    private void check(boolean read, long position, long bytes, String what) throws IOException {
        if (position < 0) {
            throw new IOException(describe(what, bytes, position, path) + ": negative position");
        }
        if (bytes > Long.MAX_VALUE - position) {   // before any sum below could wrap
            throw new IOException(describe(what, bytes, position, path) + ": it would end beyond the largest offset "
                    + "a file can have");
        }
        if (!read && !writable) {
            throw new IOException(describe(what, bytes, position, path) + ": the file is open read-only (mode \"r\")");
        }
        if (read && position + bytes > initiatedEnd.get()) {
            long length = Math.max(file.sizeAtLeast(position + bytes), initiatedEnd.get());
            if (position + bytes > length) {
                throw new EOFException(describe(what, bytes, position, path) + ": the file has only " + length
                        + " bytes");
            }
        }
        if (file.isDirect() && bytes > 0) {
            long align = file.directAlignment().offsetAlignment();
            if (position % align != 0 || bytes % align != 0) {
                throw new IOException(describe(what, bytes, position, path)
                        + ": O_DIRECT needs position and length in multiples of " + align);
            }
        }
    }

    /** A request's description in messages: "readArray of 4096 bytes at offset 0 of /path". */
    static String describe(String what, long bytes, long position, Path path) {
        return what + " of " + bytes + " bytes at offset " + position + " of " + path;
    }

    /** A place among this file's requests in flight: waits (helping retire completions) or fails fast. */
    private void acquireSlot() throws IOException {
        boolean admitted;
        try {
            admitted = slots.acquire(1, awaitingOwnRequests);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for room among the requests of " + path);
        }
        if (!admitted) {
            throw new IOException(options.maxInFlight() + " requests of " + path + " already in flight (fail-fast)");
        }
    }

    /**
     * One round of waiting for a slot: for any of this file's requests to complete (their retirement frees
     * slots), helping retire completions as every wait for requests does; when none is pending (one is being
     * retired now), a short park on the gate.
     */
    private void awaitOwnRequests(AdmissionGate gate, long units) throws InterruptedException {
        List<IoRequest> pending = new ArrayList<>();
        for (AsyncFileRequest r : tracked) {
            r.pendingParts(pending);
        }
        if (pending.isEmpty()) {
            gate.awaitRoom(units, TimeUnit.MILLISECONDS.toNanos(1));
        } else {
            IoRequests.awaitAny(pending, TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    private void acquireStaging(long bytes) throws IOException {
        try {
            engine.staging().acquire(bytes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for " + bytes + " bytes of staging memory");
        }
    }

    /** Called by a request as it leaves In Flight. */
    void retired(AsyncFileRequest r) {
        if (r.state() == AsyncFileRequest.State.COMPLETED) {
            tracked.remove(r);
        }
        slots.release(1);
    }

    /** Called by a request whose error was cleared. */
    void cleared(AsyncFileRequest r) {
        tracked.remove(r);
    }

    private void requireOpen() throws IOException {
        if (closed) {
            throw new IOException(path + " is closed");
        }
    }

    private static int lengthOf(Object array) {
        if (array == null) {
            throw new NullPointerException("array");
        }
        return ArrayKind.of(array).length(array);
    }

    private static MemorySegment view(ByteBuffer buffer) {
        return MemorySegment.ofBuffer(buffer);
    }

    private static MemorySegment writableView(ByteBuffer buffer) {
        if (buffer.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        return MemorySegment.ofBuffer(buffer);
    }

    private static MemorySegment requireWritable(MemorySegment segment) {
        if (segment.isReadOnly()) {
            throw new IllegalArgumentException("cannot read into a read-only segment");
        }
        return segment;
    }

    @Override
    public String toString() {
        return "AsyncFile[" + path + "]";
    }
}
