package org.hpio.bench.bulk;

import org.hpio.bench.bulk.SharedFileRun.Plan;
import org.hpio.bench.data.Elements;
import org.hpio.bench.data.TestData;
import org.hpio.bench.machine.CProgram;
import org.hpio.bench.machine.PageCache;
import org.hpio.bench.measure.Rounds;
import org.hpio.bench.measure.Stats;
import org.hpio.bench.report.Chart;
import org.hpio.bench.report.Progress;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;
import org.hpio.bench.report.TargetsTable;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suite;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;

import static org.hpio.bench.report.Numbers.format;
import static org.hpio.bench.report.TargetsTable.FOR_COMPARISON;

/**
 * {@code hpio bench bulk}: read and write one file of longs with every configuration of 000 Table 1 and 001 §3,
 * what a developer writes today (nio, mmap), hpio's bulk classes, and C. One thread, whole file in one block.
 */
public final class BulkSuite implements Suite {
    static final long DEFAULT_SIZE = 256L << 20;
    /** Per-element configurations too slow for the whole file run on this prefix. */
    static final long PREFIX_BYTES = 8L << 20;
    /**
     * The default size of a quick run ({@link BenchOptions#quick()}): every configuration, smaller. Not smaller
     * than this: at 32 MiB the per-call mapping of hpio's mapped reads weighed against a copy of a few
     * milliseconds, and the ratios to mmap read 0.6 where they are 0.9-1.0 at 128 and 256 MiB (AMD EPYC, measured
     * side by side), so the quick run reported as missed targets that the size meets.
     */
    static final long QUICK_SIZE = 128L << 20;

    @Override
    public String name() {
        return "bulk";
    }

    @Override
    public String summary() {
        return "read and write a file of longs with each Java approach, hpio bulk I/O and C (000 Table 1, 001 §3)";
    }

    /** One configuration's figures in MB/s (NaN where not measured). */
    private record Row(BulkConfig config, long readBytes, double readWarm, double readCold, long writeBytes,
                       double write) {
    }

    @Override
    public void run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        long count = options.sizeOr(DEFAULT_SIZE, QUICK_SIZE) / 8;
        if (count < 1) {
            throw new IllegalArgumentException("bulk needs at least 8 bytes");
        }
        long prefixCount = Math.min(count, PREFIX_BYTES / 8);
        SuiteReport report = context.report();
        report.param("element", "long (8 bytes)").param("size-bytes", count * 8)
                .param("size", BenchOptions.formatSize(count * 8))
                .param("prefix-for-slow-configurations", BenchOptions.formatSize(prefixCount * 8))
                .param("repetitions", options.repetitions()).param("statistic", "median")
                .param("threads", 1);

        List<BulkConfig> configs = configs(context);
        Object[] buffers = {new long[Math.toIntExact(count)]};
        Trials trials = new Trials(options.repetitions()).quick(options.quick());
        List<Row> rows;
        Table smallReads = null;
        try (BulkFiles files = BulkFiles.create(context.workDir(), "longs", Elements.LONG, count)) {
            describeCache(report, options, files.bigEndian());
            try (Progress progress = context.progress("configurations", configs.size())) {
                rows = Rounds.of(1, BulkConfig::name).run(configs,
                        (c, warmUp) -> measure(c, files, count, prefixCount, trials, options, buffers), report, progress);
                if (options.cache().warm() && (options.includes("bulkraf") || options.includes("bulk-native"))) {
                    PageCache.warm(files.bigEndian());
                    PageCache.warm(files.nativeOrder());
                    smallReads = SmallReads.measure(report, files.bigEndian(), files.nativeOrder(), context.workDir(),
                            count * 8, Math.max(3, options.repetitions()));
                }
            }
        }
        report(report, rows, count * 8);
        if (smallReads != null) {
            report.table(smallReads);
        }
    }

    /**
     * {@code c}'s row: reads warm and cold (as {@code --cache} asks) and writes of the whole file, or of its first
     * {@code prefixCount} longs for a per-element configuration too slow for the whole ({@link Trials#extent}).
     */
    private static Row measure(BulkConfig c, BulkFiles files, long count, long prefixCount, Trials trials,
                               BenchOptions options, Object[] buffers) throws Exception {
        Path input = files.input(c.order());
        Plan full = new Plan(input, Elements.LONG, count, 1, c.order());
        Plan plan = trials.extent(c, full, new Plan(input, Elements.LONG, prefixCount, 1, c.order()), buffers);
        long expected = TestData.expectedChecksum(0, plan.count(), 8);
        PageCache.warm(input);
        double warm = options.cache().warm() ? Stats.mbPerSecond(plan.bytes(),
                trials.read(c, plan, BulkConfig.Workers.THREADS, buffers, expected, false)) : Double.NaN;
        double cold = options.cache().cold() ? Stats.mbPerSecond(plan.bytes(),
                trials.read(c, plan, BulkConfig.Workers.THREADS, buffers, expected, true)) : Double.NaN;
        Plan writePlan = new Plan(files.output(), Elements.LONG, plan.count(), 1, c.order());
        double write = Stats.mbPerSecond(writePlan.bytes(), trials.write(c, writePlan, BulkConfig.Workers.THREADS, buffers));
        return new Row(c, plan.bytes(), warm, cold, writePlan.bytes(), write);
    }

    static List<BulkConfig> configs(BenchContext context) throws IOException {
        List<BulkConfig> configs = new ArrayList<>();
        Approaches.all().forEach(a -> configs.add(BulkConfig.java(a)));
        BenchOptions options = context.options();
        if (options.includes("c") || options.includes("c-native")) {
            Optional<CProgram> c = context.cProgram("hpio_bulkio");
            c.ifPresent(program -> {
                configs.add(BulkConfig.c(program, ByteOrder.BIG_ENDIAN));
                configs.add(BulkConfig.c(program, ByteOrder.nativeOrder()));
            });
        }
        List<BulkConfig> chosen = configs.stream().filter(c -> options.includes(c.name())).toList();
        List<String> known = new ArrayList<>(Approaches.all().stream().map(a -> a.name()).toList());
        known.addAll(List.of("c", "c-native"));
        for (String name : options.configs()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("no configuration named '" + name + "'; known: " + String.join(", ", known));
            }
        }
        return chosen;
    }

    /** Records which page-cache states were measured, and what a drop really left resident. */
    static void describeCache(SuiteReport report, BenchOptions options, Path file) throws IOException {
        List<String> states = new ArrayList<>();
        if (options.cache().warm()) {
            states.add("warm (file read once before timing)");
        }
        if (options.cache().cold()) {
            PageCache.drop(file);
            OptionalDouble resident = PageCache.residentShare(file);
            states.add("cold (fdatasync + posix_fadvise DONTNEED before each repetition"
                    + (resident.isPresent()
                    ? String.format(Locale.ROOT, "; %.1f%% of the file resident after a drop, by fincore)", 100 * resident.getAsDouble())
                    : "; residency not measured: no fincore)"));
        }
        report.param("page-cache", String.join("; ", states));
        report.param("writes", Trials.WRITES);
    }

    private static void report(SuiteReport report, List<Row> rows, long fullBytes) {
        Table table = new Table("Throughput, MB/s (10^6 bytes per second), one thread",
                List.of("configuration", "what it is", "data", "read, warm", "read, cold", "write"));
        List<String> names = new ArrayList<>();
        List<Double> warm = new ArrayList<>();
        List<Double> cold = new ArrayList<>();
        List<Double> write = new ArrayList<>();
        for (Row row : rows) {
            String name = row.config().name();
            boolean prefix = row.readBytes() < fullBytes;
            table.row(name, row.config().description(),
                    BenchOptions.formatSize(row.readBytes()) + (prefix ? " (prefix)" : ""),
                    format("%.0f", row.readWarm()), format("%.0f", row.readCold()),
                    format("%.0f", row.write()));
            result(report, name, "read", row.readWarm());
            result(report, name, "read-cold", row.readCold());
            result(report, name, "write", row.write());
            names.add(name);
            warm.add(row.readWarm());
            cold.add(row.readCold());
            write.add(row.write());
        }
        table.note("Checked: every read's checksum and every written file's contents match the generator. "
                + "'(prefix)': a per-element configuration too slow for the whole file, measured on its first bytes.");
        report.table(table);
        report.table(ratios(report, rows));
        Chart read = new Chart("bulk-read", "Reading a file of longs, one thread", "configuration", "MB/s", Chart.Kind.BAR);
        read.add(Chart.Series.bars("warm", names, warm));
        if (cold.stream().anyMatch(v -> !v.isNaN())) {
            read.add(Chart.Series.bars("cold", names, cold));
        }
        report.chart(read);
        report.chart(new Chart("bulk-write", "Writing a file of longs, one thread", "configuration", "MB/s", Chart.Kind.BAR)
                .add(Chart.Series.bars("write", names, write)));
    }

    /**
     * The ratios the issues set as targets (the foundation issue's, and issue 16's "bulk reads at NIO's speed
     * or better"), computed from this run, each with whether it was met; rows without a target are for
     * comparison.
     */
    private static Table ratios(SuiteReport report, List<Row> rows) {
        TargetsTable table = new TargetsTable(report, report.quotedTable("Targets, same run (warm page cache)",
                List.of("ratio", "value", "target", "met")));
        ratio(table, rows, "bulkraf", "nio", "read", ">= 1", v -> v >= 1.0);
        ratio(table, rows, "bulkraf", "mmap", "read", ">= 0.8", v -> v >= 0.8);
        ratio(table, rows, "bulk-native", "mmap-native", "read", ">= 0.8", v -> v >= 0.8);
        ratio(table, rows, "bulkraf", "dsb", "read", ">= 10", v -> v >= 10);
        ratio(table, rows, "bulkraf", "c", "write", ">= 0.9", v -> v >= 0.9);
        ratio(table, rows, "bulkds-file", "nio", "read", ">= 1", v -> v >= 1.0);
        ratio(table, rows, "bulkds-file", "mmap", "read", ">= 0.8", v -> v >= 0.8);
        ratio(table, rows, "bulkds-file-native", "mmap-native", "read", ">= 0.8", v -> v >= 0.8);
        ratio(table, rows, "bulkraf", "c", "read", ">= 0.8", v -> v >= 0.8);
        ratio(table, rows, "bulk-native", "mmap", "read", ">= 0.8", v -> v >= 0.8);
        ratio(table, rows, "bulk-native", "c-native", "read", FOR_COMPARISON, null);
        ratio(table, rows, "bulk-native", "c-native", "write", FOR_COMPARISON, null);
        ratio(table, rows, "bulkraf", "nio", "write", FOR_COMPARISON, null);
        return table.table();
    }

    /** One row: a / b for {@code metric}; {@code met} null for a row shown for comparison only. */
    private static void ratio(TargetsTable table, List<Row> rows, String a, String b, String metric, String target,
                              DoublePredicate met) {
        table.ratio(a, b, metric, figure(rows, a, metric), figure(rows, b, metric), target, met);
    }

    private static OptionalDouble figure(List<Row> rows, String name, String metric) {
        return rows.stream().filter(r -> r.config().name().equals(name))
                .mapToDouble(r -> metric.equals("read") ? r.readWarm() : r.write())
                .filter(v -> !Double.isNaN(v)).findFirst();
    }

    private static void result(SuiteReport report, String name, String metric, double value) {
        if (!Double.isNaN(value)) {
            report.result(name, metric, value, "MB/s");
        }
    }
}
