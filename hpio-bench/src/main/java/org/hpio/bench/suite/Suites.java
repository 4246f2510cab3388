package org.hpio.bench.suite;

import org.hpio.bench.archive.ArchiveSuite;
import org.hpio.bench.async.AsyncSuite;
import org.hpio.bench.engine.EngineSuite;
import org.hpio.bench.patterns.PatternsSuite;
import org.hpio.bench.sort.SortSuite;

import java.util.List;
import java.util.Optional;

/** Every suite {@code hpio bench} knows, in the order a full run takes them. Later suites register here. */
public final class Suites {
    private Suites() {
    }

    public static List<Suite> all() {
        return List.of(new BulkSuite(), new ApproachesSuite(), new EngineSuite(), new AsyncSuite(),
                new ArchiveSuite(), new SortSuite(), new PatternsSuite());
    }

    public static Optional<Suite> byName(String name) {
        return all().stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
