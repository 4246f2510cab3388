package org.hpio.bench.sort;

import org.hpio.bench.report.Chart;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;
import org.hpio.bench.suite.BenchOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static org.hpio.bench.report.Numbers.format;

/** Turns the sort suite's checked runs into results, Table 2 breakdowns, Figure 6/7 throughput tables and charts. */
final class SortReport {
    /** The size of 000 Table 2. */
    static final long TABLE_SIZE = 64L << 20;

    private SortReport() {
    }

    static void write(SuiteReport report, SortSettings settings, List<SortConfig> configs, List<SortRun> runs) {
        for (SortRun r : runs) {
            if (r.ran()) {
                results(report, r);
            }
        }
        long tableSize = tableSize(settings);
        for (long chunk : settings.chunks()) {
            report.table(breakdown(configs, runs, tableSize, chunk));
        }
        for (long chunk : settings.chunks()) {
            report.table(throughputTable(settings, configs, runs, chunk));
            report.chart(chart(settings, configs, runs, chunk));
        }
    }

    /** 64 MiB when measured (Table 2's size), else the largest size measured below it, else the smallest. */
    static long tableSize(SortSettings settings) {
        return settings.sizes().stream().filter(s -> s <= TABLE_SIZE).reduce((a, b) -> b)
                .orElse(settings.sizes().getFirst());
    }

    private static void results(SuiteReport report, SortRun r) {
        String name = r.key();
        SortTimes.Breakdown t = r.times();
        report.result(name, "total", t.total(), "s").result(name, "read", t.read(), "s")
                .result(name, "write", t.write(), "s").result(name, "sort", t.sort(), "s")
                .result(name, "block", t.block(), "s").result(name, "throughput", r.throughput(), "MB/s");
    }

    private static Table breakdown(List<SortConfig> configs, List<SortRun> runs, long size, long chunk) {
        long chunks = (size + chunk - 1) / chunk;
        Table table = new Table(String.format(Locale.ROOT, "Table 2 as measured here: %s file, %s chunks (%d chunks), "
                        + "seconds", BenchOptions.formatSize(size), BenchOptions.formatSize(chunk), chunks),
                List.of("name", "total time", "read time", "write time", "sort time", "block time", "MB/s", "what it is"));
        for (SortConfig c : configs) {
            Optional<SortRun> run = find(runs, c.name(), size, chunk);
            if (run.isEmpty()) {
                continue;
            }
            SortRun r = run.get();
            if (!r.ran()) {
                table.row(c.name(), "not run: " + r.notRun(), "–", "–", "–", "–", "–", c.description());
                continue;
            }
            SortTimes.Breakdown t = r.times();
            boolean async = c.name().startsWith("async");
            table.row(c.name(), format("%.3f", t.total()), (async ? "* " : "") + format("%.3f", t.read()),
                    (async ? "* " : "") + format("%.3f", t.write()), format("%.3f", t.sort()),
                    async ? format("%.3f", t.block()) : "", String.format(Locale.ROOT, "%.0f", r.throughput()),
                    c.description());
        }
        return table.note("Each run's output checked (length, every chunk ascending, the input's multiset). Median of "
                + "the rounds by total time. * = async: initiating the requests only (a heap-array write is copied "
                + "off-heap and byte-swapped at initiation, so that is in it); block = waiting in done/allDone (a "
                + "read's data is copied into its array when seen done, so that is in it). Total includes opening "
                + "and closing the files; closing (flushing) counts as write time. C times are taken inside the program.");
    }

    private static Table throughputTable(SortSettings settings, List<SortConfig> configs, List<SortRun> runs, long chunk) {
        List<String> columns = new ArrayList<>(List.of("configuration"));
        settings.sizes().forEach(s -> columns.add(BenchOptions.formatSize(s)));
        Table table = new Table("Sorting throughput (input size / total time, MB/s), " + BenchOptions.formatSize(chunk)
                + " chunks (" + figure(chunk) + ")", columns);
        for (SortConfig c : configs) {
            List<String> row = new ArrayList<>(List.of(c.name()));
            for (long size : settings.sizes()) {
                Optional<SortRun> r = find(runs, c.name(), size, chunk);
                row.add(r.isEmpty() ? "–" : r.get().ran()
                        ? String.format(Locale.ROOT, "%.0f", r.get().throughput()) : "not run");
            }
            table.row(row);
        }
        return table.note("MB = 10^6 bytes; the I/O volume is twice the input (read and written), and the time "
                + "includes sorting, as 000 §5.1 defines it. 'not run': see the Table 2 rows for why.");
    }

    private static String figure(long chunk) {
        return chunk == 32 << 10 ? "Figure 6" : chunk == 512 << 10 ? "Figure 7" : "as Figures 6 and 7";
    }

    private static Chart chart(SortSettings settings, List<SortConfig> configs, List<SortRun> runs, long chunk) {
        Chart chart = new Chart("sort-throughput-" + SortSettings.label(chunk), "Sorting throughput, "
                + BenchOptions.formatSize(chunk) + " chunks (" + figure(chunk) + ")", "file size (MiB)", "MB/s",
                Chart.Kind.LINE_LOG_X);
        for (SortConfig c : configs) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (long size : settings.sizes()) {
                find(runs, c.name(), size, chunk).filter(SortRun::ran).ifPresent(r -> {
                    x.add(size / (double) (1 << 20));
                    y.add(r.throughput());
                });
            }
            if (!x.isEmpty()) {
                chart.add(Chart.Series.line(c.name(), x, y));
            }
        }
        return chart;
    }

    static Optional<SortRun> find(List<SortRun> runs, String config, long size, long chunk) {
        return runs.stream().filter(r -> r.config().equals(config) && r.size() == size && r.chunk() == chunk).findFirst();
    }
}
