package org.hpio.archive;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One read of an {@link ArchiveLoader}: the bytes of one or more neighbouring entries (their local headers and
 * data, adjacent in the archive) read into one buffer, in pieces of at most the look-ahead's read size, plus
 * room for the uncompressed contents of its Deflate entries.
 *
 * <p>Ownership: the run's memory comes from the load memory pool (through {@link BlockIo#take}) and goes
 * back to it when the run's last entry is released ({@link #release()}; a shared arena per run cost a JVM-wide
 * handshake, about 50 us here, at its close): by the caller closing the {@link LoadedFile} it got, or by the loader for an entry it
 * never delivered. Until then the memory stays whole, so one loaded file keeps its run's memory (at most the
 * read size plus the run's Deflate outputs). Pieces are started by the loader ({@link Piece#start}); the memory is
 * read only after {@link #await()}, and the memory never goes back while a piece is in flight (every entry's release
 * comes after the run was awaited, or, at the loader's close, after its pieces were).
 */
final class ReadRun {
    /** One read request of the run: bytes {@code [offset, offset + length)} of the run's memory. */
    static final class Piece {
        final ReadRun run;
        final long offset;
        final long length;
        private AsyncFileRequest request;
        private IOException startFailure;

        Piece(ReadRun run, long offset, long length) {
            this.run = run;
            this.offset = offset;
            this.length = length;
        }

        /**
         * Starts the read; its memory is the kernel's until the request is done. A read that cannot be started
         * is recorded, and {@link ReadRun#await()} reports it. False, starting nothing, once the run was released
         * (its memory went back to the pool: a read queued behind others when a load gave up, interrupted, must
         * never land in it); under the run's monitor, so that {@link ReadRun#release} sees every read started.
         */
        boolean start(BlockIo io) {
            synchronized (run) {
                if (run.released) {
                    return false;
                }
                try {
                    request = io.read(run.from + offset, run.memory.asSlice(offset, length));
                } catch (IOException | RuntimeException e) {
                    startFailure = e instanceof IOException failed ? failed : new IOException(e.toString(), e);
                }
                return true;
            }
        }

        /** Whether the read was started (or failed to start). */
        boolean isStarted() {
            return request != null || startFailure != null;
        }

        /** Whether the read is no longer in flight. */
        boolean isFinished() {
            return request == null || request.state() != AsyncFileRequest.State.IN_FLIGHT;
        }

        /** Whether the read is done and succeeded. */
        boolean isFinishedOk() {
            return request != null && request.state() == AsyncFileRequest.State.COMPLETED;
        }

        /** Waits until the started read is done, ignoring its failure (the run reports that in its await). */
        void awaitIgnoringFailure() throws InterruptedIOException {
            if (request == null) {
                return;   // it failed to start (its run reports that): nothing to wait for
            }
            try {
                request.done(AsyncFile.TIME_INF);
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException e) {
                // the run that owns it reports it
            }
        }

        /**
         * Waits until the read is no longer in flight, whatever interrupts (the memory is the kernel's until
         * then), ignoring its errors: before the run's memory goes back.
         */
        void awaitSettled() {
            if (request != null) {
                request.awaitUninterruptibly();
            }
        }

        /** Waits until the read is done; throws its failure (or the failure to start it). */
        private void awaitDone() throws IOException {
            if (startFailure != null) {
                throw startFailure;
            }
            request.done(AsyncFile.TIME_INF);
        }
    }

    /** Runs whose memory is not freed yet, process-wide (what leak checks compare before and after). */
    static final AtomicInteger LIVE = new AtomicInteger();

    final long from;
    final long to;
    final MemorySegment memory;
    /** The memory {@link BlockIo#take} gave, of which {@link #memory} is the used part. */
    private final MemorySegment taken;
    private final List<Piece> pieces = new ArrayList<>();
    private final String archive;
    private int refs;
    /** Set when the last reference went (under this run's monitor): no piece starts after (see Piece#start). */
    private boolean released;
    /** Delivered holders the loader keeps this run for, for reuse ({@link ReuseBook}'s count, under its lock). */
    int loaderHolds;
    /** Those of them that no admitted position reuses yet: droppable ({@link ReuseBook}'s count, under its lock). */
    int idleHolds;
    private boolean awaited;
    private IOException failure;
    /** How many of the first pieces {@link #awaitReadThrough} saw read (a hint; it only grows). */
    private volatile int donePieces;

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

    /** Whether every piece was started (or failed to start). */
    boolean allStarted() {
        return pieces.stream().allMatch(Piece::isStarted);
    }

    /** Whether every read of the run was started and is no longer in flight: decoding it will not wait. */
    boolean isRead() {
        for (Piece p : pieces) {
            if (!p.isStarted() || !p.isFinished()) {
                return false;
            }
        }
        return true;
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
                p.awaitDone();
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException e) {
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
     * Waits until the run's bytes are read from its start through file offset {@code through} (or to its end),
     * piece by piece in order; returns the file offset up to which they are read, at least {@code through}
     * unless that lies beyond the run. Throws a piece's failure, naming its range. Every piece must be started.
     */
    long awaitReadThrough(long through) throws IOException {
        int i = donePieces;   // the pieces before it are read: a decoder asks once per piece, so no rescans
        long readTo = i == 0 ? from : from + pieces.get(i - 1).offset + pieces.get(i - 1).length;
        for (; i < pieces.size(); i++) {
            Piece p = pieces.get(i);
            if (readTo >= through && !p.isFinishedOk()) {
                return readTo;
            }
            try {
                p.awaitDone();
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException e) {
                throw new IOException("reading " + p.length + " bytes at offset " + (from + p.offset) + " of "
                        + archive + " failed: " + e.getMessage(), e);
            }
            readTo = from + p.offset + p.length;
            if (donePieces < i + 1) {
                donePieces = i + 1;   // only a hint: a stale smaller value costs a rescan, nothing else
            }
        }
        return readTo;
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
            released = last;
        }
        if (last) {
            // A run released after a failed or interrupted wait may still have reads in flight into its memory,
            // which goes back to the pool now: wait for them first, whatever interrupts.
            for (Piece p : pieces) {
                p.awaitSettled();
            }
            BlockIo.give(taken);
            LIVE.decrementAndGet();
        }
    }
}
