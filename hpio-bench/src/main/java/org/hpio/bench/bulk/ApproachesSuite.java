package org.hpio.bench.bulk;

import org.hpio.bench.bulk.SharedFileRun.Plan;
import org.hpio.bench.data.Elements;
import org.hpio.bench.data.TestData;
import org.hpio.bench.machine.PageCache;
import org.hpio.bench.measure.Rounds;
import org.hpio.bench.measure.Stats;
import org.hpio.bench.report.Chart;
import org.hpio.bench.report.Progress;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suite;
import org.hpio.bulk.LaunchRank;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.hpio.bench.report.Numbers.format;

/**
 * {@code hpio bench approaches}: 001 §4's experiment. 1, 2 and 4 threads, and as many processes, each read or
 * write their own block of one shared file of ints, with every approach; the aggregate MB/s is the file's
 * size over the time from the common start to the last worker's end. Warm page cache.
 *
 * <p>Started by a launcher ({@code mpirun -np N ./hpio bench approaches}, {@code srun}), each process is one
 * rank of the experiment instead, as in 001 §4, and the ranks may run on many machines sharing the work
 * directory: {@link LaunchedApproaches}.
 */
public final class ApproachesSuite implements Suite {
    static final long DEFAULT_SIZE = 64L << 20;
    static final long PREFIX_BYTES = 4L << 20;
    /** The default size and prefix of a quick run ({@link BenchOptions#quick()}): every configuration, smaller. */
    static final long QUICK_SIZE = 16L << 20;
    static final long QUICK_PREFIX_BYTES = 1L << 20;

    private final Optional<LaunchRank> launched;

    /** As this process was started: a rank of a launch (mpirun, srun) when the environment says so, else alone. */
    public ApproachesSuite() {
        this(LaunchRank.fromEnvironment());
    }

    /** {@code launched}: the launch this process is a rank of, or empty to fork its own processes. */
    public ApproachesSuite(Optional<LaunchRank> launched) {
        this.launched = launched;
    }

    @Override
    public String name() {
        return "approaches";
    }

    @Override
    public String summary() {
        return "threads and processes reading and writing disjoint blocks of one shared file of ints (001 §4, §7)";
    }

    /** Aggregate MB/s by (workers kind, op) then worker count. */
    private record Figures(BulkConfig config, long bytes, Map<String, Map<Integer, Double>> byMode) {
    }

    @Override
    public void run(BenchContext context) throws Exception {
        if (launched.isPresent()) {
            LaunchedApproaches.run(context, launched.get());
            return;
        }
        BenchOptions options = context.options();
        long count = options.sizeOr(DEFAULT_SIZE, QUICK_SIZE) / 4;
        long prefixCount = Math.min(count, (options.quick() ? QUICK_PREFIX_BYTES : PREFIX_BYTES) / 4);
        List<Integer> workerCounts = options.threads();
        SuiteReport report = context.report();
        report.param("element", "int (4 bytes)").param("size-bytes", count * 4)
                .param("size", BenchOptions.formatSize(count * 4))
                .param("prefix-for-slow-configurations", BenchOptions.formatSize(prefixCount * 4))
                .param("workers", workerCounts).param("repetitions-threads", options.repetitions())
                .param("repetitions-processes", options.quick() ? "1 (no warm-up run; quick: only at "
                        + workerCounts.stream().max(Integer::compare).orElse(1) + " processes)" : (Object) 1).param("statistic", "median")
                .param("page-cache", "warm (file read once before timing)")
                .param("writes", Trials.WRITES);

        List<BulkConfig> configs = BulkSuite.configs(context);
        int maxWorkers = workerCounts.stream().max(Integer::compare).orElse(1);
        Trials trials = new Trials(options.repetitions()).quick(options.quick());
        Trials once = new Trials(1).quick(options.quick());
        if (options.quick()) {
            once.withoutWarmUp();
        }
        List<Figures> figures;
        try (BulkFiles files = BulkFiles.create(context.workDir(), "ints", Elements.INT, count);
             Progress progress = context.progress("configurations", configs.size())) {
            figures = Rounds.of(1, BulkConfig::name).run(configs, (c, warmUp) -> {
                Path input = files.input(c.order());
                Object[] probe = buffers(count, 1);
                long n = trials.extent(c, new Plan(input, Elements.INT, count, 1, c.order()),
                        new Plan(input, Elements.INT, prefixCount, 1, c.order()), probe).count();
                PageCache.warm(input);
                Map<String, Map<Integer, Double>> byMode = new LinkedHashMap<>();
                for (BulkConfig.Workers kind : List.of(BulkConfig.Workers.THREADS, BulkConfig.Workers.PROCESSES)) {
                    Trials t = kind == BulkConfig.Workers.THREADS ? trials : once;
                    for (int w : counts(kind, workerCounts, options.quick())) {
                        measure(c, files, n, kind, w, t, byMode);
                    }
                }
                return new Figures(c, n * 4, byMode);
            }, report, progress);
        }
        report(report, figures, workerCounts, options.quick(), count * 4, maxWorkers);
    }

    /**
     * The worker counts {@code kind} runs at: all of them, except that a quick run starts processes only at the
     * largest count (every process is a JVM of its own; one process is one thread's figure again).
     */
    static List<Integer> counts(BulkConfig.Workers kind, List<Integer> workerCounts, boolean quick) {
        if (kind == BulkConfig.Workers.PROCESSES && quick) {
            return List.of(workerCounts.stream().max(Integer::compare).orElse(1));
        }
        return workerCounts;
    }

    /** Reads and writes {@code n} ints of {@code c} with {@code workers} workers of {@code kind}; MB/s into {@code byMode}. */
    private static void measure(BulkConfig c, BulkFiles files, long n, BulkConfig.Workers kind, int workers, Trials t,
                                Map<String, Map<Integer, Double>> byMode) throws Exception {
        Object[] perWorker = kind == BulkConfig.Workers.THREADS ? buffers(n, workers) : null;
        Plan read = new Plan(files.input(c.order()), Elements.INT, n, workers, c.order());
        long expected = TestData.expectedChecksum(0, n, 4);
        double readSeconds = t.read(c, read, kind, perWorker, expected, false);
        Plan write = new Plan(files.output(), Elements.INT, n, workers, c.order());
        double writeSeconds = t.write(c, write, kind, perWorker);
        String mode = kind == BulkConfig.Workers.THREADS ? "threads" : "processes";
        byMode.computeIfAbsent(mode + " read", k -> new LinkedHashMap<>())
                .put(workers, Stats.mbPerSecond(read.bytes(), readSeconds));
        byMode.computeIfAbsent(mode + " write", k -> new LinkedHashMap<>())
                .put(workers, Stats.mbPerSecond(write.bytes(), writeSeconds));
    }

    private static Object[] buffers(long count, int workers) {
        Plan shape = new Plan(Path.of("."), Elements.INT, count, workers, ByteOrder.BIG_ENDIAN);
        Object[] buffers = new Object[workers];
        for (int i = 0; i < workers; i++) {
            buffers[i] = new int[shape.length(i)];
        }
        return buffers;
    }

    private static void report(SuiteReport report, List<Figures> figures, List<Integer> workerCounts, boolean quick,
                               long fullBytes, int maxWorkers) {
        for (String mode : List.of("threads read", "threads write", "processes read", "processes write")) {
            List<Integer> counts = counts(mode.startsWith("threads") ? BulkConfig.Workers.THREADS
                    : BulkConfig.Workers.PROCESSES, workerCounts, quick);
            List<String> columns = new ArrayList<>(List.of("configuration", "data"));
            counts.forEach(w -> columns.add(w + (mode.startsWith("threads") ? " threads" : " processes")));
            Table table = new Table("Aggregate MB/s, " + mode, columns);
            Chart chart = new Chart("approaches-" + mode.replace(' ', '-'), "Shared file of ints, " + mode,
                    mode.startsWith("threads") ? "threads" : "processes", "aggregate MB/s", Chart.Kind.LINE);
            for (Figures f : figures) {
                Map<Integer, Double> values = f.byMode().get(mode);
                List<String> row = new ArrayList<>(List.of(f.config().name(),
                        BenchOptions.formatSize(f.bytes()) + (f.bytes() < fullBytes ? " (prefix)" : "")));
                List<Double> xs = new ArrayList<>();
                List<Double> ys = new ArrayList<>();
                for (int w : counts) {
                    double v = values.get(w);
                    row.add(format("%.0f", v));
                    xs.add((double) w);
                    ys.add(v);
                    String suffix = (mode.startsWith("threads") ? "-t" : "-p") + w;
                    report.result(f.config().name() + suffix, mode.endsWith("read") ? "read" : "write", v, "MB/s");
                }
                table.row(row);
                chart.add(Chart.Series.line(f.config().name(), xs, ys));
            }
            table.note("Names in the JSON: CONFIG-tN (N threads of one process) and CONFIG-pN (N processes). "
                    + "Every read checksum and written file checked against the generator.");
            report.table(table);
            report.chart(chart);
        }
        report.note("Process rows include no JVM start-up: each Java worker fills its array and does its block once "
                + "untimed (a write on a scratch file), then all start together at a barrier; each reports its own "
                + "I/O time and the slowest one counts. One repetition per process count.");
        report.note("Thread rows: the time runs from the first worker's start to the last one's end.");
        report.note("The machine has " + Runtime.getRuntime().availableProcessors() + " cores; up to " + maxWorkers
                + " workers were run.");
    }
}
