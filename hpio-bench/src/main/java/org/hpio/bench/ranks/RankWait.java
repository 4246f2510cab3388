package org.hpio.bench.ranks;

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;

/**
 * Waiting at a meeting point: polls the shared directory until every awaited rank has arrived. Polls start
 * at 20 us apart and back off to 2 ms, so ranks leave a meeting within about a millisecond of the last
 * arrival. Every 100 ms it also looks for trouble (another rank's failure marker, a stopped heartbeat), and at
 * the timeout it fails naming the ranks still missing.
 */
final class RankWait {
    private static final long FIRST_PAUSE_NANOS = 20_000;
    private static final long LONGEST_PAUSE_NANOS = 2_000_000;
    private static final long CHECK_EVERY_NANOS = 100_000_000;

    /** Whether {@code rank} has arrived (its marker is there, with the right content). */
    @FunctionalInterface
    interface Arrival {
        boolean arrived(int rank) throws IOException;
    }

    /** A look for trouble while {@code missing} are awaited at {@code where}: throws naming the rank at fault. */
    @FunctionalInterface
    interface Trouble {
        Trouble NONE = (missing, nowNanos, where) -> { };

        void check(Collection<Integer> missing, long nowNanos, String where) throws IOException;
    }

    private final Duration timeout;
    private final Trouble trouble;

    RankWait(Duration timeout, Trouble trouble) {
        this.timeout = timeout;
        this.trouble = trouble;
    }

    /** Returns once {@code arrival} holds for every rank in {@code ranks}; {@code where} names the meeting. */
    void await(String where, Collection<Integer> ranks, Arrival arrival) throws IOException {
        long start = System.nanoTime();
        long nextCheck = start;
        long pause = FIRST_PAUSE_NANOS;
        TreeSet<Integer> missing = new TreeSet<>(ranks);
        while (true) {
            for (var it = missing.iterator(); it.hasNext(); ) {
                if (arrival.arrived(it.next())) {
                    it.remove();
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            long now = System.nanoTime();
            if (now >= nextCheck) {
                trouble.check(missing, now, where);
                if (now - start > timeout.toNanos()) {
                    throw new RankFailedException(missing.first(), (missing.size() == 1 ? "rank " : "ranks ")
                            + String.join(", ", missing.stream().map(String::valueOf).toList()) + " did not reach "
                            + where + " within " + timeout.toSeconds() + " s (-D" + RankTimeouts.MEETING_PROPERTY
                            + " sets the limit)");
                }
                nextCheck = now + CHECK_EVERY_NANOS;
            }
            LockSupport.parkNanos(pause);
            if (Thread.interrupted()) {
                throw new IOException("interrupted while waiting at " + where);
            }
            pause = Math.min(2 * pause, LONGEST_PAUSE_NANOS);
        }
    }
}
