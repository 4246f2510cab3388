package org.hpio.archive;

import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link ArchiveLoader}'s reads, in the order the list needs them: the pieces of queued {@link ReadRun}s
 * start in queue order (a run the caller waits for can jump the queue), at most {@link #MAX_PIECES_IN_FLIGHT}
 * at once. Guarded by the loader's lock, which {@link #ensureStarted} takes itself and every other method
 * expects held.
 */
final class ReadQueue {
    /** Reads the loader keeps in flight at most (its file handle allows twice as many). */
    static final int MAX_PIECES_IN_FLIGHT = 32;

    private final BlockIo io;
    private final ReentrantLock lock;
    private final ArrayDeque<ReadRun.Piece> unstarted = new ArrayDeque<>();
    private final ArrayDeque<ReadRun.Piece> started = new ArrayDeque<>();

    /** The queue of reads through {@code io} (the loader's handle, which the loader closes), under {@code lock}. */
    ReadQueue(BlockIo io, ReentrantLock lock) {
        this.io = io;
        this.lock = lock;
    }

    /** Queues {@code run}'s pieces after every queued read. */
    void add(ReadRun run) {
        unstarted.addAll(run.pieces());
    }

    /** Queues {@code run}'s pieces ahead of every queued read (a file the caller waits for). */
    void addFirst(ReadRun run) {
        for (int i = run.pieces().size() - 1; i >= 0; i--) {
            unstarted.addFirst(run.pieces().get(i));
        }
    }

    /** Retires finished reads and starts queued ones, in order, up to the bound. */
    void start() {
        while (!started.isEmpty() && started.peekFirst().isFinished()) {
            started.pollFirst();
        }
        while (!unstarted.isEmpty() && started.size() < MAX_PIECES_IN_FLIGHT) {
            ReadRun.Piece p = unstarted.pollFirst();
            if (p.start(io)) {   // else its run was released (a load gave up): dropped, never read
                started.addLast(p);
            }
        }
    }

    /**
     * Waits until every piece of {@code run} has been started, helping older reads along: while the bound keeps
     * one queued, waits (with the lock released) for the oldest read in flight. Takes the lock itself.
     */
    void ensureStarted(ReadRun run) throws InterruptedIOException {
        while (true) {
            ReadRun.Piece oldest;
            lock.lock();
            try {
                start();
                if (run.allStarted()) {
                    return;
                }
                oldest = started.peekFirst();
            } finally {
                lock.unlock();
            }
            oldest.awaitIgnoringFailure();
        }
    }

    /** Waits until no started read is in flight (the loader closes) and forgets every read. */
    void settleAndClear() {
        for (ReadRun.Piece p : started) {
            p.awaitSettled();
        }
        unstarted.clear();
        started.clear();
    }
}
