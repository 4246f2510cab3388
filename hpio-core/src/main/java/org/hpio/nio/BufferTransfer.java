package org.hpio.nio;

import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoOperation;
import org.hpio.internal.mem.StagingBuffer;
import org.hpio.internal.sys.NativeFile;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.ref.WeakReference;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One engine read or write between a file and the remaining bytes of one or more ByteBuffers (a scatter or
 * gather is one operation over all of them).
 *
 * <p>Who owns which memory:
 * <ul>
 *   <li>A single direct buffer whose memory nobody frees while it is reachable ({@link #inPlace}) is given to
 *       the kernel in place: from {@link #prepare} until the operation is done it is the request's, and the
 *       channel hands it back (finishes or releases the transfer) only once the request completed, failed or
 *       was cancelled and completed.</li>
 *   <li>A direct buffer of an arena its owner closes is staged as a heap buffer is (see {@link #inPlace}); one
 *       whose arena is closed already is refused with IllegalStateException before any I/O, as the JDK's
 *       channels refuse it.</li>
 *   <li>Heap buffers (and any scatter/gather) are staged: a write copies the bytes into off-heap staging
 *       memory at initiation, a read copies them from staging into the buffers in {@link #finish}, after the
 *       kernel is done. The kernel never sees a heap buffer, so nothing can write into it after completion.
 *       Staging bytes count against the engine's {@link org.hpio.internal.io.StagingBudget}: at the bound the
 *       initiating thread waits (003's OutOfMemoryError cannot happen). The asynchronous channel's staged
 *       transfers hold their buffers weakly, so writes in flight keep no heap memory their callers dropped.</li>
 * </ul>
 * Buffer positions move only in {@link #finish}, by the bytes the operation moved; a failed or cancelled
 * transfer leaves them where they were.
 */
final class BufferTransfer {
    /**
     * One call moves at most this much: Linux's own limit per read or write (MAX_RW_COUNT, 2 GiB less a page),
     * so one call moves as much as the JDK's, whose single pread or pwrite the kernel caps there. A caller that
     * writes a buffer of 1.5 GiB once and ignores the count (wrong, but it works on the JDK's channel) loses
     * nothing here either.
     */
    static final long MAX_BYTES = Integer.MAX_VALUE & ~4095L;

    /** The buffers, held strongly; null when {@link #weak} holds them. */
    private final ByteBuffer[] buffers;
    /** The buffers of a staged transfer whose caller may drop them (see {@link #prepare}); else null. */
    private final WeakReference<ByteBuffer>[] weak;
    /** Each buffer's remaining bytes at initiation; null for a single buffer (the usual call: no array). */
    private final int[] lengths;
    /** The first buffer's remaining bytes at initiation. */
    private final int firstLength;
    private final boolean read;
    private final long bytes;
    private final IoEngine engine;
    private final StagingBuffer staging;
    private final long stagingBytes;
    private final MemorySegment segment;
    /** Set once the staging memory went back; null when nothing is staged. */
    private final AtomicBoolean released;

    @SuppressWarnings("unchecked")
    private BufferTransfer(ByteBuffer[] buffers, boolean holdWeakly, boolean read, long bytes, IoEngine engine,
                           StagingBuffer staging, long stagingBytes, MemorySegment segment) {
        this.firstLength = buffers[0].remaining();
        if (buffers.length == 1) {
            this.lengths = null;
        } else {
            this.lengths = new int[buffers.length];
            for (int i = 0; i < buffers.length; i++) {
                lengths[i] = buffers[i].remaining();
            }
        }
        this.released = staging == null ? null : new AtomicBoolean();
        if (holdWeakly) {
            this.weak = new WeakReference[buffers.length];
            for (int i = 0; i < buffers.length; i++) {
                weak[i] = new WeakReference<>(buffers[i]);
            }
            this.buffers = null;
        } else {
            this.weak = null;
            this.buffers = buffers;
        }
        this.read = read;
        this.bytes = bytes;
        this.engine = engine;
        this.staging = staging;
        this.stagingBytes = stagingBytes;
        this.segment = segment;
    }

    /**
     * The scopes of memory nobody frees while a buffer of it is reachable: {@code ByteBuffer.allocateDirect}'s
     * (and a classic mapping's), the global arena's, an automatic arena's. Their classes, taken from instances
     * (no internal names): any other scope is treated as an arena its owner may close. In a holder, made on the
     * first direct buffer: a cold JVM's first read into a heap buffer does not pay for the instances.
     */
    private static final class NeverFreed {
        static final List<Class<?>> SCOPES = List.of(
                MemorySegment.ofBuffer(ByteBuffer.allocateDirect(1)).scope().getClass(),
                Arena.global().scope().getClass(), Arena.ofAuto().scope().getClass());
    }

    /**
     * Whether the kernel may read or write {@code buffer}'s memory in place: a direct buffer whose memory
     * nobody frees while the buffer is reachable (this call holds it). False for a heap buffer, and for a
     * buffer of an arena its owner closes ({@code Arena.ofShared}, {@code ofConfined}): the JDK's channels hold
     * such an arena open for the call (a close meanwhile fails), which no public API allows, so hpio keeps the
     * kernel off that memory and copies through the arena's own checked accesses instead; a close meanwhile
     * then fails the copy, never frees memory the kernel writes to. The one choke point for that hazard.
     *
     * @throws IllegalStateException when the buffer's arena is closed already, as the JDK's channels throw
     */
    static boolean inPlace(ByteBuffer buffer) {
        return inPlaceView(buffer) != null;
    }

    /**
     * {@code buffer}'s memory as a segment when the kernel may use it in place ({@link #inPlace}), else null:
     * one view for the check and the call.
     *
     * @throws IllegalStateException when the buffer's arena is closed already, as the JDK's channels throw
     */
    static MemorySegment inPlaceView(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            return null;
        }
        MemorySegment view = MemorySegment.ofBuffer(buffer);
        MemorySegment.Scope scope = view.scope();
        if (!scope.isAlive()) {
            throw new IllegalStateException("Already closed");
        }
        return NeverFreed.SCOPES.contains(scope.getClass()) ? view : null;
    }

    /** Refuses, before any I/O, buffers whose arena is closed already (see {@link #inPlace}). */
    static void requireAlive(ByteBuffer[] buffers) {
        for (ByteBuffer b : buffers) {
            inPlace(b);
        }
    }

    /** The bytes remaining in {@code buffers} (what a transfer over them asks for, before the cap). */
    static long remaining(ByteBuffer[] buffers) {
        long total = 0;
        for (ByteBuffer b : buffers) {
            total += b.remaining();
        }
        return total;
    }

    /**
     * Prepares a transfer of up to {@link #MAX_BYTES} of the bytes remaining in {@code buffers} (at least one
     * byte remains): the in-place view of a single direct buffer, or staging memory (waiting for the staging
     * budget; filled now for a write), the buffers held strongly.
     */
    static BufferTransfer prepare(IoEngine engine, ByteBuffer[] buffers, boolean read) throws IOException {
        return prepare(engine, buffers, read, false);
    }

    /**
     * As {@link #prepare(IoEngine, ByteBuffer[], boolean)}; with {@code holdWeakly}, a staged transfer holds
     * its buffers only weakly: the kernel never sees them, so a buffer its caller dropped (003's experiment:
     * {@code write(ByteBuffer.wrap(new byte[n]), ...)}, nothing kept) may be collected while its write is in
     * flight, and nobody is left to see its position or data at completion. The heap then holds no more for
     * writes in flight than their callers keep. An in-place direct buffer is always held strongly (the kernel
     * uses its memory).
     */
    static BufferTransfer prepare(IoEngine engine, ByteBuffer[] buffers, boolean read, boolean holdWeakly)
            throws IOException {
        long bytes = Math.min(remaining(buffers), MAX_BYTES);
        if (buffers.length > 1) {
            requireAlive(buffers);   // a single buffer is checked by inPlace
        }
        MemorySegment view = buffers.length == 1 ? inPlaceView(buffers[0]) : null;
        if (view != null) {
            if (view.byteSize() != bytes) {
                view = view.asSlice(0, bytes);   // capped at MAX_BYTES
            }
            return new BufferTransfer(buffers, false, read, bytes, engine, null, 0, view);
        }
        long capacity = StagingBuffer.capacityFor(bytes);
        try {
            engine.staging().acquire(capacity);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for " + capacity + " bytes of staging memory");
        }
        StagingBuffer staging;
        try {
            staging = StagingBuffer.acquire(bytes);
        } catch (RuntimeException | Error e) {
            engine.staging().release(capacity);
            throw e;
        }
        BufferTransfer t = new BufferTransfer(buffers, holdWeakly, read, bytes, engine, staging, capacity,
                staging.segment());
        if (!read) {
            t.copyIn(buffers);
        }
        return t;
    }

    private void copyIn(ByteBuffer[] buffers) {
        long offset = 0;
        for (ByteBuffer b : buffers) {
            long n = Math.min(b.remaining(), bytes - offset);
            if (n > 0) {
                MemorySegment.copy(MemorySegment.ofBuffer(b), 0, segment, offset, n);
                offset += n;
            }
        }
    }

    /** The engine operation of this transfer at {@code position}. */
    IoOperation operation(NativeFile file, long position) {
        return read ? IoOperation.read(file, segment, position) : IoOperation.write(file, segment, position);
    }

    long bytes() {
        return bytes;
    }

    /**
     * After the operation completed having moved {@code moved} bytes: a staged read copies them into the
     * buffers; every buffer's position advances by its share; the staging memory goes back. Only once the
     * kernel is done with the memory.
     */
    void finish(long moved) {
        try {
            long offset = 0;
            int count = lengths == null ? 1 : lengths.length;
            for (int i = 0; i < count && offset < moved; i++) {
                int n = (int) Math.min(lengths == null ? firstLength : lengths[i], moved - offset);
                if (n == 0) {
                    continue;   // a buffer with nothing remaining, among others: none of the bytes are its
                }
                ByteBuffer b = buffers != null ? buffers[i] : weak[i].get();
                if (b != null) {   // else collected: nobody can see its position or contents
                    if (read && staging != null) {
                        MemorySegment.copy(segment, offset, MemorySegment.ofBuffer(b), 0, n);
                    }
                    b.position(b.position() + n);
                }
                offset += n;
            }
        } finally {
            release();
        }
    }

    /** Gives the staging memory and its budget back (idempotent); buffer positions stay. */
    void release() {
        if (staging != null && released.compareAndSet(false, true)) {
            staging.release();
            engine.staging().release(stagingBytes);
        }
    }
}
