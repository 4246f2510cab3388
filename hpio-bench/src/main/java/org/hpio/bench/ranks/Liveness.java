package org.hpio.bench.ranks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * What one rank has seen of the others' heartbeats in the session directory, over the whole run. A heartbeat
 * that stands still for longer than the silence limit, on this rank's own clock (the machines' clocks need not
 * agree), means its rank is dead. A heartbeat not written yet proves nothing: only the meeting's timeout
 * applies then. (The session directory is fresh, so no heartbeat there is left over from an earlier run.)
 */
final class Liveness implements RankWait.Trouble {
    private record Seen(String beat, long sinceNanos) {
    }

    private final Path session;
    private final Duration silence;
    private final Map<Integer, Seen> seen = new HashMap<>();

    Liveness(Path session, Duration silence) {
        this.session = session;
        this.silence = silence;
    }

    /** Reads the heartbeats of the {@code missing} ranks; throws naming the first one that has stopped. */
    @Override
    public void check(Collection<Integer> missing, long nowNanos, String where) throws IOException {
        for (int rank : missing) {
            Path file = Heartbeat.file(session, rank);
            String beat = MarkerFile.read(file).orElse(null);
            Seen before = seen.get(rank);
            if (beat == null) {
                continue;
            }
            if (before == null || !before.beat().equals(beat)) {
                seen.put(rank, new Seen(beat, nowNanos));
            } else if (nowNanos - before.sinceNanos() > silence.toNanos()) {
                throw new RankFailedException(rank, "rank " + rank + " stopped: its heartbeat (" + file
                        + ") has not changed for " + Duration.ofNanos(nowNanos - before.sinceNanos()).toMillis()
                        + " ms, while waiting at " + where + " (-D" + RankTimeouts.SILENCE_PROPERTY
                        + " sets the limit)");
            }
        }
    }
}
