package org.hpio.archive;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * One read of an {@link ArchiveLoader}: the bytes of one or more neighbouring entries (their local headers and
 * data, adjacent in the archive) read into one buffer, in pieces of at most the look-ahead's read size, plus
 * room for the uncompressed contents of its Deflate entries.
 *
 * <p>Ownership: the run's memory comes from the {@link MemoryPool} (through {@link BlockIo#take}) and goes
 * back to it when the run's last entry is released ({@link #release()}; a shared arena per run cost a JVM-wide
 * handshake, about 50 us here, at its close): by the caller closing the {@link LoadedFile} it got, or by the loader for an entry it
 * never delivered. Until then the memory stays whole, so one loaded file keeps its run's memory (at most the
 * read size plus the run's Deflate outputs). Pieces are started by the loader ({@link #start}); the memory is
 * read only after {@link #await()}, and the memory never goes back while a piece is in flight (every entry's release
 * comes after the run was awaited, or, at the loader's close, after its pieces were).
 */
final class ReadRun {
    /** One read request of the run: bytes {@code [offset, offset + length)} of the run's memory. */
    static final class Piece {
        final ReadRun run;
        final long offset;
        final long length;
        AsyncFileRequest request;
        IOException startFailure;

        Piece(ReadRun run, long offset, long length) {
            this.run = run;
            this.offset = offset;
            this.length = length;
        }
    }

    /** Runs whose memory is not freed yet, process-wide (what leak checks compare before and after). */
    static final java.util.concurrent.atomic.AtomicInteger LIVE = new java.util.concurrent.atomic.AtomicInteger();

    final long from;
    final long to;
    final MemorySegment memory;
    /** The memory {@link BlockIo#take} gave, of which {@link #memory} is the used part. */
    private final MemorySegment taken;
    private final List<Piece> pieces = new ArrayList<>();
    private final String archive;
    private int refs;
    /** Delivered holders the loader keeps this run for, for reuse (guarded by the loader's lock). */
    int loaderHolds;
    /** Those of them that no admitted position reuses yet: droppable (guarded by the loader's lock). */
    int idleHolds;
    private boolean awaited;
    private IOException failure;

    /**
     * A run over file bytes {@code [from, to)} (aligned as the file's reads must be) with {@code extra} bytes
     * after them for decoded contents, cut into pieces of {@code pieceBytes}; {@code entries} entries share it.
     */
    ReadRun(long from, long to, long extra, int pieceBytes, int entries, BlockIo io, String archive) {
        this.from = from;
        this.to = to;
        this.archive = archive;
        this.refs = entries;
        this.taken = io.take(to - from + extra);
        this.memory = taken.asSlice(0, to - from + extra);
        LIVE.incrementAndGet();
        for (long at = 0; at < to - from; at += pieceBytes) {
            pieces.add(new Piece(this, at, Math.min(pieceBytes, to - from - at)));
        }
    }

    List<Piece> pieces() {
        return pieces;
    }

    /**
     * Starts {@code piece}'s read; its memory is the kernel's until the request is done. A read that cannot be
     * started is recorded, and {@link #await()} reports it.
     */
    static void start(Piece piece, BlockIo io) {
        try {
            piece.request = io.read(piece.run.from + piece.offset,
                    piece.run.memory.asSlice(piece.offset, piece.length));
        } catch (IOException | RuntimeException e) {
            piece.startFailure = e instanceof IOException io1 ? io1 : new IOException(e.toString(), e);
        }
    }

    /** Whether the piece was started (or failed to start). */
    static boolean isStarted(Piece piece) {
        return piece.request != null || piece.startFailure != null;
    }

    /** Whether the piece is no longer in flight. */
    static boolean isFinished(Piece piece) {
        return piece.request == null || piece.request.state() != AsyncFileRequest.State.IN_FLIGHT;
    }

    /**
     * Waits until every piece has been read (the caller made sure all were started); throws, naming the range,
     * if one failed. Safe to call from several threads and more than once.
     */
    void await() throws IOException {
        synchronized (this) {
            if (awaited) {
                if (failure != null) {
                    throw failure;
                }
                return;
            }
        }
        IOException first = null;
        for (Piece p : pieces) {
            try {
                if (p.startFailure != null) {
                    throw p.startFailure;
                }
                p.request.done(AsyncFile.TIME_INF);
            } catch (IOException e) {
                if (e instanceof java.io.InterruptedIOException) {
                    throw e;
                }
                if (first == null) {
                    first = new IOException("reading " + p.length + " bytes at offset " + (from + p.offset) + " of "
                            + archive + " failed: " + e.getMessage(), e);
                }
            }
        }
        synchronized (this) {
            awaited = true;
            failure = first;
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * Waits until {@code piece} is no longer in flight, ignoring its errors (for closing; an interrupt does not
     * stop the wait, since the memory is the kernel's until then, and is kept for the caller).
     */
    static void drain(Piece piece) {
        boolean interrupted = false;
        while (piece.request != null && piece.request.state() == AsyncFileRequest.State.IN_FLIGHT) {
            try {
                piece.request.done(AsyncFile.TIME_INF);
            } catch (java.io.InterruptedIOException e) {
                interrupted = Thread.interrupted() || true;
            } catch (IOException e) {
                // a failed read is as finished as a good one here
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The file bytes {@code [at, at + length)} of this run's memory. */
    MemorySegment fileBytes(long at, long length) {
        return memory.asSlice(at - from, length);
    }

    /** One more reference to the run's memory (to be given back with {@link #release()}); the run must be live. */
    void retain() {
        synchronized (this) {
            if (refs <= 0) {
                throw new IllegalStateException("read run [" + from + ", " + to + ") of " + archive
                        + " was already freed");
            }
            refs++;
        }
    }

    /** One entry of the run is done with; the last one gives the memory back. Thread-safe. */
    void release() {
        boolean last;
        synchronized (this) {
            last = --refs == 0;
        }
        if (last) {
            // A run released after a failed or interrupted wait may still have reads in flight into its memory,
            // which goes back to the pool now: wait for them first, whatever interrupts.
            for (Piece p : pieces) {
                drain(p);
            }
            BlockIo.give(taken);
            LIVE.decrementAndGet();
        }
    }
}
