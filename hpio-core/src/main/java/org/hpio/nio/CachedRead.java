package org.hpio.nio;

import org.hpio.internal.mem.StagingSlots;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * A small buffered read served at once from the page cache on the calling thread (one preadv2 RWF_NOWAIT),
 * with no engine request: the first thing {@link HpioFileChannel} tries for a read of up to {@value #MAX_BYTES}
 * bytes into one buffer. An engine request's fixed costs (admission, the live table, staging memory from the
 * pool, the request and its completion) were most of a small read: {@code Files.readAllBytes} of a 1 KiB file
 * took 2.9 µs through the provider against the JDK's 1.8 (Intel Xeon, warm), and its two reads (the data, then
 * the end of the file) half of that.
 *
 * <p>It serves what the engine's own no-wait step serves ({@code IoEngine.readNowOrSubmitToWait}), by the same
 * call ({@link NativeFile.Lease#readNow}): all of the read, or all of it up to the end of the file; anything else (data not cached, only part of it cached, a file
 * system that cannot read without waiting, a descriptor closed meanwhile) is {@link #NOT_SERVED}, nothing
 * changes, and the caller goes the engine's way. It never waits for the device, so a virtual thread never
 * pins its carrier here. A failure of the call itself (EIO, EISDIR) is thrown as the engine's would be.
 *
 * <p>Buffers: a direct buffer is read into in place (unless its arena may be closed meanwhile, see
 * {@link BufferTransfer#inPlace}); a heap buffer (or such a direct one) through a page-aligned staging buffer from
 * {@link #STAGING}, owned by this call from acquire to release (before it returns), then copied into the
 * buffer. The buffer's position advances by the bytes read.
 */
final class CachedRead {
    /** What {@link #read} returns when the read is not served here. */
    static final long NOT_SERVED = -2;
    /** The largest read tried here: beyond it a read is no longer dominated by fixed costs. */
    static final int MAX_BYTES = 64 << 10;
    /** Page-aligned staging for heap buffers, shared with {@link CallingThreadWrite}. */
    static final StagingSlots STAGING = new StagingSlots(MAX_BYTES,
            2 * Runtime.getRuntime().availableProcessors());

    private CachedRead() {
    }

    /**
     * Reads into {@code dst} at {@code position} of {@code file} if it can be served at once: the bytes read
     * (0 at the end of the file), or {@link #NOT_SERVED}.
     */
    static long read(NativeFile file, ByteBuffer dst, long position) throws IOException {
        return read(file, dst, position, true);
    }

    /**
     * As {@link #read(NativeFile, ByteBuffer, long)}; unless {@code toEndOfFile}, only a read that fills all of
     * {@code dst} is served (what the engine serves at once for an asynchronous channel, which does not ask the
     * file's size after a short read).
     */
    static long read(NativeFile file, ByteBuffer dst, long position, boolean toEndOfFile) throws IOException {
        int length = dst.remaining();
        if (length == 0 || length > MAX_BYTES || file.isPortable()) {
            return NOT_SERVED;
        }
        NativeFile.Lease lease = leaseIfOpen(file);
        if (lease == null) {
            return NOT_SERVED;
        }
        try (lease) {
            MemorySegment view = BufferTransfer.inPlaceView(dst);
            if (view != null) {
                long got = lease.readNow(view, position, toEndOfFile);
                return got == Syscalls.WOULD_BLOCK ? NOT_SERVED : advanced(dst, got);
            }
            MemorySegment staging = STAGING.acquire();
            try {
                long got = lease.readNow(staging, length, position, toEndOfFile);
                if (got == Syscalls.WOULD_BLOCK) {
                    return NOT_SERVED;
                }
                if (dst.hasArray()) {
                    MemorySegment.copy(staging, ValueLayout.JAVA_BYTE, 0, dst.array(),
                            dst.arrayOffset() + dst.position(), (int) got);
                } else {   // a direct buffer of an arena its owner closes: copied by the arena's checked access
                    MemorySegment.copy(staging, 0, MemorySegment.ofBuffer(dst), 0, got);
                }
                return advanced(dst, got);
            } finally {
                STAGING.release(staging);
            }
        }
    }

    /**
     * A lease of {@code file} for a call made on this thread, or null when the file was closed meanwhile: the
     * engine's way then says so as it always does (shared with {@link CallingThreadWrite}).
     */
    static NativeFile.Lease leaseIfOpen(NativeFile file) {
        try {
            return file.lease();
        } catch (IOException e) {
            return null;
        }
    }

    /** Advances {@code buffer}'s position by the {@code bytes} moved (shared with {@link CallingThreadWrite}). */
    static long advanced(ByteBuffer buffer, long bytes) {
        if (bytes > 0) {
            buffer.position(buffer.position() + (int) bytes);
        }
        return bytes;
    }
}
