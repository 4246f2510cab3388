package org.hpio.bench.report;

import java.awt.AWTError;
import java.io.IOException;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Writes a benchmark run's report directory: {@code report.md} for people (machine, then per suite its summary,
 * parameters, tables, charts and notes), {@code results.json} with every suite and {@code <suite>.json} per suite for
 * scripts, and the charts as PNG under {@code charts/}. The JSON files are written first, so a chart that cannot be
 * drawn (say, a JDK without fonts) costs only its picture, which the report then names instead.
 */
public final class ReportWriter {
    static final String CHARTS = "charts";
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss xxx", Locale.ROOT);

    private ReportWriter() {
    }

    /** Writes the report of {@code suites} into {@code reportDir} (created if missing); returns the path of report.md. */
    public static Path write(Path reportDir, MachineInfo machine, List<SuiteReport> suites, Instant started,
                             Duration elapsed) throws IOException {
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(started, "started");
        Objects.requireNonNull(elapsed, "elapsed");
        Files.createDirectories(reportDir);
        JsonResults.write(reportDir.resolve("results.json"), suites, machine);

        // File names unique within the report: results.json and report.md are taken.
        Set<String> jsonNames = new HashSet<>(Set.of("results", "report"));
        Set<String> chartNames = new HashSet<>();
        StringBuilder md = new StringBuilder();
        md.append("# hpio benchmark report\n\n");
        md.append("- Date: ").append(DATE.format(started.atZone(ZoneId.systemDefault()))).append('\n');
        md.append("- Total time: ").append(duration(elapsed)).append('\n');
        md.append("- Results as JSON: [results.json](results.json)\n\n");
        md.append(summary(machine, suites));
        machine(md, machine);
        if (suites.isEmpty()) {
            md.append("No suite ran.\n");
        }
        for (SuiteReport s : suites) {
            String json = unique(ChartRenderer.safeStem(s.suite()), jsonNames) + ".json";
            JsonResults.write(reportDir.resolve(json), List.of(s), machine);
            suite(md, s, json, reportDir.resolve(CHARTS), chartNames);
        }
        Path report = reportDir.resolve("report.md");
        byte[] bytes = md.toString().getBytes(StandardCharsets.UTF_8);
        AtomicFile.write(report, out -> out.write(bytes));
        return report;
    }

    /** The title of a suite's targets table starts so ("Targets, same run ..."): the summary gathers those. */
    static final String TARGETS_TITLE = "Targets";

    /**
     * The report's first screen: the machine in one line, then every suite's targets tables (the ones whose title
     * starts with {@value #TARGETS_TITLE}, as each suite writes them), with how many were met (rows whose "met" is
     * empty are there for comparison and are not counted); suites without
     * targets and suites with failures say so. {@code hpio bench} prints it last on the console too.
     */
    public static String summary(MachineInfo m, List<SuiteReport> suites) {
        StringBuilder md = new StringBuilder();
        md.append("## Summary\n\n");
        md.append("Machine: ").append(oneLine(m.cpuModel())).append(", ").append(m.logicalCores()).append(" logical cores, ")
                .append(m.memoryBytes() < 0 ? MachineInfo.UNKNOWN
                        : String.format(Locale.ROOT, "%.1f GiB", m.memoryBytes() / (double) (1L << 30)))
                .append(" memory, kernel ").append(oneLine(m.kernel())).append(", ").append(oneLine(m.fileSystemType()))
                .append(" on ").append(oneLine(m.fileSystemDevice())).append(", ").append(oneLine(m.jdk())).append("\n\n");
        int metAll = 0;
        int totalAll = 0;
        List<String> lines = new ArrayList<>();
        StringBuilder tables = new StringBuilder();
        for (SuiteReport s : suites) {
            List<Table> targets = s.tables().stream()
                    .filter(t -> t.title() != null && t.title().startsWith(TARGETS_TITLE)).toList();
            int met = 0;
            int total = 0;
            for (Table t : targets) {
                int column = t.columns().indexOf("met");
                for (List<String> row : t.rows()) {
                    // A row with an empty "met" is shown for comparison, not a target.
                    String cell = column >= 0 ? row.get(column).strip() : "";
                    if (!cell.isEmpty()) {
                        total++;
                        if (cell.equalsIgnoreCase("yes")) {
                            met++;
                        }
                    }
                }
                tables.append("**").append(oneLine(s.suite())).append(": ").append(emphasized(t.title())).append("**\n\n");
                table(tables, t.columns(), t.rows());
            }
            metAll += met;
            totalAll += total;
            String line = "- " + oneLine(s.suite()) + ": " + (total == 0 ? "no target ratios (figures only)"
                    : met + " of " + total + " targets met");
            if (!s.failures().isEmpty()) {
                line += "; " + s.failures().size() + (s.failures().size() == 1 ? " failure" : " failures")
                        + " (see the suite's notes)";
            }
            lines.add(line);
        }
        if (suites.isEmpty()) {
            md.append("No suite ran.\n\n");
            return md.toString();
        }
        md.append("Targets met: ").append(metAll).append(" of ").append(totalAll).append("\n\n");
        lines.forEach(l -> md.append(l).append('\n'));
        md.append('\n').append(tables);
        return md.toString();
    }

    private static void machine(StringBuilder md, MachineInfo m) {
        md.append("## Machine\n\n");
        table(md, List.of("Property", "Value"), List.of(
                List.of("CPU", m.cpuModel()),
                List.of("Logical cores", Integer.toString(m.logicalCores())),
                List.of("Memory", m.memoryBytes() < 0 ? MachineInfo.UNKNOWN
                        : String.format(Locale.ROOT, "%.1f GiB", m.memoryBytes() / (double) (1L << 30))),
                List.of("Kernel", m.kernel()),
                List.of("File system", m.fileSystemType() + " on " + m.fileSystemDevice() + ", mounted at "
                        + m.mountPoint() + " (work directory " + m.workDir() + ")"),
                List.of("JDK", m.jdk()),
                List.of("OS", m.os())));
    }

    private static void suite(StringBuilder md, SuiteReport s, String json, Path chartDir, Set<String> chartNames)
            throws IOException {
        md.append("## ").append(oneLine(s.suite())).append("\n\n");
        if (s.summary() != null && !s.summary().isBlank()) {
            md.append(s.summary().strip()).append("\n\n");
        }
        md.append("Results as JSON: [").append(json).append("](").append(json).append(")\n\n");
        if (!s.params().isEmpty()) {
            md.append("**Parameters**\n\n");
            List<List<String>> rows = new ArrayList<>();
            for (Map.Entry<String, Object> e : s.params().entrySet()) {
                rows.add(List.of(e.getKey(), param(e.getKey(), e.getValue())));
            }
            table(md, List.of("Parameter", "Value"), rows);
        }
        for (Table t : s.tables()) {
            if (t.title() != null && !t.title().isBlank()) {
                md.append("**").append(emphasized(t.title())).append("**\n\n");
            }
            table(md, t.columns(), t.rows());
            if (t.note() != null && !t.note().isBlank()) {
                md.append('*').append(emphasized(t.note())).append("*\n\n");
            }
        }
        if (s.tables().isEmpty() && !s.results().isEmpty()) {
            // A suite without tables still shows its figures.
            md.append("**Results**\n\n");
            table(md, List.of("Name", "Metric", "Value", "Unit"), s.results().stream()
                    .map(r -> List.of(r.name(), r.metric(), number(r.value()), r.unit())).toList());
        }
        for (Chart c : s.charts()) {
            chart(md, c, chartDir, chartNames, s.suite());
        }
        if (!s.notes().isEmpty()) {
            for (String n : s.notes()) {
                md.append("- ").append(n.strip().replace("\n", "\n  ")).append('\n');
            }
            md.append('\n');
        }
    }

    private static void chart(StringBuilder md, Chart c, Path chartDir, Set<String> chartNames, String suite)
            throws IOException {
        String stem = ChartRenderer.safeStem(c.fileStem());
        if (chartNames.contains(stem)) {
            stem = ChartRenderer.safeStem(suite + "-" + c.fileStem()); // two suites chose the same name
        }
        stem = unique(stem, chartNames);
        String title = c.title() == null || c.title().isBlank() ? stem : c.title();
        Path png;
        try {
            png = ChartRenderer.render(c, chartDir, stem);
        } catch (IOException | RuntimeException | LinkageError | InternalError | AWTError e) {
            // AWT without fonts or native libraries fails with errors, not exceptions; the figures are in the tables.
            md.append("*Chart \"").append(emphasized(title)).append("\" could not be drawn: ")
                    .append(emphasized(String.valueOf(e))).append("*\n\n");
            return;
        }
        if (png == null) {
            md.append("*Chart \"").append(emphasized(title)).append("\": no data.*\n\n");
            return;
        }
        md.append("![").append(oneLine(title).replace("[", "\\[").replace("]", "\\]")).append("](")
                .append(CHARTS).append('/').append(png.getFileName()).append(")\n\n");
    }

    /** A GitHub Markdown table; '|' in cells is escaped and line breaks become {@code <br>}. */
    private static void table(StringBuilder md, List<String> columns, List<List<String>> rows) {
        md.append('|');
        for (String c : columns) {
            md.append(' ').append(cell(c)).append(" |");
        }
        md.append("\n|");
        md.append("---|".repeat(columns.size()));
        md.append('\n');
        for (List<String> row : rows) {
            md.append('|');
            for (String c : row) {
                md.append(' ').append(cell(c)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    static String cell(String s) {
        return s == null ? "" : s.strip().replace("|", "\\|").replaceAll("\r\n|\r|\n", "<br>");
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.strip().replaceAll("\\s*(\r\n|\r|\n)\\s*", " ");
    }

    /** Text inside * or ** emphasis: on one line, with '*' escaped. */
    private static String emphasized(String s) {
        return oneLine(s).replace("*", "\\*");
    }

    /** A parameter as a reader wants it: lists joined, and byte counts also in binary units. */
    private static String param(String key, Object v) {
        String s = value(v);
        if (key.toLowerCase(Locale.ROOT).endsWith("bytes") && v instanceof Number n && !(v instanceof Double)
                && !(v instanceof Float) && n.longValue() >= 1024) {
            s += " (" + bytes(n.longValue()) + ")";
        }
        return s;
    }

    private static String value(Object v) {
        return switch (v) {
            case null -> "";
            case Double d -> number(d);
            case Float f -> number(f);
            case Map<?, ?> m -> m.entrySet().stream().map(e -> e.getKey() + "=" + value(e.getValue()))
                    .collect(Collectors.joining(", "));
            case Iterable<?> it -> {
                List<String> parts = new ArrayList<>();
                it.forEach(o -> parts.add(value(o)));
                yield String.join(", ", parts);
            }
            case Object a when a.getClass().isArray() -> {
                List<String> parts = new ArrayList<>();
                for (int i = 0, n = Array.getLength(a); i < n; i++) {
                    parts.add(value(Array.get(a, i)));
                }
                yield String.join(", ", parts);
            }
            default -> v.toString();
        };
    }

    /** A measured value to four significant digits, without exponent or trailing zeros. */
    static String number(double d) {
        if (!Double.isFinite(d)) {
            return Double.toString(d);
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return new BigDecimal(d).round(new MathContext(4)).stripTrailingZeros().toPlainString();
    }

    /** A byte count in binary units: "512 B", "4 KiB", "1.5 GiB". */
    static String bytes(long n) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double v = n;
        int u = 0;
        while (Math.abs(v) >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return number(Math.round(v * 100) / 100.0) + " " + units[u];
    }

    /** "1 h 02 min 03 s", "3 min 12 s", "12.3 s". */
    static String duration(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%d h %02d min %02d s", s / 3600, s / 60 % 60, s % 60);
    }

    private static String unique(String name, Set<String> used) {
        String n = name;
        for (int i = 2; !used.add(n); i++) {
            n = name + "-" + i;
        }
        return n;
    }
}
