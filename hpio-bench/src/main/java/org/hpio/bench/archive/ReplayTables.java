package org.hpio.bench.archive;

import org.hpio.bench.report.Chart;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

import static org.hpio.bench.archive.ArchivePlan.BLOCK_SIZES_KIB;
import static org.hpio.bench.archive.ArchivePlan.QUEUE_DEPTHS;
import static org.hpio.bench.archive.ArchivePlan.archiveName;
import static org.hpio.bench.report.Numbers.twoOrOneDecimals;

/**
 * A workload's part of the archive suite's report: its replay table (MB/s, µs and system calls per load, seeks),
 * the results, and its charts (the block size and queue depth sweeps where it has them, and the rows as bars).
 */
final class ReplayTables {
    private ReplayTables() {
    }

    /** Reports {@code medians} of workload {@code w}; {@code syscalls} by row name, empty where not counted. */
    static void report(SuiteReport report, Workload w, List<Measured> medians, Map<String, SyscallCount> syscalls) {
        Table table = new Table("Trace replay, " + w.name() + " workload: effective throughput (002 §4.2), median replay",
                List.of("configuration", "mechanism", "cache", "MB/s", "wall MB/s", "µs / load", "syscalls / load",
                        "seconds", "JIT ms", "loads", "user MB", "seeks"));
        for (Measured m : medians) {
            SyscallCount calls = syscalls.get(m.config());
            table.row(m.config(), m.mechanism(), m.cold() ? "cold" : "warm", twoOrOneDecimals(m.mbPerSecond()),
                    twoOrOneDecimals(m.wallMbPerSecond()), twoOrOneDecimals(m.microsPerLoad()), calls == null ? "-" : twoOrOneDecimals(calls.perLoad()),
                    String.format(Locale.ROOT, "%.3f", m.seconds()),
                    Double.isNaN(m.jitMillis()) ? "-" : String.format(Locale.ROOT, "%.1f", m.jitMillis()),
                    String.valueOf(m.loads()),
                    twoOrOneDecimals(m.userBytes() / 1e6), m.seeks().isPresent() ? String.valueOf(m.seeks().getAsLong()) : "-");
            results(report, m, calls);
        }
        table.note("MB/s: user bytes / (opening + every load + every release), the replay's CRC checks excluded "
                + "(002 §4.2); µs / load: that time / loads. Wall MB/s: user bytes / the whole replay's wall clock, "
                + "checks included: the fair figure for the look-ahead rows, whose reads and workers may also progress "
                + "while the replay checks a file. Syscalls / load: every thread's system calls in the first loads of one "
                + "untimed warm replay under strace -f -c / those loads (the same figure in the cold row); '-' where "
                + "not counted. JIT ms: the C1 and C2 compiler threads' CPU time during that replay (every row "
                + "warmed up in each page-cache state until they were quiet; on two cores, time the replay's threads "
                + "may have lost); '-' where /proc cannot tell. "
                + "Seeks: counted by hpio's loader (a read not starting where the previous one ended; a loose file "
                + "counts one); for ZipFile, 002 §4.3's model on the archive's layout; '-' where unknown. The machine "
                + "is shared: one run is one sample.");
        report.table(table);
        if (!syscalls.isEmpty()) {
            report.table(syscallTable(w, medians, syscalls));
        }
        charts(report, w, medians);
    }

    private static void results(SuiteReport report, Measured m, SyscallCount calls) {
        report.result(m.key(), "effective-read", m.mbPerSecond(), "MB/s");
        report.result(m.key(), "wall-read", m.wallMbPerSecond(), "MB/s");
        report.result(m.key(), "time-per-load", m.microsPerLoad(), "us");
        report.result(m.key(), "loads", m.loads(), "count");
        if (!Double.isNaN(m.jitMillis())) {
            report.result(m.key(), "jit-cpu", m.jitMillis(), "ms");
        }
        m.seeks().ifPresent(s -> report.result(m.key(), "seeks", s, "count"));
        if (calls != null) {
            report.result(m.key(), "syscalls-per-load", calls.perLoad(), "count");
        }
    }

    private static Table syscallTable(Workload w, List<Measured> medians, Map<String, SyscallCount> syscalls) {
        Table t = new Table("System calls per load, " + w.name() + " workload (the first loads of one untimed warm "
                + "replay per row under strace -f -c)", List.of("configuration", "loads counted", "syscalls / load",
                "most frequent, per load"));
        for (Measured m : medians) {
            SyscallCount calls = syscalls.get(m.config());
            if (!m.cold() && calls != null) {
                t.row(m.config(), String.valueOf(calls.loads()), twoOrOneDecimals(calls.perLoad()), calls.mostFrequentPerLoad(6));
            }
        }
        t.note("Every thread of the JVM, from strace's attaching to its detaching: the opening, every load, check "
                + "and release of the loads counted (the first " + Replays.COUNTED_LOADS + " at most, "
                + Replays.QUICK_COUNTED_LOADS + " in a quick run; strace makes each call "
                + "many times slower); the JVM's own threads (compiler, GC: futex and the like) add a few.");
        return t;
    }

    private static void charts(SuiteReport report, Workload w, List<Measured> medians) {
        String stem = w.resultPrefix().isEmpty() ? "archive" : "archive-" + w.name();
        if (medians.stream().anyMatch(m -> m.config().equals(archiveName(true, 64, 4, false)))) {
            report.chart(sweep(w, medians, stem + "-block-size", "Effect of block size on throughput (002 Figure 2)",
                    "block size [KiB]", BLOCK_SIZES_KIB, k -> archiveName(true, k, 4, false)));
            report.chart(sweep(w, medians, stem + "-queue-depth", "Effect of queue depth on throughput",
                    "queue depth", QUEUE_DEPTHS, d -> archiveName(true, 32, d, false)));
        }
        Chart bars = new Chart(stem + "-approaches", "Trace replay, " + w.name() + " workload: effective throughput",
                "configuration", "MB/s", Chart.Kind.BAR);
        for (boolean cold : new boolean[]{true, false}) {
            List<Measured> ms = medians.stream().filter(m -> m.cold() == cold
                    && !ArchivePlan.isSweepPoint(m.config())).toList();
            if (!ms.isEmpty()) {
                bars.add(Chart.Series.bars(cold ? "cold" : "warm", ms.stream().map(Measured::config).toList(),
                        ms.stream().map(Measured::mbPerSecond).toList()));
            }
        }
        report.chart(bars);
    }

    private static Chart sweep(Workload w, List<Measured> medians, String stem, String title, String x, int[] values,
                               IntFunction<String> name) {
        Chart chart = new Chart(stem, title, x, "MB/s", Chart.Kind.LINE_LOG_X);
        for (boolean cold : new boolean[]{true, false}) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (int v : values) {
                Measured.find(medians, w, name.apply(v), cold).ifPresent(m -> {
                    xs.add((double) v);
                    ys.add(m.mbPerSecond());
                });
            }
            if (!xs.isEmpty()) {
                chart.add(Chart.Series.line(cold ? "cold" : "warm", xs, ys));
            }
        }
        return chart;
    }
}
