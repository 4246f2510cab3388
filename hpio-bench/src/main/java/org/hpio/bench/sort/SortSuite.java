package org.hpio.bench.sort;

import org.hpio.bench.io.CProgram;
import org.hpio.bench.io.DataFiles;
import org.hpio.bench.io.Elements;
import org.hpio.bench.io.PageCache;
import org.hpio.bench.report.Medians;
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
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

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
     * Every configuration at every chunk size on one input, rounds interleaved; each run checked. With
     * {@code warmUp} (the first size), round -1 warms every configuration up untimed ({@link #warmUp}), still checked.
     */
    private static List<SortRun> measureSize(BenchContext context, SortSettings settings, List<SortConfig> configs,
                                             Path in, Path out, boolean warmUp) throws IOException {
        long size = Files.size(in);
        MultisetHash expected = MultisetHash.of(in);
        BenchOptions options = context.options();
        int rounds = options.repetitions();
        List<SortRun> runs = new ArrayList<>();
        Set<String> failed = new HashSet<>();
        try (Progress progress = context.progress("sorting " + BenchOptions.formatSize(size),
                (long) settings.chunks().size() * (rounds + (warmUp ? 1 : 0)) * configs.size())) {
            for (long chunk : settings.chunks())
            for (int round = warmUp ? -1 : 0; round < rounds; round++)
            for (SortConfig config : configs) {
                progress.message(config.name() + ", " + SortSettings.label(chunk) + " chunks");
                progress.step();
                String why = notRun(config, settings, size, chunk);
                String key = config.name() + "/" + chunk;
                if (why != null || failed.contains(key)) {
                    if (round == rounds - 1 && why != null) {
                        runs.add(SortRun.skipped(config.name(), size, chunk, why));
                    }
                    continue;
                }
                try {
                    if (round < 0) {
                        warmUp(config, options, in, out, chunk, expected);
                        continue;
                    }
                    SortTimes.Breakdown times = once(config, options, in, out, chunk, expected);
                    runs.add(SortRun.measured(config.name(), size, chunk, times));
                } catch (IOException | RuntimeException e) {
                    failed.add(key);
                    context.report().failure(config.name() + " (" + SortSettings.label(size) + ", "
                            + SortSettings.label(chunk) + " chunks)", e);
                }
            }
        }
        return runs;
    }

    /**
     * The untimed warm-up of {@code config}: runs (checked) until it has run for {@link #WARM_UP_NANOS} or
     * {@link #WARM_UP_RUNS} times, so that the JIT has compiled its paths before the first timed run; one run at
     * the first size is too few calls for that when a run takes milliseconds (at 16 MiB, 512 KiB chunks: 64
     * requests), and the configurations with the most code on the path would pay for it in their times.
     */
    private static void warmUp(SortConfig config, BenchOptions options, Path in, Path out, long chunk,
                               MultisetHash expected) throws IOException {
        long start = System.nanoTime();
        long limit = options.quick() ? QUICK_WARM_UP_NANOS : WARM_UP_NANOS;
        for (int i = 0; i < WARM_UP_RUNS && System.nanoTime() - start < limit; i++) {
            once(config, options, in, out, chunk, expected);
        }
    }

    static final long WARM_UP_NANOS = 1_000_000_000L;
    /** {@link #WARM_UP_NANOS} in a quick run ({@code hpio bench} without {@code --full}). */
    static final long QUICK_WARM_UP_NANOS = 300_000_000L;
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

    static String seconds(double value) {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%.3f", value);
    }

    static OptionalDouble find(List<SortRun> runs, String config, long size, long chunk,
                               java.util.function.ToDoubleFunction<SortRun> figure) {
        return runs.stream().filter(r -> r.ran() && r.config().equals(config) && r.size() == size && r.chunk() == chunk)
                .mapToDouble(figure).findFirst();
    }
}
