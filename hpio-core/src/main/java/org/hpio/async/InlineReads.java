package org.hpio.async;

import org.hpio.internal.sys.NativeFile;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which reads of one file are tried at once on the initiating thread ({@code IoEngine.readNowOrSubmit}: one
 * preadv2 with RWF_NOWAIT, through the engine's fault hook, bounds and file lease) before being handed to the
 * engine: small reads of a regular file opened without O_DIRECT, while no other request of the file is in
 * flight. When all the data is in the page cache the read is a copy and the request is returned done; when
 * not, preadv2 says so without waiting for the device and the read goes to the engine as before, so a read
 * of cold data still overlaps the caller's work.
 *
 * <p>Design note. io_uring copies cached data inside io_uring_enter already, but the engine's bookkeeping
 * around it (the submission lock, the ring entry, reaping, the completion dispatch) cost more than the copy:
 * measured on the io_uring engine, 4 KiB reads from a warm file, 3.5 to 6.5 us per read submitted and
 * awaited against 1.6 to 2.6 us done at once (AMD EPYC, 2 vCPUs, a busy shared machine); through AsyncFile
 * ({@code hpio bench async}, same run) 3.06 us against 4.92 us with every read to the engine
 * ({@code hpio-queued-read-4k}) and 17.0 us for AsynchronousFileChannel; other runs on the busy machine
 * ranged from a tie to twice as fast. On the portable engine it pays most: 11 to 46 us through a pool
 * thread against 4 to 5 us at once. The price: a read of data not in the page cache makes one preadv2 that
 * returns EAGAIN (about a microsecond) before it goes to the engine, small beside the device's time; a read
 * of which only part is cached is read again whole by the engine. A read done at once is the same request: its data
 * lands in the caller's array when it is seen done (here: before initiation returns), a failure is its
 * exception, and a fault injected into it surfaces once.
 *
 * <p>Buffers: a read into a heap array is staged as always; the staging buffer is the request's during the
 * preadv2 and, when the read was done at once, back in its pool when initiation returns. Ordering: a read
 * initiated while an earlier request of the file is in flight goes to the engine, so it never overtakes an
 * earlier write. {@code -Dhpio.async.inlineReadBytes=N} sets the largest such read (default
 * {@value #DEFAULT_MAX_BYTES} bytes; 0 turns it off), read when a file is opened.
 */
final class InlineReads {
    static final String PROPERTY = "hpio.async.inlineReadBytes";
    /** No read tried at once. */
    static final InlineReads NEVER = new InlineReads(0);
    static final long DEFAULT_MAX_BYTES = 16 << 10;

    /** The largest read tried at once; 0 for a file whose reads never are. */
    private final long maxBytes;

    InlineReads(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The policy for {@code file}, opened at {@code path}: reads tried at once only for a buffered regular file. */
    static InlineReads forFile(NativeFile file, Path path) {
        long max = Math.max(0, Long.getLong(PROPERTY, DEFAULT_MAX_BYTES));
        return new InlineReads(!file.isDirect() && Files.isRegularFile(path) ? max : 0);
    }

    /**
     * Whether a read of {@code bytes} is tried at once; {@code othersInFlight}: whether any request of the file
     * is in flight now (the read then goes to the engine, behind it).
     */
    boolean admits(long bytes, boolean othersInFlight) {
        return bytes > 0 && bytes <= maxBytes && !othersInFlight;
    }

    long maxBytes() {
        return maxBytes;
    }
}
