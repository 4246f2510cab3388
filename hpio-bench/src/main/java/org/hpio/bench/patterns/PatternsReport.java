package org.hpio.bench.patterns;

import org.hpio.bench.report.Chart;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;
import org.hpio.bench.suite.BenchOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The patterns suite's results, tables and charts: one table and one chart per access pattern and sweep, in the
 * slides' form (elapsed time against size, one line per way), time per whole file.
 */
final class PatternsReport {
    private PatternsReport() {
    }

    static void write(SuiteReport report, List<PatternsConfig> configs, List<PatternsSuite.Measured> measured) {
        for (PatternsSuite.Measured m : measured) {
            report.result(m.key(), "seconds-per-file", m.perFile(), "s");
            report.result(m.key(), "ops-measured", m.point().ops(), "count");
        }
        for (Sweeps.Kind kind : Sweeps.Kind.values()) {
            for (Access access : Access.values()) {
                List<PatternsSuite.Measured> these = measured.stream()
                        .filter(m -> m.kind() == kind && m.point().access() == access).toList();
                if (!these.isEmpty()) {
                    report.table(table(configs, kind, access, these));
                    report.chart(chart(configs, kind, access, these));
                }
            }
        }
    }

    private static int size(Sweeps.Kind kind, Point p) {
        return kind == Sweeps.Kind.OPERATION ? p.opSize() : p.bufferSize();
    }

    private static Table table(List<PatternsConfig> configs, Sweeps.Kind kind, Access access, List<PatternsSuite.Measured> these) {
        List<String> columns = new ArrayList<>(List.of(kind == Sweeps.Kind.OPERATION ? "operation" : "buffer", "ops measured"));
        List<PatternsConfig> present = configs.stream().filter(w -> these.stream().anyMatch(m -> m.config().equals(w.name()))).toList();
        present.forEach(w -> columns.add(w.name()));
        long fileSize = these.getFirst().point().fileSize();
        Table table = new Table(String.format(Locale.ROOT, "%s of a %s file against %s: seconds per whole file",
                capital(access.title()), BenchOptions.formatSize(fileSize), kind.xLabel), columns);
        TreeSet<Integer> sizes = new TreeSet<>();
        these.forEach(m -> sizes.add(size(kind, m.point())));
        for (int s : sizes) {
            List<String> row = new ArrayList<>(List.of(BenchOptions.formatSize(s), ""));
            for (PatternsConfig w : present) {
                Optional<PatternsSuite.Measured> m = these.stream()
                        .filter(x -> x.config().equals(w.name()) && size(kind, x.point()) == s).findFirst();
                m.ifPresent(x -> row.set(1, x.point().ops() == x.point().totalOps() ? x.point().ops() + " (all)"
                        : String.valueOf(x.point().ops())));
                row.add(m.map(x -> String.format(Locale.ROOT, x.perFile() < 10 ? "%.3f" : "%.1f", x.perFile()))
                        .orElse(w.supports(probe(kind, access, s, fileSize)) ? "failed" : "n/a"));
            }
            table.row(row);
        }
        return table.note("Measured over the operations in the 'ops measured' column; where fewer than all, the time "
                + "is scaled to the operations that move the whole file (" + BenchOptions.formatSize(fileSize) + " / "
                + "operation size): measured seconds x (all / measured). Every point checked (reads by checksum, writes "
                + "by the file's contents). n/a: streams cannot seek (random), or the way has no such buffer.");
    }

    private static Point probe(Sweeps.Kind kind, Access access, int size, long fileSize) {
        return kind == Sweeps.Kind.OPERATION ? new Point(access, size, 0, fileSize, 1) : new Point(access, 1, size, fileSize, 1);
    }

    private static Chart chart(List<PatternsConfig> configs, Sweeps.Kind kind, Access access, List<PatternsSuite.Measured> these) {
        Chart chart = new Chart("patterns-" + access.key() + "-" + kind.key, capital(access.title()) + " of "
                + BenchOptions.formatSize(these.getFirst().point().fileSize()) + " against " + kind.key + " size "
                + "(scaled where fewer ops measured; see table)", kind.xLabel, "elapsed seconds per file",
                Chart.Kind.LINE_LOG_XY);
        for (PatternsConfig w : configs) {
            List<PatternsSuite.Measured> line = these.stream().filter(m -> m.config().equals(w.name()))
                    .sorted((a, b) -> Integer.compare(size(kind, a.point()), size(kind, b.point()))).toList();
            if (!line.isEmpty()) {
                chart.add(Chart.Series.line(w.name(), line.stream().map(m -> (double) size(kind, m.point())).toList(),
                        line.stream().map(PatternsSuite.Measured::perFile).toList()));
            }
        }
        return chart;
    }

    private static String capital(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
