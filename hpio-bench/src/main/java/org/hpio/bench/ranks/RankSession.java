package org.hpio.bench.ranks;

import org.hpio.bulk.LaunchRank;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The start of a run: the ranks agree on a fresh session directory, with no help but the shared directory,
 * and without being fooled by the markers a crashed earlier run may have left there.
 *
 * <p>Rank 0 removes old sessions and makes {@code session-S} (S random). Every other rank r writes
 * {@code join.r} holding a random J of its own and waits for {@code welcome.r} to say "J S": only this run's
 * rank 0 can have written that, since only this run's rank r knows J. Rank 0 answers every join it sees (again
 * when a join changes: the first it saw may have been stale) until rank r confirms with
 * {@code session-S/joined.r}.
 */
final class RankSession {
    private RankSession() {
    }

    /** Joins or opens this run's session under {@code base}; returns its directory once every rank is in. */
    static Path establish(Path base, LaunchRank me, RankWait wait) throws IOException {
        return me.isFirst() ? open(base, me.size(), wait) : join(base, me.rank(), wait);
    }

    private static Path open(Path base, int size, RankWait wait) throws IOException {
        removeOldSessions(base);
        String session = MarkerFile.nonce();
        Path dir = base.resolve("session-" + session);
        FailureMarkers failures = FailureMarkers.create(failuresOf(dir));
        Map<Integer, String> answered = new HashMap<>();
        List<Integer> others = IntStream.range(1, size).boxed().toList();
        try {
            wait.await("the start (session " + session + ", ranks joining; were they all started? Under Slurm "
                    + "the ranks are srun's tasks: a batch script alone is only rank 0)", others, rank -> {
                if (Files.exists(dir.resolve("joined." + rank))) {
                    return true;
                }
                Optional<String> join = MarkerFile.read(base.resolve("join." + rank));
                if (join.isPresent() && !join.get().equals(answered.get(rank))) {
                    MarkerFile.write(base.resolve("welcome." + rank), join.get() + " " + session);
                    answered.put(rank, join.get());
                }
                return false;
            });
        } catch (IOException e) {
            failures.leave(0, e.getMessage());    // the ranks that did join stop at their first meeting
            throw e;
        }
        return dir;
    }

    private static Path join(Path base, int rank, RankWait wait) throws IOException {
        String join = MarkerFile.nonce();
        MarkerFile.write(base.resolve("join." + rank), join);
        String[] session = new String[1];
        wait.await("the start (waiting for rank 0 to welcome rank " + rank + ")", List.of(0), first -> {
            Optional<String> welcome = MarkerFile.read(base.resolve("welcome." + rank));
            if (welcome.isPresent() && welcome.get().startsWith(join + " ")) {
                session[0] = welcome.get().substring(join.length() + 1);
                return true;
            }
            return false;
        });
        Path dir = base.resolve("session-" + session[0]);
        MarkerFile.write(dir.resolve("joined." + rank), "");
        return dir;
    }

    /** The directory of a session's failure markers. */
    static Path failuresOf(Path session) {
        return session.resolve("failed");
    }

    private static void removeOldSessions(Path base) throws IOException {
        List<Path> old;
        try (Stream<Path> listed = Files.list(base)) {
            old = listed.filter(p -> p.getFileName().toString().startsWith("session-")).toList();
        }
        for (Path dir : old) {
            MarkerFile.deleteTree(dir);
        }
    }
}
