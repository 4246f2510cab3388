package org.hpio.bench.patterns;

import org.hpio.bench.data.DataFiles;
import org.hpio.bench.data.Elements;
import org.hpio.bench.machine.CProgram;
import org.hpio.bench.machine.PageCache;
import org.hpio.bench.measure.Medians;
import org.hpio.bench.measure.Rounds;
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

/**
 * {@code hpio bench patterns}: the tuning study of 004 (Xu and Guo) on today's machine. Sequential and random
 * reads and writes of one file (default 100 MiB, {@code --size}) against operation size without a buffer, and
 * against buffer size with 1-byte operations, for unbuffered streams, buffered streams, hand-rolled buffering,
 * FileChannel, hpio bulk and C; elapsed time per whole file, as the slides plot it. Every read is checked by its
 * checksum, every write by the file's contents.
 */
public final class PatternsSuite implements Suite {
    static final long DEFAULT_SIZE = 100L << 20;
    /** The file of a quick run ({@code hpio bench} without {@code --full}): still larger than the 10 MiB buffer. */
    static final long QUICK_SIZE = 16L << 20;
    /** Operations of each point in the untimed (still checked) warm-up round. */
    static final long WARM_UP_OPS = 1 << 14;

    @Override
    public String name() {
        return "patterns";
    }

    @Override
    public String summary() {
        return "sequential/random reads and writes against operation and buffer size, Java ways vs C (004)";
    }

    /** One checked run: seconds for the operations measured, and per whole file. */
    record Measured(String config, Sweeps.Kind kind, Point point, double seconds) {
        double perFile() {
            return seconds * point.scale();
        }

        String key() {
            return config + "-" + point.access().key() + "-" + kind.key + (kind == Sweeps.Kind.OPERATION
                    ? point.opSize() : point.bufferSize());
        }
    }

    @Override
    public void run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        long fileSize = options.sizeOr(DEFAULT_SIZE, QUICK_SIZE) / Long.BYTES * Long.BYTES;
        List<PatternsConfig> configs = configs(context);
        SuiteReport report = context.report();
        params(report, options, fileSize, configs);
        Path data = context.workDir().resolve("patterns-data.bin");
        Path scratch = context.workDir().resolve("patterns-write.bin");
        List<Measured> measured = new ArrayList<>();
        try {
            DataFiles.create(data, Elements.LONG, fileSize / Long.BYTES, ByteOrder.BIG_ENDIAN);
            PageCache.warm(data);
            Source source = Source.of(fileSize);
            Expected expected = new Expected(source);
            measured.addAll(measure(context, configs, fileSize, data, scratch, source, expected));
        } finally {
            Files.deleteIfExists(data);
            Files.deleteIfExists(scratch);
        }
        PatternsReport.write(report, configs, Medians.byName(measured, Measured::key, Measured::perFile));
    }

    static List<PatternsConfig> configs(BenchContext context) throws IOException {
        BenchOptions options = context.options();
        List<String> known = new ArrayList<>(JavaConfigs.all().stream().map(PatternsConfig::name).toList());
        known.add("c");
        for (String name : options.configs()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("patterns has no way named '" + name + "'; known: "
                        + String.join(", ", known));
            }
        }
        List<PatternsConfig> configs = new ArrayList<>(JavaConfigs.all());
        if (options.includes("c")) {
            Optional<CProgram> c = context.cProgram(CConfig.PROGRAM);
            c.ifPresent(program -> configs.add(new CConfig(program)));
        }
        return configs.stream().filter(w -> options.includes(w.name())).toList();
    }

    /** A configuration at a point of a sweep: what one run measures. */
    private record Case(PatternsConfig config, Sweeps.Kind kind, Point point) {
        String key() {
            return new Measured(config.name(), kind, point, 0).key();
        }
    }

    /** Every sweep's points, each with every configuration that supports it, in rounds after a shortened warm-up round. */
    private static List<Measured> measure(BenchContext context, List<PatternsConfig> configs, long fileSize, Path data, Path scratch,
                                          Source source, Expected expected) throws InterruptedException {
        List<Case> cases = new ArrayList<>();
        for (Sweeps.Kind kind : Sweeps.Kind.values()) {
            for (Access access : Access.values()) {
                for (Point p : Sweeps.points(kind, access, fileSize, context.options().quick())) {
                    configs.stream().filter(config -> config.supports(p)).forEach(config -> cases.add(new Case(config, kind, p)));
                }
            }
        }
        Rounds<Case> rounds = Rounds.of(context.options().repetitions(), Case::key).warmUpRounds(1).droppingFailed();
        try (Progress progress = context.progress("points", rounds.steps(cases.size()))) {
            return rounds.run(cases, (c, warmUp) -> {
                Point run = warmUp ? c.point().withOps(Math.min(c.point().ops(), WARM_UP_OPS)) : c.point();
                double seconds = once(c.config(), run, run.access().write() ? scratch : data, source, expected);
                return new Measured(c.config().name(), c.kind(), c.point(), seconds);
            }, context.report(), progress);
        }
    }

    /** One checked run of {@code config} at {@code p}; writes go to a fresh sparse file of the file's size. */
    static double once(PatternsConfig config, Point p, Path file, Source source, Expected expected) throws IOException {
        if (p.access().write()) {
            DataFiles.recreateSparse(file, p.fileSize());
        }
        long start = System.nanoTime();
        long sum = config.run(p, file, source);
        double seconds = config instanceof CConfig c ? c.lastSeconds() : (System.nanoTime() - start) / 1e9;
        if (p.access().write()) {
            expected.checkWrite(config.name(), p, file);
        } else {
            expected.checkRead(config.name(), p, sum);
        }
        return seconds;
    }

    private static void params(SuiteReport report, BenchOptions options, long fileSize, List<PatternsConfig> configs) {
        boolean quick = options.quick();
        int step = quick ? Sweeps.QUICK_STEP : 4;
        long maxCalls = quick ? Sweeps.QUICK_MAX_CALLS : Sweeps.MAX_CALLS;
        report.param("file-size", BenchOptions.formatSize(fileSize)).param("file-size-bytes", fileSize)
                .param("ways", String.join(", ", configs.stream().map(PatternsConfig::name).toList()))
                .param("operation-sizes", "1 B to 1 MiB by x" + step + ", no buffer (004 Tests 1 and 4)")
                .param("buffer-sizes", "16 B to " + (quick ? "1" : "4") + " MiB by x" + step
                        + ", and 10 MiB; 1-byte operations (004 Tests 2 and 3)")
                .param("sweep", quick ? "quick (every other point, fewer calls; --full for the whole sweep)" : "full")
                .param("bounds", "unbuffered points at most " + maxCalls + " calls; sequential buffered points "
                        + "the file or " + maxCalls + " refills; random buffered points "
                        + BenchOptions.formatSize(Sweeps.RANDOM_BUFFER_BYTES) + " / buffer operations (" + Sweeps.MIN_RANDOM_OPS
                        + " to " + maxCalls + "); time reported per whole file (the operations that move it "
                        + "once) = measured time x (those operations / operations measured)")
                .param("repetitions", options.repetitions() + " (after an untimed, checked round of " + WARM_UP_OPS
                        + " operations per point; median)")
                .param("page-cache", "reads: the data file warm (read once before); writes: into the page cache of a "
                        + "fresh sparse file of the same size, not forced, checked after the clock stops")
                .param("random-positions", "operation k at (splitmix64(" + Point.SEED + " + k) mod (file / op)) x op, "
                        + "the same in Java and C")
                .param("checks", "reads: a checksum of every byte read, against the source; writes: the whole file's "
                        + "checksum against the source's bytes at the written ranges and zeros elsewhere");
    }
}
