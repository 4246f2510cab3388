package org.hpio.bench.archive;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One replay's figures.
 *
 * @param workload    the workload replayed
 * @param config      the row (a {@link ArchiveConfig}'s name)
 * @param mechanism   what the row is, for the report
 * @param cold        whether the replay started cold
 * @param seconds     opening, every load and every release (the checks excluded)
 * @param userBytes   bytes of files delivered
 * @param loads       loads replayed
 * @param seeks       seeks, where known
 * @param wallSeconds the whole replay's wall clock, checks included
 * @param jitMillis   the JIT compiler threads' CPU time during the replay, ms (NaN where /proc cannot tell): on two
 *                    cores, time the replay's own threads may have lost
 */
record Measured(Workload workload, String config, String mechanism, boolean cold, double seconds, long userBytes,
                int loads, OptionalLong seeks, double wallSeconds, double jitMillis) {
    /** The row's result name: the workload's prefix, the configuration, -cold or -warm. */
    String key() {
        return workload.key(config) + (cold ? "-cold" : "-warm");
    }

    Measured withSeeks(OptionalLong counted) {
        return new Measured(workload, config, mechanism, cold, seconds, userBytes, loads, counted, wallSeconds,
                jitMillis);
    }

    double mbPerSecond() {
        return userBytes / 1e6 / seconds;
    }

    double wallMbPerSecond() {
        return userBytes / 1e6 / wallSeconds;
    }

    /** Timed microseconds per load: the per-file cost small files show. */
    double microsPerLoad() {
        return seconds * 1e6 / loads;
    }

    static Optional<Measured> find(List<Measured> ms, Workload workload, String config, boolean cold) {
        return ms.stream().filter(m -> m.workload().name().equals(workload.name()) && m.config().equals(config) && m.cold() == cold)
                .findFirst();
    }
}
