package org.hpio.bench.nio;

import org.hpio.bench.engine.EngineBaseline;
import org.hpio.bench.machine.PageCache;
import org.hpio.bench.measure.BlockQueue;
import org.hpio.bench.measure.JitQuiet;
import org.hpio.bench.measure.Medians;
import org.hpio.bench.measure.Rounds;
import org.hpio.bench.report.Progress;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suite;
import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngines;
import org.hpio.internal.sys.NativeAccess;
import org.hpio.internal.sys.UringRing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code hpio bench nio} (issue 17): the JDK's own file channel API, once on the JDK's provider and once on
 * hpio's (installed for the whole JVM with -Djava.nio.file.spi.DefaultFileSystemProvider), each row in a JVM of
 * its own. (a) 003's experiment: writes submitted without waiting in a 64 MiB heap; (b)
 * AsynchronousFileChannel 4 KiB random O_DIRECT reads at queue depths 1, 4 and 32, beside the engine suite's
 * {@code uring-qd32} measured in this run; (c) 1,000 and 10,000 virtual threads reading 4 KiB at random
 * through one O_DIRECT FileChannel. IOPS, CPU per I/O, latency, the process's peak count of OS threads, the
 * flood's peak heap and pending writes; and the targets.
 */
public final class NioSuite implements Suite {
    /** Longest a row's JVM may take before it counts as hung. */
    private static final long ROW_TIMEOUT_SECONDS = 300;

    private final NioSettings settings;

    public NioSuite() {
        this(null);
    }

    /** With fixed settings (tests); null: {@link NioSettings#of} the options when the suite runs. */
    NioSuite(NioSettings settings) {
        this.settings = settings;
    }

    @Override
    public String name() {
        return "nio";
    }

    @Override
    public String summary() {
        return "the JDK's AsynchronousFileChannel and FileChannel on the JDK's provider and on hpio's: 003's write "
                + "flood, 4 KiB random O_DIRECT reads at QD 1-32, 1,000 and 10,000 virtual threads, 2,000 into heap "
                + "buffers";
    }

    @Override
    public void run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        NioSettings s = settings != null ? settings : NioSettings.of(options);
        SuiteReport report = context.report();
        List<NioConfig> reads = select(readConfigs(s), options.configs());
        List<NioConfig> floods = select(floodConfigs(), options.configs());
        params(report, s);
        Optional<String> sqPollRefused = reads.stream().anyMatch(NioConfig::sqPoll) ? sqPollRefusal() : Optional.empty();
        if (sqPollRefused.isPresent()) {
            reads = reads.stream().filter(r -> !r.sqPoll()).toList();
            report.note("The " + NioConfig.HPIO_SQPOLL + " rows were left out: " + sqPollRefused.get());
        }
        Path dir = context.workDir();
        Path data = dir.resolve("nio-data.bin");
        report.param("device", BlockQueue.describeDeviceOf(dir));
        List<NioConfig.Measured> measured = new ArrayList<>();
        try {
            if (reads.stream().anyMatch(r -> !r.smallFiles() && !r.firstCall())) {
                try (Progress progress = context.progress("writing " + data.getFileName(), s.fileSize())) {
                    EngineBaseline.createPatternFile(data, s.fileSize(), progress);
                }
                PageCache.drop(data);
            }
            if (reads.stream().anyMatch(r -> r.smallFiles() || r.firstCall())) {
                SmallFileReads.create(dir, NioSettings.SMALL_FILE_BYTES);
            }
            // (c)'s rows, whose ratio is a target, and (f)'s, one cold JVM each (a single sample moves 2-5x): more rounds
            List<NioConfig> vthreadReads = reads.stream()
                    .filter(r -> r.section().equals(NioConfig.VTHREADS) || r.firstCall()).toList();
            List<NioConfig> otherReads = reads.stream().filter(r -> !vthreadReads.contains(r)).toList();
            Rounds<NioConfig> rounds = Rounds.of(s.rounds(), NioConfig::configuration).alternating();
            Rounds<NioConfig> vthreadRounds = Rounds.of(s.vthreadRounds(), NioConfig::configuration).alternating();
            Rounds<NioConfig> once = Rounds.of(1, NioConfig::configuration);
            try (Progress progress = context.progress("rows", rounds.steps(otherReads.size())
                    + vthreadRounds.steps(vthreadReads.size()) + once.steps(floods.size()))) {
                List<NioConfig.Measured> readRounds = new ArrayList<>(rounds.run(otherReads,
                        (config, warmUp) -> read(config, data, s, dir), report, progress));
                readRounds.addAll(vthreadRounds.run(vthreadReads, (config, warmUp) -> read(config, data, s, dir), report,
                        progress));
                measured.addAll(Medians.byName(readRounds, NioConfig.Measured::name,
                        m -> m.config().firstCall() ? m.number("first-call-ms") : m.number("iops")));
                measured.addAll(once.run(floods, (config, warmUp) -> flood(config, s, dir), report, progress));
            }
        } finally {
            Files.deleteIfExists(data);
            SmallFileReads.delete(dir, NioSettings.SMALL_FILE_BYTES);
        }
        NioReport.write(report, measured, s);
    }

    /**
     * Why this machine cannot give a ring a kernel submission thread (io_uring or native calls missing, SQPOLL
     * refused), or empty when it can: asked by setting up, and closing, a small such ring.
     */
    static Optional<String> sqPollRefusal() {
        if (!NativeAccess.available()) {
            return Optional.of("native calls are off (" + NativeAccess.unavailableReason() + ")");
        }
        try (UringRing ring = UringRing.createKernelSubmitting(8, 16, NioConfig.SQ_POLL_IDLE_MILLIS)) {
            return ring.kernelSubmits() ? Optional.empty() : Optional.of("SQPOLL not granted");
        } catch (IOException | RuntimeException e) {
            return Optional.of("io_uring refused a kernel submission thread: " + e.getMessage());
        }
    }

    /**
     * (b) and (c), each JDK row beside its hpio row; the engine's uring-qd32 after (b), and after (c) the engine's
     * uring-qd256: one thread keeping as many reads in flight as hpio's channel can, the machine's io_uring at
     * that depth.
     */
    static List<NioConfig> readConfigs(NioSettings s) {
        List<NioConfig> runs = new ArrayList<>();
        for (int depth : s.depths()) {
            runs.add(new NioConfig(NioConfig.AFC, "jdk", depth));
            runs.add(new NioConfig(NioConfig.AFC, "hpio", depth));
        }
        if (s.depths().contains(NioSettings.TARGET_DEPTH)) {
            runs.add(new NioConfig(NioConfig.URING, "engine", NioSettings.TARGET_DEPTH));
        }
        for (int threads : s.threads()) {
            runs.add(new NioConfig(NioConfig.VTHREADS, "jdk", threads));
            runs.add(new NioConfig(NioConfig.VTHREADS, "hpio", threads));
            runs.add(new NioConfig(NioConfig.VTHREADS, NioConfig.HPIO_SQPOLL, threads));
            runs.add(new NioConfig(NioConfig.VTHREADS, NioConfig.HPIO_ONE_RING, threads));
        }
        if (!s.threads().isEmpty()) {
            runs.add(new NioConfig(NioConfig.URING, "engine", NioSettings.VTHREADS_REFERENCE_DEPTH));
        }
        runs.add(new NioConfig(NioConfig.HEAP, "jdk", NioSettings.HEAP_THREADS));
        runs.add(new NioConfig(NioConfig.HEAP, "hpio", NioSettings.HEAP_THREADS));
        runs.add(new NioConfig(NioConfig.SMALL, "jdk", NioSettings.SMALL_FILE_BYTES));
        runs.add(new NioConfig(NioConfig.SMALL, "hpio", NioSettings.SMALL_FILE_BYTES));
        runs.add(new NioConfig(NioConfig.SMALL_VT, "jdk", NioSettings.SMALL_FILE_BYTES));
        runs.add(new NioConfig(NioConfig.SMALL_VT, "hpio", NioSettings.SMALL_FILE_BYTES));
        runs.add(new NioConfig(NioConfig.SMALL_VT_EACH, "jdk", NioSettings.SMALL_FILE_BYTES));
        runs.add(new NioConfig(NioConfig.SMALL_VT_EACH, "hpio", NioSettings.SMALL_FILE_BYTES));
        for (String kind : NioConfig.FIRST_KINDS) {
            for (int pause : List.of(0, NioSettings.FIRST_CALL_PAUSE_MILLIS)) {
                runs.add(new NioConfig(kind, "jdk", pause));
                runs.add(new NioConfig(kind, "hpio", pause));
            }
        }
        return runs;
    }

    static List<NioConfig> floodConfigs() {
        return List.of(new NioConfig(NioConfig.FLOOD, "jdk", 0), new NioConfig(NioConfig.FLOOD, "hpio", 0));
    }

    /**
     * {@code --configs}: whole names ({@code hpio-afc-qd32}, {@code uring-qd32}), kinds ({@code afc} and
     * {@code vthreads}, each with its uring row; {@code heap}, {@code flood}; {@code small}, the small files' rows
     * from every kind of thread, {@code small-vt} one virtual thread's alone, {@code small-vt-each} a virtual
     * thread's per call alone; {@code first}, the first-call rows,
     * {@code first-read}, {@code first-write}, {@code first-read-vt}, {@code first-write-vt}, {@code first-async-read} and
     * {@code first-async-write} each kind's) or providers ({@code jdk},
     * {@code hpio}); empty: all.
     */
    static List<NioConfig> select(List<NioConfig> runs, List<String> names) {
        if (names.isEmpty()) {
            return runs;
        }
        List<String> known = new ArrayList<>(List.of("afc", "vthreads", NioConfig.HEAP, "flood", NioConfig.SMALL,
                NioConfig.SMALL_VT, NioConfig.SMALL_VT_EACH, NioConfig.FIRST, NioConfig.FIRST_READ, NioConfig.FIRST_WRITE,
                NioConfig.FIRST_READ_VT, NioConfig.FIRST_WRITE_VT, NioConfig.FIRST_ASYNC_READ,
                NioConfig.FIRST_ASYNC_WRITE, "jdk", "hpio",
                NioConfig.HPIO_SQPOLL,
                NioConfig.HPIO_ONE_RING));
        List<NioConfig> all = new ArrayList<>(runs);
        all.addAll(floodConfigs());
        NioSettings full = new NioSettings(1L << 20, 1, 0, 1, 1, List.of(1, 4, NioSettings.TARGET_DEPTH),
                List.of(1000, 10_000), 1, 1, "64m");
        readConfigs(full).forEach(r -> known.add(r.configuration()));
        floodConfigs().forEach(r -> known.add(r.configuration()));
        for (String name : names) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("no nio configuration named '" + name + "'; known: "
                        + String.join(", ", known));
            }
        }
        return runs.stream().filter(r -> names.contains(r.configuration()) || names.contains(r.provider())
                || names.contains(r.kind())
                || (r.kind().equals(NioConfig.URING) || r.smallFiles() || r.firstCall())
                && names.contains(r.section())).toList();
    }

    private static NioConfig.Measured read(NioConfig config, Path data, NioSettings s, Path dir) throws Exception {
        if (config.kind().equals(NioConfig.URING)) {
            EngineBaseline.Figures f = EngineBaseline.uringRandomReads(data, s.fileSize(), config.parameter(),
                    s.seconds(), s.warmupSeconds());
            Map<String, String> figures = new LinkedHashMap<>();
            figures.put("channel", "hpio engine, this JVM (the engine suite's driver)");
            figures.put("ios", Long.toString(f.ios()));
            figures.put("seconds", Double.toString(f.seconds()));
            figures.put("iops", Double.toString(f.iops()));
            figures.put("cpu-per-io", Double.toString(f.cpuMicrosPerIo()));
            figures.put("p50", Double.toString(f.p50()));
            figures.put("p99", Double.toString(f.p99()));
            return new NioConfig.Measured(config, figures);
        }
        Path target = config.smallFiles() || config.firstCall() ? dir : data;   // the small files' directory
        List<String> args = List.of(config.kind(), target.toString(), Integer.toString(config.parameter()),
                Double.toString(s.seconds()), Double.toString(s.warmupSeconds()));
        Map<String, String> figures = ChildJvm.run(config.configuration(),
                ChildJvm.jvmOptions(config.hpio(), config.providerOptions()),
                args, dir, ROW_TIMEOUT_SECONDS);
        requireProvider(config, figures);
        return new NioConfig.Measured(config, figures);
    }

    /** A flood row, its file deleted after it. */
    private static NioConfig.Measured flood(NioConfig config, NioSettings s, Path dir) throws Exception {
        Path file = dir.resolve(config.configuration() + ".bin");
        List<String> args = List.of(NioConfig.FLOOD, file.toString(), Integer.toString(s.floodWrites()),
                Integer.toString(s.floodWriteBytes()));
        try {
            Map<String, String> figures = ChildJvm.run(config.configuration(),
                    ChildJvm.jvmOptions(config.hpio(), List.of("-Xmx" + s.floodHeap())), args, dir, ROW_TIMEOUT_SECONDS);
            requireProvider(config, figures);
            return new NioConfig.Measured(config, figures);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * The row's channel is the provider's: hpio's class on hpio's rows, the JDK's on the JDK's; for the small
     * files also the provider's class, and on a platform thread the JDK's channel on both providers (hpio's
     * leaves a platform thread's plain read-only byte channel to the JDK); and an SQPOLL row's process had
     * io_uring's kernel submission thread (a {@code iou-sqp-} thread) while it read.
     */
    private static void requireProvider(NioConfig config, Map<String, String> figures) throws IOException {
        String channel = figures.getOrDefault("channel", "");
        boolean hpioChannel = config.hpio() && !config.kind().equals(NioConfig.SMALL);
        if (channel.startsWith("org.hpio.") != hpioChannel) {
            throw new IOException(config.configuration() + " was served by " + channel);
        }
        if (config.smallFiles() && figures.getOrDefault("provider", "").startsWith("org.hpio.") != config.hpio()) {
            throw new IOException(config.configuration() + " ran on the provider " + figures.get("provider"));
        }
        if (config.sqPoll() && !(Double.parseDouble(figures.getOrDefault("kernel-submission-threads", "0")) > 0)) {
            throw new IOException(config.configuration() + " ran without a kernel submission thread (SQPOLL refused? "
                    + "see its stderr)");
        }
    }

    private static void params(SuiteReport report, NioSettings s) {
        List<String> settings = ChildJvm.hpioSettings();
        report.param("file-size-bytes", s.fileSize()).param("file-size", BenchOptions.formatSize(s.fileSize()))
                .param("providers", "jdk: the platform's default; hpio: " + ChildJvm.HPIO_PROVIDER
                        + " (the same code, the same JDK API calls)")
                .param("hpio-settings", settings.isEmpty() ? "the defaults"
                        : String.join(" ", settings) + " (given to this run; every hpio row has them)")
                .param("jvms", "every row a JVM of its own (threads, CPU time and heap are its alone), the "
                        + "engine's uring-qd" + NioSettings.TARGET_DEPTH + " and uring-qd"
                        + NioSettings.VTHREADS_REFERENCE_DEPTH + " in the suite's JVM")
                .param("random-block", "4 KiB, 4 KiB-aligned offsets uniform over the file (SplittableRandom); "
                        + "O_DIRECT (ExtendedOpenOption.DIRECT); every block read checked against the engine suite's pattern")
                .param("page-cache", "cold: O_DIRECT reads bypass it; the flood writes with DSYNC through it")
                .param("seconds-per-row", s.seconds())
                .param("warm-up-seconds", String.format(Locale.ROOT, "%.2f (same JVM, untimed, checked)", s.warmupSeconds()))
                .param("rounds", s.rounds() + ", (c)'s and (f)'s rows " + s.vthreadRounds() + " (interleaved, every "
                        + "other round in reverse order; the round with the median IOPS, or (f)'s median first call, "
                        + "reported)")
                .param("afc", "AsynchronousFileChannel.open(file, READ, DIRECT), no executor (each provider's default "
                        + "pool runs the handlers); QD chains of CompletionHandlers, each handler checks its block and "
                        + "starts the next read; queue depths " + s.depths().stream().map(String::valueOf)
                        .collect(Collectors.joining(", ")))
                .param("vthreads", "FileChannel.open(file, READ, DIRECT), one channel; " + s.threads().stream()
                        .map(String::valueOf).collect(Collectors.joining(" and ")) + " virtual threads each reading "
                        + "in a loop (positional reads); the JDK's scheduler defaults; hpio-sqpoll: hpio's provider with "
                        + "-D" + EngineConfig.SQ_POLL_PROPERTY + "=" + NioConfig.SQ_POLL_IDLE_MILLIS + " (the engine's "
                        + "ring has a kernel submission thread, IORING_SETUP_SQPOLL, which polls for entries); "
                        + NioConfig.HPIO_ONE_RING + ": hpio's provider with -D" + IoEngines.RINGS_PROPERTY + "=1 "
                        + "(every call on the shared engine: one ring, one completion thread; the default spreads "
                        + "the calls over " + IoEngines.ringCount() + " here)")
                .param("flood", s.floodWrites() + " writes of " + BenchOptions.formatSize(s.floodWriteBytes())
                        + " (each a fresh heap array) submitted without waiting, AsynchronousFileChannel.open(file, "
                        + "{WRITE, CREATE, TRUNCATE_EXISTING, DSYNC}, a single-thread executor) in -Xmx" + s.floodHeap()
                        + "; stops at OutOfMemoryError; every acknowledged write read back with RandomAccessFile")
                .param("cpu-per-io", "the row's process CPU time (user + system, every thread: getProcessCpuTime) over "
                        + "the timed run / I/Os; 'of which JIT': the C1 and C2 compiler threads' part (schedstat); the CPU "
                        + "target compares the rest (the path's steady-state cost), the whole for comparison")
                .param("steady-state", "after its warm-up a row goes on warming up in slices of "
                        + JitQuiet.SLICE_NANOS / 1_000_000 + " ms until the compiler threads used under "
                        + Math.round(JitQuiet.QUIET_SHARE * 100) + "% of a slice (at most "
                        + JitQuiet.MAX_EXTRA_PER_WARMUP + " times the warm-up, and "
                        + JitQuiet.MAX_EXTRA_NANOS / 1_000_000_000 + " s, more), so that compiling the hot path does "
                        + "not count as the path's CPU time")
                .param("latency", "per I/O, from just before read to the handler (afc) or around the call "
                        + "(vthreads); log-linear histogram within 1.6%")
                .param("peak-os-threads", "the most threads the row's process had at once: /proc/self/status "
                        + "Threads: (the entries of /proc/self/task, io_uring's kernel workers included), every "
                        + ThreadPeak.PERIOD_MILLIS + " ms over the JVM's life")
                .param("cores", Runtime.getRuntime().availableProcessors());
    }
}
