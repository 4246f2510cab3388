package org.hpio.bench.engine;

import org.hpio.bench.report.Chart;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import static org.hpio.bench.report.Numbers.format;

/** Turns the engine suite's checked figures into results, tables and charts. */
final class EngineReport {
    private static final List<String> LATENCY_COLUMNS = List.of("CPU µs / I/O", "of which JIT", "ctx switches / I/O", "p50 µs",
            "p99 µs", "p99.9 µs");

    private EngineReport() {
    }

    static void write(SuiteReport report, List<Figures> figures, EngineSettings settings) {
        for (Figures f : figures) {
            results(report, f);
        }
        List<Figures> random = of(figures, Workload.RANDOM);
        List<Figures> sequential = new ArrayList<>(of(figures, Workload.SEQ_READ));
        sequential.addAll(of(figures, Workload.SEQ_WRITE));
        List<Figures> warm = of(figures, Workload.WARM);
        if (!random.isEmpty()) {
            report.table(perIo("4 KiB random reads, O_DIRECT (page cache bypassed)", random)
                    .note("Checked: every block read starts with its block number. CPU: the whole process (every "
                            + "thread, user + system) over the timed run, divided by the I/Os; fio: its own job's."));
            report.chart(chart("engine-iops", "4 KiB random O_DIRECT reads", "IOPS", random, Figures::iops));
            report.chart(chart("engine-cpu", "CPU time per 4 KiB random O_DIRECT read", "CPU µs per I/O", random,
                    Figures::cpuMicrosPerIo));
            report.chart(chart("engine-p99", "p99 latency of 4 KiB random O_DIRECT reads", "p99 µs", random,
                    Figures::p99));
        }
        if (!sequential.isEmpty()) {
            report.table(sequential(sequential));
        }
        if (!warm.isEmpty()) {
            report.table(perIo("4 KiB random reads, warm page cache (buffered, file read once before)", warm)
                    .note("Checked: every block read starts with its block number."));
        }
        Table targets = Targets.table(report, figures, settings);
        if (!targets.rows().isEmpty()) {
            report.table(targets);
        }
    }

    private static List<Figures> of(List<Figures> figures, String workload) {
        return figures.stream().filter(f -> f.workload().key().equals(workload)).toList();
    }

    private static void results(SuiteReport report, Figures f) {
        String name = f.configuration();
        report.result(name, "iops", f.iops(), "ops/s");
        if (f.workload().blockSize() > BlockPattern.BLOCK) {
            report.result(name, f.workload().writes() ? "write" : "read", f.mbPerSecond(), "MB/s");
        }
        report.result(name, "cpu-per-io", f.cpuMicrosPerIo(), "µs");
        if (!Double.isNaN(f.jitMicrosPerIo())) {
            report.result(name, "jit-per-io", f.jitMicrosPerIo(), "µs");
        }
        if (!Double.isNaN(f.switchesPerIo())) {
            report.result(name, "ctx-per-io", f.switchesPerIo(), "count");
        }
        report.result(name, "p50", f.p50(), "µs");
        report.result(name, "p99", f.p99(), "µs");
        report.result(name, "p999", f.p999(), "µs");
    }

    private static Table perIo(String title, List<Figures> figures) {
        List<String> columns = new ArrayList<>(List.of("configuration", "mechanism", "QD", "IOPS"));
        columns.addAll(LATENCY_COLUMNS);
        Table table = new Table(title, columns);
        for (Figures f : figures) {
            List<String> row = new ArrayList<>(List.of(f.configuration(), f.mechanism().description(),
                    Integer.toString(f.depth()), format("%.0f", f.iops())));
            row.addAll(perIoCells(f));
            table.row(row);
        }
        return table;
    }

    private static Table sequential(List<Figures> figures) {
        List<String> columns = new ArrayList<>(List.of("configuration", "mechanism", "QD", "MB/s", "IOPS"));
        columns.addAll(LATENCY_COLUMNS);
        Table table = new Table("1 MiB sequential reads and writes, O_DIRECT", columns);
        for (Figures f : figures) {
            List<String> row = new ArrayList<>(List.of(f.configuration(), f.mechanism().description(),
                    Integer.toString(f.depth()), format("%.0f", f.mbPerSecond()), format("%.0f", f.iops())));
            row.addAll(perIoCells(f));
            table.row(row);
        }
        return table.note("MB/s of 10^6 bytes. Checked: reads block by block; writes (the pattern) read back after a "
                + "force, outside the clock. Writes overwrite a second file of the same size, allocated beforehand.");
    }

    private static List<String> perIoCells(Figures f) {
        return List.of(format("%.2f", f.cpuMicrosPerIo()), format("%.2f", f.jitMicrosPerIo()),
                format("%.2f", f.switchesPerIo()), format("%.0f", f.p50()),
                format("%.0f", f.p99()), format("%.0f", f.p999()));
    }

    /** One line per mechanism over queue depth (FileChannel's single point at QD 1 included). */
    private static Chart chart(String stem, String title, String yLabel, List<Figures> figures,
                               ToDoubleFunction<Figures> y) {
        Chart chart = new Chart(stem, title, "queue depth", yLabel, Chart.Kind.LINE_LOG_X);
        for (Mechanism m : Mechanism.values()) {
            List<Figures> line = figures.stream().filter(f -> f.mechanism() == m).toList();
            if (!line.isEmpty()) {
                chart.add(Chart.Series.line(m.key(), line.stream().map(f -> (double) f.depth()).toList(),
                        line.stream().map(y::applyAsDouble).toList()));
            }
        }
        return chart;
    }

    static Optional<Figures> find(List<Figures> figures, String configuration) {
        return figures.stream().filter(f -> f.configuration().equals(configuration)).findFirst();
    }
}
