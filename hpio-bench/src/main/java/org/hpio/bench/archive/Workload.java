package org.hpio.bench.archive;

import org.hpio.bench.suite.BenchOptions;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One of the archive suite's workloads: where its trace and files come from, the rows it is replayed with, and
 * the prefix of its result names (none for the python trace, whose names earlier reports use).
 *
 * @param name         what the report calls it, and a {@code --configs} name choosing all its rows
 * @param resultPrefix put before its rows' names in results and {@code --configs}
 * @param source       makes its trace and files (only when one of its rows is chosen)
 * @param configs      its rows
 */
record Workload(String name, String resultPrefix, Supplier<TraceSource> source,
                Function<TraceData, List<ArchiveConfig>> configs) {
    /** The python startup trace, or the trace {@code --trace} names, with every row (the sweeps among them). */
    static Workload recorded(BenchOptions options) {
        return new Workload(options.trace().isPresent() ? "trace" : "python", "",
                () -> new RecordedTrace(options.trace().orElse(null), options.traceRoot().orElse(null)),
                ArchivePlan::recordedTraceConfigs);
    }

    /** The game's small files ({@link GameAssets}), with the rows every workload gets. */
    static Workload game() {
        return new Workload("game", "game-", GameAssets::generate, ArchivePlan::coreConfigs);
    }

    static List<Workload> all(BenchOptions options) {
        return List.of(recorded(options), game());
    }

    /**
     * Whether {@code --configs} chose row {@code config} of this workload: by the row's name (in every workload),
     * its name with this workload's prefix ({@code game-loose-readallbytes}), or this workload's name.
     */
    boolean selects(BenchOptions options, String config) {
        return options.includes(config) || options.configs().contains(resultPrefix + config)
                || options.configs().contains(name);
    }

    /** {@code name} as this workload's results call it. */
    String key(String name) {
        return resultPrefix + name;
    }
}
