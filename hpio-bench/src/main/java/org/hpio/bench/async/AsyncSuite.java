package org.hpio.bench.async;

import org.hpio.bench.machine.PageCache;
import org.hpio.bench.measure.Medians;
import org.hpio.bench.measure.Rounds;
import org.hpio.bench.report.Progress;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suite;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.hpio.bench.report.Numbers.format;
import static org.hpio.bench.report.Numbers.twoOrOneDecimals;

/**
 * {@code hpio bench async}: what one asynchronous request costs the calling thread, initiation and
 * completion apart (000 §5's measurement: 0.24 ms to initiate a read, 0.48 ms a write, in 2000), for 4 KiB
 * and 1 MiB requests of longs whose data is in the page cache (warm: the file is read once before), with
 * hpio's AsyncFile and the JDK's AsynchronousFileChannel side by side in one run. Requests go one at a time
 * to random aligned positions of a 64 MiB file in which long i holds i; every read is checked.
 */
public final class AsyncSuite implements Suite {
    static final long DEFAULT_SIZE = 64L << 20;
    private static final int ROUNDS = 3;
    /**
     * Untimed rounds of every configuration first: the JIT's profiles have then seen every path (reads and
     * writes, 4 KiB and 1 MiB, inline and queued) before anything is timed, so a timed round is not the one
     * where code compiled for one configuration is thrown away and recompiled for the next.
     */
    private static final int WARMUP_ROUNDS = 1;
    /**
     * The configurations whose requests all go to the engine (no small write done inline, no small read done
     * at once): the mechanism before those paths, for comparison in the same run.
     */
    private static final String QUEUED_PREFIX = "hpio-queued-";
    /**
     * The targets (issue 16): AsyncFile's total cost per 4 KiB request against AsynchronousFileChannel's (heap
     * buffer), same run: reads at most 1/3, writes at most 1/1.5.
     */
    static final Map<String, Double> TARGETS = Map.of("read-4k", 1.0 / 3, "write-4k", 1 / 1.5);

    record Config(String name, String mechanism, int bytes, boolean write, int requests) {
    }

    record Cost(Config config, double initiateMicros, double completeMicros) {
        double totalMicros() {
            return initiateMicros + completeMicros;
        }
    }

    @Override
    public String name() {
        return "async";
    }

    @Override
    public String summary() {
        return "cost per asynchronous request (initiation, completion) of AsyncFile and AsynchronousFileChannel";
    }

    static List<Config> configs(double scale) {
        List<Config> configs = new ArrayList<>();
        for (int bytes : new int[]{4096, 1 << 20}) {
            int requests = (int) Math.max(20, (bytes == 4096 ? 20_000 : 400) * scale);
            for (boolean write : new boolean[]{false, true}) {
                String op = (write ? "write" : "read") + "-" + (bytes == 4096 ? "4k" : "1m");
                configs.add(new Config("hpio-" + op, "hpio AsyncFile, long[]", bytes, write, requests));
                if (bytes == 4096) {
                    configs.add(new Config(QUEUED_PREFIX + op, "hpio AsyncFile, long[], every request to the engine "
                            + "(-Dhpio.async.inline" + (write ? "Write" : "Read") + "Bytes=0)", bytes, write, requests));
                }
                configs.add(new Config("afc-heap-" + op, "AsynchronousFileChannel, heap ByteBuffer", bytes, write, requests));
                configs.add(new Config("afc-direct-" + op, "AsynchronousFileChannel, direct ByteBuffer", bytes, write, requests));
            }
        }
        return configs;
    }

    @Override
    public void run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        long size = Math.max(2L << 20, options.sizeOr(DEFAULT_SIZE) / (1 << 20) * (1 << 20));
        // A quick run makes half the requests per configuration (10,000 of 4 KiB, 200 of 1 MiB).
        double scale = Double.parseDouble(System.getProperty("hpio.bench.async.scale", options.quick() ? "0.5" : "1"));
        SuiteReport report = context.report();
        report.param("file-size", BenchOptions.formatSize(size))
                .param("requests-scale", scale + (options.quick() ? " (quick; --full: 1)" : ""))
                .param("page-cache", "warm: the file is read once before the runs, and written requests stay in it")
                .param("pattern", "long i of the file holds i; requests at random positions aligned to their size "
                        + "(SplittableRandom, seed 42); every read checked element by element")
                .param("rounds", WARMUP_ROUNDS + " untimed (every configuration, so the JIT has seen every path), then "
                        + ROUNDS + " interleaved; the round with the median total cost is reported")
                .param("timing", "System.nanoTime around the initiating call, and around the wait (done() / "
                        + "Future.get() plus the buffer-to-array copy AsynchronousFileChannel needs)");
        Path path = context.workDir().resolve("async-data.bin");
        List<Config> configs = configs(scale);
        List<Cost> measured;
        try {
            writePattern(path, size);
            PageCache.warm(path);
            Rounds<Config> rounds = Rounds.of(ROUNDS, Config::name).warmUpRounds(WARMUP_ROUNDS);
            try (Progress progress = context.progress("configurations", rounds.steps(configs.size()))) {
                measured = rounds.run(configs, (c, warmUp) -> measure(c, path, size), report, progress);
            }
        } finally {
            Files.deleteIfExists(path);
        }
        report(report, medians(measured));
    }

    static List<Cost> medians(List<Cost> measured) {
        return Medians.byName(measured, c -> c.config().name(), Cost::totalMicros);
    }

    static Cost measure(Config c, Path path, long size) throws Exception {
        int longs = c.bytes() / 8;
        long[] array = new long[longs];
        SplittableRandom random = new SplittableRandom(42);
        long blocks = size / c.bytes();
        long initiate = 0;
        long complete = 0;
        try (RequestCost cost = open(c, path)) {
            int warmup = Math.max(10, c.requests() / 10);
            for (int i = 0; i < warmup + c.requests(); i++) {
                long position = random.nextLong(blocks) * c.bytes();
                if (c.write()) {
                    fill(array, position);
                }
                long t0 = System.nanoTime();
                cost.start(position, array, c.write());
                long t1 = System.nanoTime();
                cost.finish(array);
                long t2 = System.nanoTime();
                if (!c.write()) {
                    check(array, position, c.name());
                }
                if (i >= warmup) {
                    initiate += t1 - t0;
                    complete += t2 - t1;
                }
            }
        }
        return new Cost(c, initiate / 1e3 / c.requests(), complete / 1e3 / c.requests());
    }

    private static RequestCost open(Config c, Path path) throws Exception {
        if (c.name().startsWith("hpio-")) {
            return new HpioCost(path, !c.name().startsWith(QUEUED_PREFIX));
        }
        return new AfcCost(path, c.name().startsWith("afc-direct-"));
    }

    static void fill(long[] array, long position) {
        long first = position / 8;
        for (int i = 0; i < array.length; i++) {
            array[i] = first + i;
        }
    }

    static void check(long[] array, long position, String name) {
        long first = position / 8;
        for (int i = 0; i < array.length; i++) {
            if (array[i] != first + i) {
                throw new IllegalStateException(name + ": long " + i + " of the read at " + position + " is "
                        + array[i] + ", expected " + (first + i));
            }
        }
    }

    private static void writePattern(Path path, long size) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel out = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long pos = 0; pos < size; pos += chunk.capacity()) {
                chunk.clear();
                for (long i = pos / 8; chunk.hasRemaining(); i++) {
                    chunk.putLong(i);
                }
                chunk.flip();
                while (chunk.hasRemaining()) {
                    out.write(chunk);
                }
            }
            out.force(true);
        }
    }

    private static void report(SuiteReport report, List<Cost> costs) {
        Table table = new Table("Cost of one request, data in the page cache (µs per request, median round)",
                List.of("configuration", "mechanism", "size", "op", "requests", "initiation µs", "completion µs",
                        "total µs"));
        table.row("bonachea-2000", "AsyncFile on Solaris 2.6 (000 §5, as published)", "-", "read / write", "-",
                "240 / 480", "-", "-");
        for (Cost c : costs) {
            Config k = c.config();
            table.row(k.name(), k.mechanism(), k.bytes() == 4096 ? "4 KiB" : "1 MiB", k.write() ? "write" : "read",
                    String.valueOf(k.requests()), twoOrOneDecimals(c.initiateMicros()), twoOrOneDecimals(c.completeMicros()),
                    twoOrOneDecimals(c.totalMicros()));
            report.result(k.name(), "initiation", c.initiateMicros(), "us");
            report.result(k.name(), "completion", c.completeMicros(), "us");
            report.result(k.name(), "total", c.totalMicros(), "us");
        }
        table.note("Each request is started and then waited for before the next (the cost to the calling thread); "
                + "AsynchronousFileChannel's completion includes copying its ByteBuffer to or from the long[].");
        report.table(table);
        report.table(targets(report, costs));
    }

    /** One row per target: hpio's total over AsynchronousFileChannel's (heap buffer), the target, met or not. */
    static Table targets(SuiteReport report, List<Cost> costs) {
        Table targets = report.quotedTable(
                "Targets, same run (total cost per request, hpio / AsynchronousFileChannel heap)",
                List.of("ratio", "measured", "target", "met"));
        for (String op : new String[]{"read-4k", "write-4k"}) {
            Cost hpio = find(costs, "hpio-" + op);
            Cost afc = find(costs, "afc-heap-" + op);
            double target = TARGETS.get(op);
            String name = "hpio-" + op + " / afc-heap-" + op;
            if (hpio == null || afc == null) {
                targets.row(name, "not measured", "<= " + format("%.2f", target), "no");
                continue;
            }
            double ratio = hpio.totalMicros() / afc.totalMicros();
            targets.row(name, format("%.2f", ratio), "<= " + format("%.2f", target), ratio <= target ? "yes" : "no");
            report.result("hpio-" + op + "/afc-heap-" + op, "total-ratio", ratio, "x");
        }
        return targets;
    }

    private static Cost find(List<Cost> costs, String name) {
        return costs.stream().filter(c -> c.config().name().equals(name)).findFirst().orElse(null);
    }
}
