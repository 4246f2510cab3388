package org.hpio.bench.ranks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * What one rank has seen of the others' heartbeats, over the whole run. A heartbeat seen to change is alive;
 * once it has been seen alive, standing still for longer than the silence limit (on this rank's clock) means
 * its rank is dead. A heartbeat never seen to change (not written yet, or a stale file of an earlier run)
 * proves nothing either way: only the meeting's timeout applies then.
 */
final class Liveness {
    private record Seen(String beat, long sinceNanos, boolean changing) {
    }

    private final Path base;
    private final Duration silence;
    private final Map<Integer, Seen> seen = new HashMap<>();

    Liveness(Path base, Duration silence) {
        this.base = base;
        this.silence = silence;
    }

    /** Reads the heartbeats of {@code ranks}; throws naming the first one that has stopped. */
    void check(Collection<Integer> ranks, long nowNanos, String where) throws IOException {
        for (int rank : ranks) {
            String beat = MarkerFile.read(Heartbeat.file(base, rank)).orElse("");
            Seen before = seen.get(rank);
            if (before == null || !before.beat().equals(beat)) {
                seen.put(rank, new Seen(beat, nowNanos, before != null));
            } else if (before.changing() && nowNanos - before.sinceNanos() > silence.toNanos()) {
                throw new RankFailedException(rank, "rank " + rank + " stopped: its heartbeat ("
                        + Heartbeat.file(base, rank) + ") has not changed for "
                        + Duration.ofNanos(nowNanos - before.sinceNanos()).toSeconds() + " s, while waiting at "
                        + where);
            }
        }
    }
}
