package org.hpio.cli;

import org.hpio.archive.order.TraceOrdering;
import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.archive.simulation.Layout;
import org.hpio.archive.simulation.SeekCounter;
import org.hpio.archive.simulation.Seeks;
import org.hpio.archive.trace.Trace;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchOptions;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seek counts (002 §4.3) of directory order, trace order and optionally an existing archive, for several cache
 * sizes: one row per cache size and layout, one column per run, the sum of the runs and the whole trace.
 */
final class SeekTable {
    /** One row: a layout at a cache size, and what the trace cost on it. */
    record Row(long cacheBytes, String layout, SeekCounter.Report report) {
    }

    private final List<Row> rows = new ArrayList<>();
    private final int runCount;

    private SeekTable(int runCount) {
        this.runCount = runCount;
    }

    /**
     * Counts the seeks of {@code trace} for each cache size on the directory order of {@code files}, on the
     * trace order computed with that cache, and on {@code archive} when it is not null.
     */
    static SeekTable compute(Trace trace, List<String> directoryOrder, Layout archive, List<Long> cacheSizes) {
        SeekTable table = new SeekTable(trace.runs().size());
        for (long bytes : cacheSizes) {
            FileCacheModel cache = FileCacheModel.lru(bytes);
            Map<String, Layout> layouts = new LinkedHashMap<>();
            layouts.put("directory order", Layout.packed(directoryOrder));
            layouts.put("trace order", Layout.packed(TraceOrdering.order(trace, directoryOrder, cache)));
            if (archive != null) {
                layouts.put("the archive", archive);
            }
            layouts.forEach((name, layout) ->
                    table.rows.add(new Row(bytes, name, SeekCounter.count(trace, layout, cache))));
        }
        return table;
    }

    /** The rows in order. */
    List<Row> rows() {
        return List.copyOf(rows);
    }

    /**
     * The rows as figures of {@code report} (DESIGN.md's JSON rows): one configuration per layout and cache size
     * ({@code trace-order-lru-10m}, {@code directory-order-no-cache}), with its seeks per run, summed and for
     * the whole trace.
     */
    SuiteReport addResults(SuiteReport report) {
        for (Row row : rows) {
            String name = row.layout().replace(' ', '-').replace("the-", "") + "-"
                    + (row.cacheBytes() == 0 ? "no-cache" : "lru-" + BenchOptions.sizeTag(row.cacheBytes()));
            List<Seeks> runs = row.report().runs();
            for (int r = 0; r < runs.size(); r++) {
                report.result(name, "seeks-run-" + (r + 1), runs.get(r).seeks(), "seeks");
            }
            report.result(name, "seeks-sum-of-runs", row.report().sumOfRuns().seeks(), "seeks")
                    .result(name, "seeks-whole-trace", row.report().wholeTrace().seeks(), "seeks")
                    .result(name, "seek-share-whole-trace", 100 * row.report().wholeTrace().seekShare(), "%");
        }
        return report;
    }

    /** Prints the table: seeks and their share of loads, per run, summed, and for the whole trace. */
    void print(PrintStream out) {
        StringBuilder header = new StringBuilder(String.format("%-10s %-16s", "LRU cache", "layout"));
        for (int r = 1; r <= runCount; r++) {
            header.append(String.format(" %15s", "run " + r));
        }
        out.println(header.append(String.format(" %15s %15s", "sum of runs", "whole trace")));
        for (Row row : rows) {
            StringBuilder line = new StringBuilder(String.format("%-10s %-16s",
                    row.cacheBytes() == 0 ? "none" : BenchOptions.formatSize(row.cacheBytes()), row.layout()));
            row.report().runs().forEach(s -> line.append(cell(s)));
            out.println(line.append(cell(row.report().sumOfRuns())).append(cell(row.report().wholeTrace())));
        }
        out.println("Cells: seeks (share of loads). A seek is a read that does not start where the previous one"
                + " ended; loads the simulated cache serves are no reads. Each run replays alone with a cold cache;"
                + " the whole trace replays as one sequence with one cache.");
    }

    private static String cell(Seeks s) {
        return String.format(" %15s", String.format("%d (%.1f%%)", s.seeks(), 100 * s.seekShare()));
    }
}
