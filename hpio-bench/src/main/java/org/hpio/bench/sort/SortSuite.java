package org.hpio.bench.sort;

import org.hpio.bench.data.DataFiles;
import org.hpio.bench.data.Elements;
import org.hpio.bench.machine.CProgram;
import org.hpio.bench.machine.PageCache;
import org.hpio.bench.measure.Medians;
import org.hpio.bench.measure.Rounds;
import org.hpio.bench.measure.WarmUp;
import org.hpio.bench.report.Progress;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suite;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * {@code hpio bench sort}: the external merge sort benchmark of 000 §5 on today's machine. The initial pass
 * (read a chunk, sort it, write it) for every configuration of Table 1, nio, mmap and C, at each input and chunk
 * size; Table 2's breakdown, Figures 6 and 7's throughput, an O_DIRECT run, and with {@code --full} the whole
 * sort against a lower bound measured in the same run. Every output is checked before its figure counts.
 */
public final class SortSuite implements Suite {
    static final String OUTPUT = "sort-out.bin";

    @Override
    public String name() {
        return "sort";
    }

    @Override
    public String summary() {
        return "external merge sort, initial pass per I/O configuration (000 §5, Table 2, Figures 6-7); --full merges too";
    }

    @Override
    public void run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        SortSettings settings = SortSettings.from(options);
        List<SortConfig> configs = configs(context);
        SuiteReport report = context.report();
        params(report, options, settings, configs);
        Path out = context.workDir().resolve(OUTPUT);
        List<SortRun> runs = new ArrayList<>();
        Optional<FullSortRun.Figures> full = Optional.empty();
        Path largest = null;
        try {
            for (long size : settings.sizes()) {
                Path in = input(context, size);
                runs.addAll(measureSize(context, settings, configs, in, out, size == settings.sizes().getFirst()));
                if (size == settings.largestSize()) {
                    largest = in;
                } else {
                    Files.deleteIfExists(in);
                }
            }
            if (settings.full()) {
                full = FullSortRun.run(context, largest, out, settings.memory());
            }
        } finally {
            Files.deleteIfExists(out);
            if (largest != null) {
                Files.deleteIfExists(largest);
            }
        }
        SortReport.write(report, settings, configs, medians(runs));
        full.ifPresent(f -> FullSortRun.report(report, f));
        SortTargets.write(report, settings, medians(runs), full);
    }

    /** The configurations asked for (C ones when a compiler is there); an unknown name is an error naming the known. */
    static List<SortConfig> configs(BenchContext context) throws IOException {
        BenchOptions options = context.options();
        List<String> known = SortConfig.names();
        for (String name : options.configs()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("sort has no configuration named '" + name + "'; known: "
                        + String.join(", ", known));
            }
        }
        Optional<CProgram> c = options.includes("c") || options.includes("c-direct")
                ? context.cProgram(CSort.PROGRAM) : Optional.empty();
        return SortConfig.all(c).stream().filter(s -> options.includes(s.name())).toList();
    }

    /** The input of {@code size} bytes: the generator's longs, big-endian, forced. */
    private static Path input(BenchContext context, long size) throws IOException {
        Path in = context.workDir().resolve("sort-in-" + SortSettings.label(size) + ".bin");
        try (Progress progress = context.progress("writing " + in.getFileName(), 0)) {
            DataFiles.create(in, Elements.LONG, size / Long.BYTES, ByteOrder.BIG_ENDIAN);
        }
        return in;
    }

    /**
     * Every configuration at every chunk size on one input, rounds interleaved per chunk size; each run checked. With
     * {@code warmUp} (the first size), round -1 warms every configuration up untimed ({@link #warmUp}), still checked.
     */
    private static List<SortRun> measureSize(BenchContext context, SortSettings settings, List<SortConfig> configs,
                                             Path in, Path out, boolean warmUp) throws IOException, InterruptedException {
        long size = Files.size(in);
        MultisetHash expected = MultisetHash.of(in);
        BenchOptions options = context.options();
        int warmUpRounds = warmUp ? 1 : 0;
        List<SortRun> runs = new ArrayList<>();
        try (Progress progress = context.progress("sorting " + BenchOptions.formatSize(size),
                (long) settings.chunks().size() * (options.repetitions() + warmUpRounds) * configs.size())) {
            for (long chunk : settings.chunks()) {
                List<SortConfig> running = new ArrayList<>();
                for (SortConfig config : configs) {
                    String why = notRun(config, settings, size, chunk);
                    if (why == null) {
                        running.add(config);
                    } else {
                        runs.add(SortRun.skipped(config.name(), size, chunk, why));
                        progress.stepBy(options.repetitions() + warmUpRounds);
                    }
                }
                Rounds<SortConfig> rounds = Rounds.<SortConfig>of(options.repetitions(), c -> c.name() + " ("
                        + SortSettings.label(size) + ", " + SortSettings.label(chunk) + " chunks)")
                        .warmUpRounds(warmUpRounds).droppingFailed();
                runs.addAll(rounds.run(running, (config, warm) -> {
                    if (warm) {
                        warmUp(config, options, in, out, chunk, expected);
                        return null;
                    }
                    return SortRun.measured(config.name(), size, chunk, once(config, options, in, out, chunk, expected));
                }, context.report(), progress));
            }
        }
        return runs;
    }

    /**
     * The untimed warm-up of {@code config}: runs (checked) until it has run for {@link WarmUp#NANOS} or
     * {@link #WARM_UP_RUNS} times, so that the JIT has compiled its paths before the first timed run; one run at
     * the first size is too few calls for that when a run takes milliseconds (at 16 MiB, 512 KiB chunks: 64
     * requests), and the configurations with the most code on the path would pay for it in their times.
     */
    private static void warmUp(SortConfig config, BenchOptions options, Path in, Path out, long chunk,
                               MultisetHash expected) throws IOException {
        WarmUp.of(0, WARM_UP_RUNS, options.quick()).repeat(() -> once(config, options, in, out, chunk, expected));
    }

    static final int WARM_UP_RUNS = 40;

    /** Why {@code config} does not run at this size and chunk, or null when it does. */
    static String notRun(SortConfig config, SortSettings settings, long size, long chunk) {
        if (config.perLong() && size > settings.unbufferedMax()) {
            return "one system call per long; capped at " + BenchOptions.formatSize(settings.unbufferedMax())
                    + " (-D" + SortSettings.UNBUFFERED_PROPERTY + ")";
        }
        if (config.direct() && (size % ExternalSort.ALIGN != 0 || chunk % ExternalSort.ALIGN != 0)) {
            return "O_DIRECT needs sizes in multiples of " + ExternalSort.ALIGN + " bytes";
        }
        return null;
    }

    /** One run: the page cache made warm or cold as asked, the output made afresh, checked, then deleted. */
    private static SortTimes.Breakdown once(SortConfig config, BenchOptions options, Path in, Path out, long chunk,
                                            MultisetHash expected) throws IOException {
        if (!config.direct()) {
            if (options.cache().warm()) {
                PageCache.warm(in);
            } else {
                PageCache.drop(in);
            }
        }
        Files.deleteIfExists(out);
        try {
            SortTimes.Breakdown times = config.run(in, out, (int) (chunk / Long.BYTES));
            SortCheck.verify(config.name(), out, expected, chunk / Long.BYTES);
            return times;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** Of each configuration's rounds at a size and chunk, the one with the median total time. */
    static List<SortRun> medians(List<SortRun> runs) {
        List<SortRun> measured = runs.stream().filter(SortRun::ran).toList();
        List<SortRun> result = new ArrayList<>(Medians.byName(measured, SortRun::key, r -> r.times().total()));
        runs.stream().filter(r -> !r.ran()).forEach(result::add);
        return result;
    }

    private static void params(SuiteReport report, BenchOptions options, SortSettings settings,
                               List<SortConfig> configs) {
        report.param("sizes", String.join(", ", settings.sizes().stream().map(BenchOptions::formatSize).toList()))
                .param("chunks", String.join(", ", settings.chunks().stream().map(BenchOptions::formatSize).toList()))
                .param("element", "long (8 bytes), big-endian; values splitmix64(i), i.e. random")
                .param("configurations", String.join(", ", configs.stream().map(SortConfig::name).toList()))
                .param("repetitions", options.repetitions() + " (rounds interleaved per size; median total reported)")
                .param("sort", "java.util.Arrays.sort(long[], from, to) for every Java configuration; C: quicksort")
                .param("page-cache", cacheState(options))
                .param("unbuffered-max", BenchOptions.formatSize(settings.unbufferedMax()) + " (raf and ds are "
                        + "not run on larger inputs: one system call per long)")
                .param("checks", "every output: as many longs as the input, each chunk ascending, and the input's "
                        + "multiset (count + two mixed sums), read back with the JDK");
    }

    private static String cacheState(BenchOptions options) {
        String buffered = options.cache().warm()
                ? "buffered rows: input warm (read once before each run)"
                : "buffered rows: input cold (fdatasync + posix_fadvise DONTNEED before each run)";
        return buffered + ", output a new file written into the page cache and not forced (so write-behind as in "
                + "000 §5.3), deleted after its check; -direct rows: O_DIRECT on input and output, page cache bypassed"
                + (options.cache() == BenchOptions.CacheMode.BOTH ? " (--cache both: the -direct rows are the cold run)" : "");
    }

    static OptionalDouble find(List<SortRun> runs, String config, long size, long chunk,
                               ToDoubleFunction<SortRun> figure) {
        return runs.stream().filter(r -> r.ran() && r.config().equals(config) && r.size() == size && r.chunk() == chunk)
                .mapToDouble(figure).findFirst();
    }
}
