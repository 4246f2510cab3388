package org.hpio.nio;

import org.hpio.internal.sys.NativeFile;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * A platform thread's small buffered write done on the calling thread, one positional write with no engine
 * request: what {@link HpioFileChannel} does for a write of up to {@value #MAX_BYTES} bytes from one buffer on a
 * channel opened without O_DIRECT, DSYNC or SYNC (APPEND writes are the JDK channel's). The engine did the same
 * pwrite on the same thread ({@code IoEngine.perform}: such a thread waits for its write anyway), after an
 * admission and a request; here the write needs no engine at all, so a program whose first channel writes a
 * file does not wait for io_uring's set-up (see DESIGN "First calls"), and a small write skips the request's
 * fixed costs, as {@link CachedRead} does for reads.
 *
 * <p>A virtual thread's write is not served here: a buffered write may wait in the kernel (dirty-page
 * throttling), which would pin its carrier; it goes to the engine and parks. Nothing is served here either
 * when the file is closed meanwhile: the engine's way then reports that as it always does.
 *
 * <p>Buffers: a direct buffer is written from in place; a heap buffer (read-only ones too) through a
 * page-aligned staging buffer from {@link CachedRead#STAGING}, owned by this call from acquire to release
 * (before it returns). The buffer's position advances by the bytes written; a failure of the call is thrown
 * as the engine's would be, and the position is then unchanged.
 */
final class CallingThreadWrite {
    /** What {@link #write} returns when the write is not served here. */
    static final long NOT_SERVED = -2;
    /** The largest write done here: the staging buffers' size. */
    static final int MAX_BYTES = CachedRead.MAX_BYTES;

    private CallingThreadWrite() {
    }

    /**
     * Writes {@code src}'s remaining bytes at {@code position} of {@code file} on this thread if this is a
     * platform thread and they are at most {@link #MAX_BYTES}: the bytes written (one pwrite: a short count is
     * reported as such), or {@link #NOT_SERVED}.
     */
    static long write(NativeFile file, ByteBuffer src, long position) throws IOException {
        int length = src.remaining();
        if (length == 0 || length > MAX_BYTES || Thread.currentThread().isVirtual()) {
            return NOT_SERVED;
        }
        NativeFile.Lease lease = CachedRead.leaseIfOpen(file);
        if (lease == null) {
            return NOT_SERVED;
        }
        try (lease) {
            MemorySegment source = MemorySegment.ofBuffer(src);
            if (BufferTransfer.inPlace(src) || file.isPortable()) {
                return CachedRead.advanced(src, lease.write(source, position));
            }
            MemorySegment staging = CachedRead.STAGING.acquire();
            try {
                MemorySegment.copy(source, ValueLayout.JAVA_BYTE, 0, staging, ValueLayout.JAVA_BYTE, 0, length);
                return CachedRead.advanced(src, lease.write(staging.asSlice(0, length), position));
            } finally {
                CachedRead.STAGING.release(staging);
            }
        }
    }
}
