package org.hpio.bench.suite;

import org.hpio.bench.archive.ArchiveSuite;
import org.hpio.bench.async.AsyncSuite;
import org.hpio.bench.bulk.ApproachesSuite;
import org.hpio.bench.bulk.BulkSuite;
import org.hpio.bench.engine.EngineSuite;
import org.hpio.bench.nio.NioSuite;
import org.hpio.bench.patterns.PatternsSuite;
import org.hpio.bench.sort.SortSuite;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Every suite {@code hpio bench} knows, in the order a full run takes them. Later suites register here. */
public final class Suites {
    private Suites() {
    }

    public static List<Suite> all() {
        return List.of(new BulkSuite(), new ApproachesSuite(), new EngineSuite(), new AsyncSuite(),
                new ArchiveSuite(), new SortSuite(), new PatternsSuite(), new NioSuite());
    }

    /**
     * Seconds each suite took at its default sizes on the reference machine (2 cores, the repository's results/),
     * quick run then {@code --full}: what the progress's total estimate starts from.
     */
    private static final Map<String, long[]> SECONDS = Map.of(
            "bulk", new long[] {46, 90}, "approaches", new long[] {33, 360}, "engine", new long[] {41, 180},
            "async", new long[] {16, 50}, "archive", new long[] {74, 120}, "sort", new long[] {20, 180},
            "patterns", new long[] {26, 480}, "nio", new long[] {32, 150});

    /** How long {@code suite} is expected to take, quick or full, at its default sizes: a first estimate. */
    public static Duration estimate(String suite, boolean quick) {
        long[] s = SECONDS.getOrDefault(suite, new long[] {60, 180});
        return Duration.ofSeconds(quick ? s[0] : s[1]);
    }

    public static Optional<Suite> byName(String name) {
        return all().stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
