package org.hpio.bench.ranks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;

/**
 * The session's {@code failed/} directory: a rank that fails leaves {@code rank-R} there with the reason, and
 * every rank waiting at a meeting finds it and stops, naming that rank.
 */
final class FailureMarkers implements RankWait.Trouble {
    private static final String PREFIX = "rank-";

    private final Path dir;

    FailureMarkers(Path dir) {
        this.dir = dir;
    }

    /** Makes the (empty) directory: rank 0, when it opens the session. */
    static FailureMarkers create(Path dir) throws IOException {
        return new FailureMarkers(Files.createDirectories(dir));
    }

    void leave(int rank, String why) throws IOException {
        MarkerFile.write(dir.resolve(PREFIX + rank), why);
    }

    @Override
    public void check(Collection<Integer> missing, long nowNanos, String where) throws IOException {
        List<Path> markers;
        try (Stream<Path> listed = Files.list(dir)) {
            markers = listed.filter(p -> p.getFileName().toString().startsWith(PREFIX)).sorted().toList();
        }
        if (!markers.isEmpty()) {
            Path first = markers.getFirst();
            int rank = Integer.parseInt(first.getFileName().toString().substring(PREFIX.length()));
            String why = MarkerFile.read(first).orElse("(no reason given)");
            throw new RankFailedException(rank, "rank " + rank + " failed, so " + where + " cannot take place: " + why);
        }
    }
}
