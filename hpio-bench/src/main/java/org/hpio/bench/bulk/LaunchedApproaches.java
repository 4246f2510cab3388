package org.hpio.bench.bulk;

import org.hpio.bench.bulk.SharedFileRun.Op;
import org.hpio.bench.bulk.SharedFileRun.Plan;
import org.hpio.bench.data.DataFiles;
import org.hpio.bench.data.Elements;
import org.hpio.bench.data.TestData;
import org.hpio.bench.measure.Stats;
import org.hpio.bench.ranks.RankFailedException;
import org.hpio.bench.ranks.RankGroup;
import org.hpio.bench.ranks.RankTimeouts;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bulk.LaunchRank;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.hpio.bench.report.Numbers.format;

/**
 * {@code hpio bench approaches} run by a launcher ({@code mpirun -np N ./hpio bench approaches}, {@code srun}):
 * 001 §4 as the paper ran it, one JVM per process, possibly on many machines. This process is one rank; the
 * ranks share one file of ints in the work directory (which must be on a file system every rank sees), each
 * reads and writes its own block with every Java approach, and they meet through marker files next to the
 * file ({@link RankGroup}). Rank 0 makes the input files, makes and checks every written file, and its
 * report holds the figures every rank handed in.
 */
final class LaunchedApproaches {
    /** Property: keep each approach's written shared file ({@code ints-out-NAME.bin}) for inspection. */
    static final String KEEP_PROPERTY = "hpio.bench.approaches.keep";

    /** One approach's aggregate figures in MB/s, and each rank's own in its last read and write. */
    private record Row(Approach approach, long bytes, double read, double write, double[] readByRank,
                       double[] writeByRank) {
    }

    private final BenchContext context;
    private final RankGroup ranks;
    private final List<String> hosts;
    private final RankFigures figures = new RankFigures();

    /** {@code hosts}: each rank's machine, by rank. */
    private LaunchedApproaches(BenchContext context, RankGroup ranks, List<String> hosts) {
        this.context = context;
        this.ranks = ranks;
        this.hosts = hosts;
    }

    /** Runs the suite as rank {@code me}; a failure here stops every other rank, naming this one. */
    static void run(BenchContext context, LaunchRank me) throws Exception {
        try (RankGroup ranks = RankGroup.join(context.workDir().resolve("ranks"), me, RankTimeouts.fromSystemProperties())) {
            try {
                List<String> hosts = ranks.exchange("hosts", RankGroup.hostName()).stream().map(String::strip).toList();
                new LaunchedApproaches(context, ranks, hosts).measureEveryApproach();
                ranks.leave();
            } catch (RankFailedException e) {
                throw e;        // another rank's failure: the others know already
            } catch (Exception | Error e) {
                try {
                    ranks.fail(e);
                } catch (IOException unreported) {
                    e.addSuppressed(unreported);    // the others will find this rank by its heartbeat instead
                }
                throw e;
            }
        }
    }

    private void measureEveryApproach() throws Exception {
        BenchOptions options = context.options();
        long count = options.sizeOr(ApproachesSuite.DEFAULT_SIZE, ApproachesSuite.QUICK_SIZE) / 4;
        if (count < ranks.size()) {
            throw new IllegalArgumentException("approaches needs at least 4 bytes per rank: --size " + count * 4
                    + " for " + ranks.size() + " ranks");
        }
        long prefixCount = Math.min(count,
                (options.quick() ? ApproachesSuite.QUICK_PREFIX_BYTES : ApproachesSuite.PREFIX_BYTES) / 4);
        List<Approach> approaches = chosen(options);
        describe(context.report(), count, prefixCount);

        Map<ByteOrder, Path> inputs = new HashMap<>();
        approaches.forEach(a -> inputs.put(a.fileOrder(), context.workDir().resolve(
                a.fileOrder() == ByteOrder.BIG_ENDIAN ? "ints-be.bin" : "ints-native.bin")));
        try {
            if (ranks.launch().isFirst()) {
                for (var input : inputs.entrySet()) {
                    DataFiles.create(input.getValue(), Elements.INT, count, input.getKey());
                }
            }
            ranks.meet("inputs made");
            List<Row> rows = new ArrayList<>();
            for (Approach approach : approaches) {
                rows.add(measure(approach, inputs.get(approach.fileOrder()), count, prefixCount));
            }
            report(context.report(), rows, count * 4);
        } finally {
            if (ranks.launch().isFirst()) {
                for (Path input : inputs.values()) {
                    Files.deleteIfExists(input);
                }
            }
        }
    }

    /** Reads and writes with one approach, every rank its block; returns the aggregate figures. */
    private Row measure(Approach approach, Path input, long count, long prefixCount) throws Exception {
        BulkConfig config = BulkConfig.java(approach, Optional.of(new BulkConfig.Launch(ranks, figures)));
        Trials trials = new Trials(context.options().repetitions(), ranks.launch().isFirst())
                .quick(context.options().quick());
        Object[] buffer = {Elements.INT.newArray(Math.toIntExact(count / ranks.size() + 1))};
        ByteOrder order = approach.fileOrder();
        Plan read = trials.extent(config, new Plan(input, Elements.INT, count, ranks.size(), order),
                new Plan(input, Elements.INT, prefixCount, ranks.size(), order), buffer, BulkConfig.Workers.RANKS);
        long expected = TestData.expectedChecksum(0, read.count(), 4);
        double readSeconds = trials.read(config, read, BulkConfig.Workers.RANKS, buffer, expected, false);
        Path output = context.workDir().resolve("ints-out-" + approach.name() + ".bin");
        Plan write = new Plan(output, Elements.INT, read.count(), ranks.size(), order);
        double writeSeconds = trials.write(config, write, BulkConfig.Workers.RANKS, buffer);
        if (ranks.launch().isFirst() && !Boolean.getBoolean(KEEP_PROPERTY)) {
            Files.deleteIfExists(output);
        }
        return new Row(approach, read.bytes(), Stats.mbPerSecond(read.bytes(), readSeconds),
                Stats.mbPerSecond(write.bytes(), writeSeconds), figures.last(approach.name(), Op.READ).orElseThrow(),
                figures.last(approach.name(), Op.WRITE).orElseThrow());
    }

    /** The Java approaches asked for; C and unknown names are errors naming what runs. */
    private static List<Approach> chosen(BenchOptions options) {
        List<String> known = Approaches.all().stream().map(Approach::name).toList();
        for (String name : options.configs()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("no configuration named '" + name + "' runs under a launcher"
                        + " (the C rows run only in forked processes); known: " + String.join(", ", known));
            }
        }
        return Approaches.all().stream().filter(a -> options.includes(a.name())).toList();
    }

    private void describe(SuiteReport report, long count, long prefixCount) {
        BenchOptions options = context.options();
        report.param("element", "int (4 bytes)").param("size-bytes", count * 4)
                .param("size", BenchOptions.formatSize(count * 4))
                .param("prefix-for-slow-configurations", BenchOptions.formatSize(prefixCount * 4))
                .param("launcher", ranks.launch().launcher()).param("ranks", ranks.size())
                .param("hosts", hostsWithRanks())
                .param("shared-directory", context.workDir().toString())
                .param("repetitions", options.repetitions()).param("statistic", "median")
                .param("page-cache", "warm (each rank's block read once, untimed, before timing)")
                .param("writes", Trials.WRITES + " (by rank 0, reading the whole file)");
    }

    /** The fastest and the slowest rank of each configuration, by their own MB/s: a slow node stands out. */
    private Table spread(List<Row> rows) {
        Table table = new Table("Each rank's own MB/s (its block over its own time), last repetition",
                List.of("configuration", "read, fastest rank", "read, slowest rank", "write, fastest rank",
                        "write, slowest rank"));
        for (Row row : rows) {
            table.row(row.approach().name(), extreme(row.readByRank(), true), extreme(row.readByRank(), false),
                    extreme(row.writeByRank(), true), extreme(row.writeByRank(), false));
        }
        return table.note("The aggregate counts the slowest rank; a rank far below the others is worth a look at "
                + "its node.");
    }

    /** "1234 (rank 2, node07)" for the fastest (or slowest) rank. */
    private String extreme(double[] mbPerSecondByRank, boolean fastest) {
        int pick = 0;
        for (int r = 1; r < mbPerSecondByRank.length; r++) {
            if (fastest ? mbPerSecondByRank[r] > mbPerSecondByRank[pick] : mbPerSecondByRank[r] < mbPerSecondByRank[pick]) {
                pick = r;
            }
        }
        return format("%.0f", mbPerSecondByRank[pick]) + " (rank " + pick + ", " + hosts.get(pick) + ")";
    }

    /** "node1: ranks 0, 1; node2: ranks 2, 3". */
    private String hostsWithRanks() {
        Map<String, List<Integer>> byHost = new TreeMap<>();
        for (int rank = 0; rank < hosts.size(); rank++) {
            byHost.computeIfAbsent(hosts.get(rank), h -> new ArrayList<>()).add(rank);
        }
        List<String> parts = new ArrayList<>();
        byHost.forEach((host, list) -> parts.add(host + ": rank" + (list.size() == 1 ? " " : "s ")
                + String.join(", ", list.stream().map(String::valueOf).toList())));
        return String.join("; ", parts);
    }

    private void report(SuiteReport report, List<Row> rows, long fullBytes) {
        int n = ranks.size();
        Table table = new Table("Aggregate MB/s, " + n + (n == 1 ? " rank" : " ranks") + " ("
                + ranks.launch().launcher() + ")", List.of("configuration", "data", "read", "write"));
        for (Row row : rows) {
            String name = row.approach().name();
            table.row(name, BenchOptions.formatSize(row.bytes()) + (row.bytes() < fullBytes ? " (prefix)" : ""),
                    format("%.0f", row.read()), format("%.0f", row.write()));
            report.result(name + "-r" + n, "read", row.read(), "MB/s");
            report.result(name + "-r" + n, "write", row.write(), "MB/s");
        }
        table.note("Names in the JSON: CONFIG-rN (N ranks, one JVM each, started by the launcher). Every rank's "
                + "read checksum and every written file (read whole by rank 0 with the JDK) checked against the "
                + "generator.");
        report.table(table);
        if (n > 1) {
            report.table(spread(rows));
        }
        report.note("Each rank times its own I/O between two meetings (marker files in the shared directory, "
                + "polled); the slowest rank's time counts, as for forked processes. JVM start-up, filling the array "
                + "and an untimed warm-up run are outside it. Ranks leave the start meeting within about 2 ms of each "
                + "other: runs of a few ms may not overlap, so size the file for runs much longer than that.");
    }
}
