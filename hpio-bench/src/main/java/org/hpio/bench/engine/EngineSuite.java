package org.hpio.bench.engine;

import org.hpio.IoMemory;
import org.hpio.bench.machine.PageCache;
import org.hpio.bench.measure.JitQuiet;
import org.hpio.bench.measure.Medians;
import org.hpio.bench.measure.Rounds;
import org.hpio.bench.report.Progress;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * {@code hpio bench engine}: 4 KiB random O_DIRECT reads at several queue depths with hpio's io_uring and
 * portable engines, AsynchronousFileChannel (default pool, and a pool of QD threads), FileChannel from one
 * thread, and fio's io_uring engine as the C reference; 1 MiB sequential O_DIRECT reads and writes; 4 KiB
 * reads from a warm page cache. IOPS, CPU time and context switches per I/O, latency percentiles, and the
 * issue's target ratios, all from one run on one file (default 1 GiB, made once and deleted at the end).
 */
public final class EngineSuite implements Suite {
    static final long DEFAULT_SIZE = 1L << 30;
    /** The file size of a quick run ({@code hpio bench} without {@code --full}). */
    static final long QUICK_SIZE = 256L << 20;

    private final EngineSettings settings;

    public EngineSuite() {
        this(null);
    }

    /** With fixed settings (tests); null: {@link EngineSettings#defaults()} when the suite runs. */
    EngineSuite(EngineSettings settings) {
        this.settings = settings;
    }

    @Override
    public String name() {
        return "engine";
    }

    @Override
    public String summary() {
        return "4 KiB random and 1 MiB sequential O_DIRECT I/O with hpio's engines, the JDK's channels and fio";
    }

    @Override
    public void run(BenchContext context) throws Exception {
        EngineSettings s = settings != null ? settings : EngineSettings.defaults(context.options().quick());
        BenchOptions options = context.options();
        long size = options.sizeOr(DEFAULT_SIZE, QUICK_SIZE) / (1 << 20) * (1 << 20);
        PatternFile.requireChunks(size);
        SuiteReport report = context.report();
        List<EngineSuiteConfig> runs = EnginePlan.plan(options, s, size);
        Optional<Fio> fio = Optional.empty();
        if (runs.stream().anyMatch(r -> r.mechanism() == Mechanism.FIO)) {
            fio = Fio.find();
            if (fio.isEmpty()) {
                report.note("fio rows left out: " + Fio.INSTALL + ".");
                runs = runs.stream().filter(r -> r.mechanism() != Mechanism.FIO).toList();
            }
        }
        params(report, s, size, fio);

        Path dir = context.workDir();
        Path data = dir.resolve("engine-data.bin");
        Path scratch = dir.resolve("engine-write.bin");
        List<Figures> figures = new ArrayList<>();
        try {
            prepare(context, data, size);
            if (runs.stream().anyMatch(r -> r.workload().writes())) {
                prepare(context, scratch, size);
            }
            if (runs.stream().anyMatch(r -> !r.workload().direct())) {
                PageCache.warm(data);
                describeWarm(report, data);
            }
            figures.addAll(medians(measureRounds(context, runs, s, data, scratch, fio)));
        } finally {
            Files.deleteIfExists(data);
            Files.deleteIfExists(scratch);
        }
        EngineReport.write(report, figures, s);
    }

    /** Every run in {@code s.rounds()} rounds, every other one in reverse order; buffered runs on a warm file. */
    private static List<Figures> measureRounds(BenchContext context, List<EngineSuiteConfig> runs, EngineSettings s, Path data,
                                               Path scratch, Optional<Fio> fio) throws InterruptedException {
        Rounds<EngineSuiteConfig> rounds = Rounds.of(s.rounds(), EngineSuiteConfig::configuration).alternating();
        try (Progress progress = context.progress("configurations", rounds.steps(runs.size()))) {
            return rounds.run(runs, (run, warmUp) -> {
                if (!run.workload().direct()) {
                    PageCache.warm(data);
                }
                return run.measure(run.workload().writes() ? scratch : data, s, fio);
            }, context.report(), progress);
        }
    }

    /**
     * Of each configuration's rounds, the one with the median rate. The rounds run interleaved (every
     * configuration once, then again), so a noisy neighbour on a shared machine weighs on all of them alike.
     */
    static List<Figures> medians(List<Figures> measured) {
        return Medians.byName(measured, Figures::configuration, Figures::iops);
    }

    /** Writes the pattern file, forced, then drops it from the page cache so that every run starts alike. */
    private static void prepare(BenchContext context, Path file, long size) throws IOException {
        try (Progress progress = context.progress("writing " + file.getFileName(), size)) {
            PatternFile.create(file, size, progress);
        }
        PageCache.drop(file);
    }

    private static void params(SuiteReport report, EngineSettings s, long size, Optional<Fio> fio) {
        report.param("file-size-bytes", size).param("file-size", BenchOptions.formatSize(size))
                .param("random-block", "4 KiB, 4 KiB-aligned offsets uniform over the file (SplittableRandom, seed "
                        + EngineSuiteConfig.SEED + ")")
                .param("sequential-block", "1 MiB, from offset 0, wrapping at the end of the file")
                .param("queue-depths-random", depths(s.randomDepths()))
                .param("queue-depths-sequential", depths(s.sequentialDepths()))
                .param("queue-depths-warm", depths(s.warmDepths()))
                .param("seconds-per-configuration", s.seconds())
                .param("rounds", s.rounds() + " (every configuration once per round, every other round in reverse "
                        + "order; the round with the median rate is reported)")
                .param("warm-up-seconds", String.format(Locale.ROOT, "%.2f (same driver, untimed, checked), then more, "
                        + "slice by slice, until the JIT's compiler threads used under %.0f%% of a slice (at most %d "
                        + "times the warm-up)", s.warmupSeconds(), JitQuiet.QUIET_SHARE * 100,
                        JitQuiet.MAX_EXTRA_PER_WARMUP))
                .param("buffers", "each mechanism's own way: hpio's engines IoMemory.allocate (one segment per driver, "
                        + "sliced per slot; from 1 MiB in transparent huge pages where the kernel grants them: "
                        + (IoMemory.hugePages() ? "here yes" : "not here") + ", so a 1 MiB read is one device segment); "
                        + "FileChannel and AsynchronousFileChannel allocateDirect(size + 4096).alignedSlice(4096); fio "
                        + "its default (malloc). The latter two get 4 KiB pages wherever the kernel finds them (only "
                        + "the transparent huge page setting 'always' would give them huge pages; here '"
                        + transparentHugePages() + "'): a 1 MiB read into them is up to 256 segments")
                .param("page-cache", "O_DIRECT rows bypass it (cold by construction); warm rows read buffered after "
                        + "the file was read once")
                .param("cpu-per-io", "process CPU time (user + system, all threads, getProcessCpuTime) over the timed "
                        + "run / I/Os; fio: its job's (usr_cpu + sys_cpu) x runtime / I/Os; 'of which JIT': the C1 and "
                        + "C2 compiler threads' part (schedstat), which the CPU targets leave out (the path's "
                        + "steady-state cost, as in bench nio): in two of six quick runs the first suite's uring-qd32 "
                        + "took 14.7-16.0 µs a read against 5.0-5.7 in the others")
                .param("ctx-per-io", "voluntary + involuntary context switches summed over /proc/self/task/*/status "
                        + "(threads alive after the run) / I/Os; fio: its job's ctx / I/Os")
                .param("latency", "per I/O, from just before the submitting call to the completion callback "
                        + "(FileChannel: around the call; fio: lat_ns), log-linear histogram within 1.6%")
                .param("cores", Runtime.getRuntime().availableProcessors())
                .param("fio", fio.map(Fio::version).orElse("not installed"));
    }

    /** The kernel's transparent huge page setting (the bracketed word of its sysfs file), or "unknown". */
    private static String transparentHugePages() {
        try {
            String setting = Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled"));
            int open = setting.indexOf('[');
            int close = setting.indexOf(']', open + 1);
            return open >= 0 && close > open ? setting.substring(open + 1, close) : "unknown";
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static void describeWarm(SuiteReport report, Path data) {
        OptionalDouble resident = PageCache.residentShare(data);
        report.param("page-cache-warm-resident", resident.isPresent()
                ? String.format(Locale.ROOT, "%.1f%% of the file, by fincore, after reading it once", 100 * resident.getAsDouble())
                : "not measured: no fincore");
    }

    private static String depths(List<Integer> depths) {
        return depths.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
