package org.hpio.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;

/**
 * A suite's targets table: ratios of two configurations' figures from the same run, each against the issue's
 * target and whether it was met, every ratio also a result {@code A-vs-B} (unit "ratio"). Rows for comparison
 * only have no target. The table is a {@link SuiteReport#quotedTable} or a plain one, as the suite's report
 * always had it; the metric has a column of its own, or stands in the ratio's name ({@code a / b (read)}).
 */
public final class TargetsTable {
    public static final String FOR_COMPARISON = "(for comparison)";

    private final SuiteReport report;
    private final Table table;

    /** {@code table}'s columns: ratio, metric (when {@code table} has that column), value, target, met. */
    public TargetsTable(SuiteReport report, Table table) {
        this.report = report;
        this.table = table;
    }

    public Table table() {
        return table;
    }

    /**
     * Adds the row and result {@code a-vs-b} for {@code metric} when both figures were measured and their ratio is
     * finite; {@code met} null for a row shown for comparison. Returns the ratio, empty when no row was added.
     */
    public OptionalDouble ratio(String a, String b, String metric, OptionalDouble x, OptionalDouble y, String target,
                                DoublePredicate met) {
        if (x.isEmpty() || y.isEmpty()) {
            return OptionalDouble.empty();
        }
        double ratio = x.getAsDouble() / y.getAsDouble();
        if (!Double.isFinite(ratio)) {
            return OptionalDouble.empty();
        }
        report.result(a + "-vs-" + b, metric, ratio, "ratio");
        List<String> cells = new ArrayList<>();
        if (table.columns().contains("metric")) {
            cells.addAll(List.of(a + " / " + b, metric));
        } else {
            cells.add(a + " / " + b + " (" + metric + ")");
        }
        cells.addAll(List.of(Numbers.format("%.2f", ratio), target, met == null ? "" : met(met.test(ratio))));
        table.row(cells);
        return OptionalDouble.of(ratio);
    }

    /** The "met" cell of a row with a target. */
    public static String met(boolean met) {
        return met ? "yes" : "no";
    }
}
