package org.hpio.bench.sort;

import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.hpio.bench.report.Numbers.format;

/**
 * The targets, from figures of the same run (as the engine suite's Targets): async faster than bulkds
 * at every size >= 16 MiB with 512 KiB chunks (warm); in the O_DIRECT run, async hiding at least 70% of what
 * can be hidden, (t_sync - t_async) >= 0.7 x min(t_io, t_sort) of the synchronous run (bulk-direct stands for
 * bulkds there); bulkraf's read + write <= 1/5 of dsb's (warm); Java bulk read + write within 1.25x of C's;
 * the whole sort within 1.5x of its lower bound. Each row says "yes" or "no" under "met" and is a result.
 */
final class SortTargets {
    static final long TARGET_CHUNK = 512 << 10;
    static final long TARGET_MIN_SIZE = 16L << 20;

    private SortTargets() {
    }

    static void write(SuiteReport report, SortSettings settings, List<SortRun> runs,
                      Optional<FullSortRun.Figures> full) {
        Table table = new Table("Targets, same run", List.of("target", "measured", "wanted", "met"));
        for (long size : settings.sizes()) {
            if (size >= TARGET_MIN_SIZE) {
                fasterThan(report, table, runs, "async", "bulkds", size);
            }
        }
        for (long size : settings.sizes()) {
            if (size >= TARGET_MIN_SIZE) {
                hidden(report, table, runs, size);
            }
        }
        long tableSize = SortReport.tableSize(settings);
        for (long chunk : settings.chunks()) {
            ioRatio(report, table, runs, "bulkraf", "dsb", tableSize, chunk, 0.2);
            ioRatio(report, table, runs, "bulkraf", "c", tableSize, chunk, 1.25);
            ioRatio(report, table, runs, "bulkds", "c", tableSize, chunk, 1.25);
        }
        full.ifPresent(f -> {
            report.result("full-vs-lower-bound", "total", f.ratio(), "ratio");
            table.row("whole sort / lower bound (" + SortSettings.label(f.bytes()) + ")", format("%.2f", f.ratio()), "<= 1.50",
                    f.ratio() <= 1.5 ? "yes" : "no");
        });
        if (!table.rows().isEmpty()) {
            report.table(table.note("Same run. 'met' compares with the issue's target on this machine kind; the machine "
                    + "is shared, so one run is one sample. Read + write: Table 2's read and write columns."));
        }
    }

    private static void fasterThan(SuiteReport report, Table table, List<SortRun> runs, String a, String b, long size) {
        OptionalDouble x = SortSuite.find(runs, a, size, TARGET_CHUNK, r -> r.times().total());
        OptionalDouble y = SortSuite.find(runs, b, size, TARGET_CHUNK, r -> r.times().total());
        if (x.isEmpty() || y.isEmpty()) {
            return;
        }
        double ratio = x.getAsDouble() / y.getAsDouble();
        String where = SortSettings.label(size) + ", 512k chunks";
        report.result(a + "-vs-" + b + "-512k-" + SortSettings.label(size), "total", ratio, "ratio");
        table.row(a + " total / " + b + " total (" + where + ")", format("%.2f", ratio), "< 1", ratio < 1 ? "yes" : "no");
    }

    /** (t_bulk-direct - t_async-direct) / min(t_io, t_sort) of bulk-direct, wanted >= 0.7. */
    private static void hidden(SuiteReport report, Table table, List<SortRun> runs, long size) {
        OptionalDouble sync = SortSuite.find(runs, "bulk-direct", size, TARGET_CHUNK, r -> r.times().total());
        OptionalDouble async = SortSuite.find(runs, "async-direct", size, TARGET_CHUNK, r -> r.times().total());
        OptionalDouble io = SortSuite.find(runs, "bulk-direct", size, TARGET_CHUNK, r -> r.times().io());
        OptionalDouble sort = SortSuite.find(runs, "bulk-direct", size, TARGET_CHUNK, r -> r.times().sort());
        if (sync.isEmpty() || async.isEmpty()) {
            return;
        }
        double hideable = Math.min(io.getAsDouble(), sort.getAsDouble());
        double share = (sync.getAsDouble() - async.getAsDouble()) / hideable;
        report.result("async-direct-hidden-512k-" + SortSettings.label(size), "share", share, "ratio");
        table.row(String.format(Locale.ROOT, "O_DIRECT, %s, 512k: (t_bulk-direct %.3f - t_async-direct %.3f) / "
                        + "min(t_io %.3f, t_sort %.3f)", SortSettings.label(size), sync.getAsDouble(), async.getAsDouble(),
                io.getAsDouble(), sort.getAsDouble()), format("%.2f", share), ">= 0.70", share >= 0.7 ? "yes" : "no");
    }

    /** Adds the row and result {@code a-vs-b} (read+write times) when both were measured: met at most {@code limit}. */
    private static void ioRatio(SuiteReport report, Table table, List<SortRun> runs, String a, String b, long size,
                                long chunk, double limit) {
        OptionalDouble x = SortSuite.find(runs, a, size, chunk, r -> r.times().io());
        OptionalDouble y = SortSuite.find(runs, b, size, chunk, r -> r.times().io());
        if (x.isEmpty() || y.isEmpty()) {
            return;
        }
        double ratio = x.getAsDouble() / y.getAsDouble();
        String where = SortSettings.label(size) + ", " + SortSettings.label(chunk) + " chunks";
        report.result(a + "-vs-" + b + "-" + SortSettings.label(chunk) + "-" + SortSettings.label(size), "read+write",
                ratio, "ratio");
        table.row(a + " read+write / " + b + " read+write (" + where + ")", format("%.2f", ratio), format("<= %.2f", limit),
                ratio <= limit ? "yes" : "no");
    }
}
