package org.hpio.bench.ranks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Waiting at a meeting point: polls the shared directory until every awaited rank has arrived. Polls start
 * at 20 us apart and back off to 2 ms, so ranks leave a meeting within about a millisecond of the last
 * arrival. Every 100 ms it also looks for trouble, and fails with the rank named: a rank that wrote a
 * failure marker, a rank whose heartbeat stopped, or ranks still missing at the timeout.
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

    private final Optional<Path> failures;
    private final Duration timeout;
    private final Liveness liveness;

    /** {@code failures}: the session's directory of failure markers, empty before there is a session. */
    RankWait(Optional<Path> failures, Duration timeout, Liveness liveness) {
        this.failures = failures;
        this.timeout = timeout;
        this.liveness = liveness;
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
                throwIfAnyFailed(where);
                liveness.check(missing, now, where);
                if (now - start > timeout.toNanos()) {
                    throw new RankFailedException(missing.first(), (missing.size() == 1 ? "rank " : "ranks ")
                            + join(missing) + " did not reach " + where + " within " + timeout.toSeconds() + " s"
                            + " (-D" + RankTimeouts.MEETING_PROPERTY + " sets the limit)");
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

    private void throwIfAnyFailed(String where) throws IOException {
        if (failures.isEmpty()) {
            return;
        }
        List<Path> markers;
        try (Stream<Path> listed = Files.list(failures.get())) {
            markers = listed.filter(p -> p.getFileName().toString().startsWith("rank-")).sorted().toList();
        }
        if (!markers.isEmpty()) {
            Path first = markers.getFirst();
            int rank = Integer.parseInt(first.getFileName().toString().substring("rank-".length()));
            String why = MarkerFile.read(first).orElse("(no reason given)");
            throw new RankFailedException(rank, "rank " + rank + " failed, so " + where + " cannot take place: " + why);
        }
    }

    private static String join(Collection<Integer> ranks) {
        return String.join(", ", ranks.stream().map(String::valueOf).toList());
    }
}
