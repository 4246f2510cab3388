package org.hpio.cli;

import org.hpio.bench.report.JsonResults;
import org.hpio.bench.report.MachineInfo;
import org.hpio.bench.report.ReportWriter;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suite;
import org.hpio.bench.suite.Suites;
import org.hpio.bulk.LaunchRank;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code hpio bench [SUITE...]}: runs suites, writes the report folder and optionally the JSON results. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Runs benchmark suites and writes a report (Markdown, PNG charts, JSON).",
                "With no SUITE, runs every suite at a quick size (minutes); --full runs the paper-sized set.",
                "Under mpirun or srun, 'approaches' runs with each process one rank (README: Running on a cluster)."})
final class BenchCommand implements Callable<Integer> {
    @Parameters(paramLabel = "SUITE", arity = "0..*", description = "suites to run (see --list); default: all")
    List<String> suites = new ArrayList<>();

    @Option(names = "--list", description = "list the suites and exit")
    boolean list;

    @Option(names = "--size", paramLabel = "SIZE", description = "data size, e.g. 256m, 1g (default: each suite's own)")
    String size;

    @Option(names = "--threads", split = ",", paramLabel = "N", description = "thread/process counts (default: 1,2,4); under a launcher (mpirun, srun) the launcher's process count")
    List<Integer> threads = List.of(1, 2, 4);

    @Option(names = "--reps", paramLabel = "N", description = "timed repetitions per configuration; the median is reported (default: 3)")
    int repetitions = 3;

    @Option(names = "--cache", paramLabel = "STATE", description = "page cache: warm, cold or both (default: both where a suite measures reads cold)")
    String cache = "both";

    @Option(names = "--configs", split = ",", paramLabel = "NAME", description = "only these configurations, e.g. bulkraf,dsb,c (default: all)")
    List<String> configs = List.of();

    @Option(names = "--sizes", paramLabel = "SIZES", description = "sort: input file sizes, e.g. 1m,16m,64m,256m (the default)")
    String sizes;

    @Option(names = "--chunks", paramLabel = "SIZES", description = "sort: chunk sizes of the initial pass, e.g. 32k,512k (the default)")
    String chunks;

    @Option(names = "--full", description = "the paper-sized set: every suite at its full size, every sweep point, "
            + "longer engine durations; sort also runs the whole external sort (merge passes) against the measured "
            + "lower bound (default: a quick run of every suite and every target, a few minutes)")
    boolean full;

    @Option(names = "--memory", paramLabel = "SIZE", description = "sort --full: memory the sort may use; the input must be larger (default: 64m)")
    String memory;

    @Option(names = "--cold", paramLabel = "HOW", description = "archive: how a cold replay starts: machine (sync and drop the whole "
            + "page cache, dentries and inodes, as after a reboot; needs root) or files (POSIX_FADV_DONTNEED on the "
            + "replay's files only; their metadata stays cached) (default: machine where allowed, else files)")
    String cold;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "where data files go; a real disk, not tmpfs (default: ./hpio-work)")
    Path workDir = Path.of("hpio-work");

    @Option(names = "--report", paramLabel = "DIR", description = "report folder (default: ./hpio-report/<date-time>)")
    Path reportDir;

    @Option(names = "--trace", paramLabel = "T", description = "load trace to replay (archive suite; default: the python startup trace)")
    Path trace;

    @Option(names = "--trace-root", paramLabel = "DIR", description = "directory the trace's paths are relative to (default: python3's sys.prefix for the default trace)")
    Path traceRoot;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON (DESIGN.md's contract)")
    Path json;

    @Override
    public Integer call() throws Exception {
        if (list) {
            Suites.all().forEach(s -> System.out.printf("%-12s %s%n", s.name(), s.summary()));
            return 0;
        }
        List<Suite> chosen = choose();
        checkFiles();
        Optional<LaunchRank> launched = LaunchRank.fromEnvironment();
        if (launched.isPresent()) {
            requireLaunchable(chosen, launched.get());
        }
        BenchOptions options = new BenchOptions(Optional.ofNullable(size).map(BenchOptions::parseSize), threads,
                repetitions, BenchOptions.CacheMode.parse(cache), workDir.toAbsolutePath(), configs,
                Optional.ofNullable(trace), Optional.ofNullable(traceRoot), suiteOptions());
        InputFiles.outputDirectory(options.workDir(), "--work-dir");
        MachineInfo machine = MachineInfo.probe(options.workDir());
        Instant started = Instant.now();
        List<SuiteReport> reports = new ArrayList<>();
        List<Duration> estimates = chosen.stream().map(s -> Suites.estimate(s.name(), options.quick())).toList();
        Duration estimatedDone = Duration.ZERO;
        for (int i = 0; i < chosen.size(); i++) {
            Suite suite = chosen.get(i);
            System.err.println("hpio bench: running " + suite.name() + " (" + suite.summary() + ")");
            System.err.println("hpio bench: suite " + (i + 1) + " of " + chosen.size() + "; "
                    + estimate(estimates, i, estimatedDone, Duration.between(started, Instant.now())));
            estimatedDone = estimatedDone.plus(estimates.get(i));
            SuiteReport report = new SuiteReport(suite.name(), suite.summary());
            suite.run(new BenchContext(options, report));
            reports.add(report);
        }
        if (launched.isPresent() && !launched.get().isFirst()) {
            LaunchRank me = launched.get();
            System.err.println("hpio bench: rank " + me.rank() + " of " + me.size() + " (" + me.launcher()
                    + ") done; its figures are in rank 0's report");
            return 0;
        }
        Path dir = reportDir != null ? reportDir : defaultReportDir();
        Path markdown = ReportWriter.write(dir, machine, reports, started, Duration.between(started, Instant.now()));
        if (json != null) {
            JsonResults.write(json, reports, machine);
        }
        // The whole report scrolls by; the summary (its first section) ends the output, where it stays on screen.
        System.out.println(Files.readString(markdown));
        System.out.println("---");
        System.out.println(ReportWriter.summary(machine, reports).strip());
        System.out.println();
        System.out.println("Total time: " + totalTime(Duration.between(started, Instant.now()))
                + (full ? " (--full: the paper-sized set)" : " (quick default; --full runs the paper-sized set)"));
        System.out.println("Report: " + markdown.toAbsolutePath());
        if (json != null) {
            System.out.println("JSON:   " + json.toAbsolutePath());
        }
        List<String> failures = reports.stream().flatMap(r -> r.failures().stream().map(f -> r.suite() + ": " + f)).toList();
        failures.forEach(f -> System.err.println("hpio bench: " + f));
        return failures.isEmpty() ? 0 : 1;
    }

    /** The files and directories given, checked before any suite runs. */
    private void checkFiles() throws IOException {
        if (trace != null) {
            InputFiles.trace(trace);
        }
        if (traceRoot != null) {
            InputFiles.directory(traceRoot);
        }
        if (json != null) {
            InputFiles.output(json);
        }
        if (reportDir != null) {
            InputFiles.outputDirectory(reportDir, "--report");
        }
    }

    /**
     * Under a launcher every process runs this command; only the approaches suite knows how to share the work
     * among them (each rank its block of one file). Other suites would run N times over the same files.
     */
    private static void requireLaunchable(List<Suite> chosen, LaunchRank me) {
        List<String> others = chosen.stream().map(Suite::name).filter(name -> !name.equals("approaches")).toList();
        if (me.size() > 1 && !others.isEmpty()) {
            throw new IllegalArgumentException("started as rank " + me.rank() + " of " + me.size() + " by "
                    + me.launcher() + ", where only the approaches suite runs (each rank its own block of one "
                    + "shared file); asked for: " + String.join(", ", others) + ". Run: " + "hpio bench approaches");
        }
    }

    /** The options only some suites read, by name, as given. */
    private Map<String, String> suiteOptions() {
        Map<String, String> given = new LinkedHashMap<>();
        if (sizes != null) {
            given.put("sizes", sizes);
        }
        if (chunks != null) {
            given.put("chunks", chunks);
        }
        if (full) {
            given.put("full", "true");
        } else {
            given.put("quick", "true");
        }
        if (memory != null) {
            given.put("memory", memory);
        }
        if (cold != null) {
            given.put("cold", cold);
        }
        return given;
    }

    private List<Suite> choose() {
        if (suites.isEmpty()) {
            return Suites.all();
        }
        List<Suite> chosen = new ArrayList<>();
        for (String name : suites) {
            chosen.add(Suites.byName(name).orElseThrow(() -> new IllegalArgumentException(
                    "no suite named '" + name + "'; the suites are: "
                            + String.join(", ", Suites.all().stream().map(Suite::name).toList()))));
        }
        return chosen;
    }

    /**
     * The total estimate before suite {@code next}: the suites' own estimates, those left scaled by how the
     * finished ones compared with theirs (a slower machine is slower throughout).
     */
    private static String estimate(List<Duration> estimates, int next, Duration estimatedDone, Duration elapsed) {
        Duration left = estimates.subList(next, estimates.size()).stream().reduce(Duration.ZERO, Duration::plus);
        double scale = estimatedDone.isZero() ? 1 : Math.max(0.25, (double) elapsed.toMillis() / estimatedDone.toMillis());
        Duration scaledLeft = Duration.ofMillis((long) (left.toMillis() * scale));
        return "elapsed " + totalTime(elapsed) + ", about " + totalTime(scaledLeft) + " left (estimated total "
                + totalTime(elapsed.plus(scaledLeft)) + ")";
    }

    private static String totalTime(Duration d) {
        long s = d.toSeconds();
        return s >= 60 ? s / 60 + " min " + s % 60 + " s" : s + " s";
    }

    private static Path defaultReportDir() {
        return Path.of("hpio-report", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }
}
