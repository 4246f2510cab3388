package org.hpio.bench.nio;

import org.hpio.bench.report.SuiteReport;
import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngines;
import org.hpio.bench.report.Table;
import org.hpio.bench.report.TargetsTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.DoublePredicate;
import java.util.function.ToDoubleFunction;

import static org.hpio.bench.report.Numbers.format;
import static org.hpio.bench.report.TargetsTable.FOR_COMPARISON;

/** The nio suite's results, tables and targets, from checked figures of one run. */
final class NioReport {
    private static final double MIB = 1 << 20;

    private NioReport() {
    }

    static void write(SuiteReport report, List<NioConfig.Measured> measured, NioSettings s) {
        for (NioConfig.Measured m : measured) {
            results(report, m);
        }
        List<NioConfig.Measured> afc = of(measured, NioConfig.AFC);
        List<NioConfig.Measured> vthreads = of(measured, NioConfig.VTHREADS);
        List<NioConfig.Measured> floods = of(measured, NioConfig.FLOOD);
        if (!floods.isEmpty()) {
            report.table(floodTable(floods, s));
        }
        if (!afc.isEmpty()) {
            Table t = new Table("(b) AsynchronousFileChannel, 4 KiB random O_DIRECT reads (page cache bypassed)",
                    List.of("configuration", "provider", "QD", "IOPS", "CPU µs / I/O", "of which JIT", "p50 µs",
                            "p99 µs", "peak OS threads"));
            for (NioConfig.Measured m : afc) {
                readRow(t, m);
            }
            report.table(t.note("Handlers on each provider's default pool (the channels were opened without an "
                    + "executor); every block checked. uring-qd32 is the engine suite's driver (hpio's engine "
                    + "without a channel) on the same file in this run: the machine's reference for QD 32."));
        }
        if (!vthreads.isEmpty()) {
            Table t = threadsTable("(c) FileChannel from virtual threads, 4 KiB random O_DIRECT reads", vthreads);
            report.table(t.note("One channel, every thread reading in a loop; every block checked. IOPS: the "
                    + "reads that completed inside the timed run, whenever they started (a fair queue of 10,000 "
                    + "readers keeps each read about 100 ms in flight). The JDK's "
                    + "FileChannel pins a virtual thread's carrier in the read, so the scheduler adds carriers (up "
                    + "to 256); hpio's parks the virtual thread and frees its carrier. hpio-sqpoll: the same with "
                    + "a kernel submission thread (IORING_SETUP_SQPOLL) taking each read as it is published, a "
                    + "thread of the process that polls while reads come: its CPU time counts. hpio's channel spreads "
                    + "its calls over one engine per core up to two (" + IoEngines.ringCount() + " here), each with its "
                    + "own ring, completion thread and bound of " + EngineConfig.DEFAULT_MAX_IN_FLIGHT + "; " + NioConfig.HPIO_ONE_RING + ": every call on "
                    + "the shared engine alone, as before. uring-qd"
                    + NioSettings.VTHREADS_REFERENCE_DEPTH + ": the engine suite's driver, one thread keeping "
                    + NioSettings.VTHREADS_REFERENCE_DEPTH + " reads in flight (one engine's bound, as many as the "
                    + "JDK's 256 blocked carriers), on the same file in this "
                    + "run: what io_uring gives at that depth on this machine, without threads or channels. Block "
                    + "layer: the file's device as the kernel counts it over the timed run (/sys/dev/block/M:m/stat): "
                    + "the reads it took per second, merged ones included (system-wide: the cross-check of IOPS), "
                    + "the mean time a read spent there (queued in the I/O scheduler, then at the device), the mean "
                    + "number of requests it held, and the machine's interrupts per read. Where two rows held as many "
                    + "and one completed fewer reads, each of its reads was slower below the caller's queueing. Reads "
                    + "per thread: how the timed run's reads were shared among the threads (p10 / p50 / p90): the "
                    + "JDK's scheduler keeps a carrier on the thread whose read just finished while the others wait "
                    + "for one, hpio's channel admits waiting readers in order."));
        }
        List<NioConfig.Measured> heap = of(measured, NioConfig.HEAP);
        if (!heap.isEmpty()) {
            Table t = threadsTable("(e) FileChannel from " + NioSettings.HEAP_THREADS + " virtual threads into "
                    + "heap buffers, " + NioSettings.HEAP_BLOCK / 1024 + " KiB random O_DIRECT reads", heap);
            report.table(t.note("(c) with ByteBuffer.allocate, what most code passes: the JDK reads through a "
                    + "temporary direct buffer of the carrier, hpio through staging memory, of which its engine "
                    + "lends " + EngineConfig.DEFAULT_MAX_STAGING_BYTES / (1 << 20) + " MiB at once: these threads' "
                    + "reads want twice that, so about half of them wait, in order, for staging memory. Not one of "
                    + "the issue's targets."));
        }
        List<NioConfig.Measured> small = of(measured, NioConfig.SMALL);
        if (!small.isEmpty()) {
            Table t = new Table("(d) Files.readAllBytes of " + NioSettings.SMALL_FILE_BYTES + "-byte files, warm",
                    List.of("configuration", "provider", "thread", "channel", "calls / s", "µs / call",
                            "CPU µs / call", "p50 µs", "p99 µs", "first call ms"));
            for (NioConfig.Measured m : small) {
                String channel = m.figures().get("channel");
                t.row(m.name(), provider(m), m.figures().getOrDefault("thread", "?"),
                        channel == null ? "?" : channel.startsWith("org.hpio.") ? "hpio's" : "the JDK's",
                        format("%.0f", m.number("iops")), format("%.2f", 1e6 / m.number("iops")),
                        format("%.2f", m.number("cpu-per-io")), format("%.2f", m.number("p50")),
                        format("%.2f", m.number("p99")), format("%.1f", m.number("first-call-ms")));
            }
            report.table(t.note("The obvious call, from one platform thread, from one virtual thread (-vt), and "
                    + "each call from a virtual thread of its own, started for it and joined (-vt-each, thread "
                    + "virtual-per-call, a server's thread per request; µs / call includes the thread's start and "
                    + "join; its first call and its channel column are those of the virtual thread that starts the "
                    + "others): "
                    + SmallFileReads.FILES + " files read round robin, just written so in the page cache, every "
                    + "call's bytes checked. Through hpio's provider a platform thread's call is the JDK's channel "
                    + "(hpio's would bring a thread that blocks in its reads anyway nothing, and opening it costs a "
                    + "second path walk, hpio's type check by name), a virtual thread's is hpio's: its open, size, "
                    + "reads (served at once from the page cache, no engine round trip) and close, whose cold reads "
                    + "park the thread rather than pin its carrier. Not one of the issue's targets: the price of "
                    + "installing the provider for code that reads small files. First call: the row's JVM's first "
                    + "Files.readAllBytes, its start-up included (each row is a JVM of its own); until hpio's engines "
                    + "are started, which its first such call on a virtual thread asks a thread of its own to do, a "
                    + "virtual thread's call is the JDK's channel too. The channel column is the one the timed calls "
                    + "got, after the warm-up."));
        }
        firstCalls(report, of(measured, NioConfig.FIRST));
        Table targets = targets(report, measured, s);
        if (!targets.rows().isEmpty()) {
            report.table(targets);
        }
    }

    /** (f): each first-call row's steps. */
    private static void firstCalls(SuiteReport report, List<NioConfig.Measured> first) {
        if (first.isEmpty()) {
            return;
        }
        Table t = new Table("(f) A cold JVM's first FileChannel or AsynchronousFileChannel: open, one "
                + NioSettings.SMALL_FILE_BYTES
                + "-byte read or write, close", List.of("configuration", "provider", "first path ms", "pause ms",
                "channel", "first call ms", "open ms", "read / write ms", "close ms", "threads"));
        for (NioConfig.Measured m : first) {
            String channel = m.figures().get("channel");
            t.row(m.name(), provider(m), format("%.2f", m.number("first-path-ms")),
                    format("%.0f", m.number("pause-ms")),
                    channel == null ? "?" : channel.startsWith("org.hpio.") ? "hpio's" : "the JDK's",
                    format("%.2f", m.number("first-call-ms")), format("%.2f", m.number("open-ms")),
                    format("%.2f", m.number("io-ms")), format("%.2f", m.number("close-ms")),
                    format("%.0f", m.number("threads")));
        }
        report.table(t.note("Each row a JVM of its own whose first file I/O is FileChannel.open (first-async: "
                + "AsynchronousFileChannel.open, the operation's Future waited for), one read of a "
                + "small cached file (or one write of a new one, read back after the timing) and close, each step "
                + "timed; the median of the rounds. On hpio's provider, what a program pays once for installing "
                + "it: the Foreign Function linker's start-up and its calls' linking (the provider links them, and "
                + "io_uring's, on a thread of its own from its construction, where native access is granted), and "
                + "io_uring's set-up only when a call needs an engine (a cached read does not; a FileChannel's "
                + "small write from a platform thread does not; an asynchronous write does). "
                + "first-read-vt and first-write-vt: the same "
                + "FileChannel calls on a virtual thread (started before the timing). "
                + "Pause: the row first sleeps that long, standing for the rest of a program's start-up; 0 is the "
                + "call at once, the worst case. Threads: the JVM's live threads after the call. First path: the "
                + "reported round's JVM's first Path.of, before the pause, where the JDK makes the default file system and, on "
                + "hpio's provider, constructs it: reflectively, which costs a cold JVM 8-11 ms of method-handle "
                + "set-up for any class the property names (a constructor taking the provider and doing nothing), "
                + "then hpio's own classes; hpio's warm-up starts when its class is initialized, before that."));
    }

    private static List<NioConfig.Measured> of(List<NioConfig.Measured> measured, String section) {
        return measured.stream().filter(m -> m.config().section().equals(section)).toList();
    }

    private static String provider(NioConfig.Measured m) {
        return switch (m.config().provider()) {
            case "jdk" -> "JDK";
            case "hpio" -> "hpio";
            case NioConfig.HPIO_SQPOLL -> "hpio, SQPOLL";
            case NioConfig.HPIO_ONE_RING -> "hpio, one ring";
            default -> "hpio engine (no channel)";
        };
    }

    private static void results(SuiteReport report, NioConfig.Measured m) {
        String name = m.name();
        if (m.config().kind().equals(NioConfig.FLOOD)) {
            report.result(name, "submitted", m.number("submitted"), "count");
            report.result(name, "acknowledged", m.number("acknowledged"), "count");
            report.result(name, "out-of-memory", m.flag("out-of-memory") ? 1 : 0, "count");
            report.result(name, "peak-pending", m.number("peak-pending"), "count");
            report.result(name, "peak-live-heap", m.number("peak-live-heap") / MIB, "MiB");
            report.result(name, "peak-heap-used", m.number("peak-heap-used") / MIB, "MiB");
            report.result(name, "checked", m.number("checked-bytes") / MIB, "MiB");
            return;
        }
        if (m.config().firstCall()) {
            for (String step : List.of("first-path-ms", "first-call-ms", "open-ms", "io-ms", "close-ms")) {
                report.result(name, step, m.number(step), "ms");
            }
            return;
        }
        report.result(name, "iops", m.number("iops"), "ops/s");
        report.result(name, "cpu-per-io", m.number("cpu-per-io"), "µs");
        if (!Double.isNaN(m.number("jit-cpu-per-io"))) {
            report.result(name, "jit-cpu-per-io", m.number("jit-cpu-per-io"), "µs");
            report.result(name, "extra-warmup-seconds", m.number("extra-warmup-seconds"), "s");
        }
        report.result(name, "p50", m.number("p50"), "µs");
        report.result(name, "p99", m.number("p99"), "µs");
        if (!Double.isNaN(m.number("peak-os-threads"))) {
            report.result(name, "peak-os-threads", m.number("peak-os-threads"), "count");
        }
        if (!Double.isNaN(m.number("block-read-us"))) {   // the block layer's account (virtual-thread rows)
            report.result(name, "block-read-us", m.number("block-read-us"), "µs");
            report.result(name, "block-queue", m.number("block-queue"), "count");
            report.result(name, "block-reads-per-s", m.number("block-reads-per-s"), "ops/s");
        }
        if (!Double.isNaN(m.number("interrupts-per-io"))) {
            report.result(name, "interrupts-per-io", m.number("interrupts-per-io"), "count");
        }
        if (!Double.isNaN(m.number("reader-reads-p50"))) {   // how the reads were shared (virtual-thread rows)
            for (String q : List.of("p10", "p50", "p90")) {
                report.result(name, "reader-reads-" + q, m.number("reader-reads-" + q), "count");
            }
        }
    }

    private static Table floodTable(List<NioConfig.Measured> floods, NioSettings s) {
        Table t = new Table("(a) 003's experiment: " + s.floodWrites() + " writes of "
                + (s.floodWriteBytes() >> 20) + " MiB submitted without waiting, -Xmx" + s.floodHeap(),
                List.of("configuration", "provider", "submitted", "acknowledged", "OutOfMemoryError",
                        "peak pending", "peak live heap MiB", "peak heap used MiB", "checked MiB", "seconds"));
        for (NioConfig.Measured m : floods) {
            t.row(m.name(), provider(m), format("%.0f", m.number("submitted")), format("%.0f", m.number("acknowledged")),
                    m.flag("out-of-memory") ? "yes" : "no", format("%.0f", m.number("peak-pending")),
                    format("%.1f", m.number("peak-live-heap") / MIB), format("%.1f", m.number("peak-heap-used") / MIB),
                    format("%.0f", m.number("checked-bytes") / MIB), format("%.2f", m.number("seconds")));
        }
        return t.note("DSYNC: each write waits for the device, while submitting one only allocates and fills an "
                + "array. Pending: submitted, handler not yet run. Live heap: after each collection (the "
                + "collector's notifications). The JDK's channel keeps each pending write's array in its "
                + "executor's queue; hpio's copies it off-heap within the engine's staging budget ("
                + s.stagedWrites() + " writes of this size), holds the caller's buffer only weakly, and makes the "
                + "submitting thread wait at the bound. Checked: every acknowledged write read back with "
                + "RandomAccessFile and compared word by word.");
    }

    private static Table targets(SuiteReport report, List<NioConfig.Measured> measured, NioSettings s) {
        TargetsTable targets = new TargetsTable(report, report.quotedTable("Targets, same run",
                List.of("ratio", "metric", "value", "target", "met")));
        Table t = targets.table();
        int qd = NioSettings.TARGET_DEPTH;
        ratio(targets, measured, "hpio-afc-qd" + qd, "uring-qd" + qd, "iops", m -> m.number("iops"), ">= 0.9",
                v -> v >= 0.9);
        ratio(targets, measured, "hpio-afc-qd" + qd, "jdk-afc-qd" + qd, "cpu-per-io without JIT",
                NioReport::steadyCpuPerIo, "<= 0.5", v -> v <= 0.5);
        ratio(targets, measured, "hpio-afc-qd" + qd, "jdk-afc-qd" + qd, "cpu-per-io", m -> m.number("cpu-per-io"),
                FOR_COMPARISON, null);
        for (int depth : s.depths()) {
            if (depth != qd) {
                ratio(targets, measured, "hpio-afc-qd" + depth, "jdk-afc-qd" + depth, "iops", m -> m.number("iops"),
                        FOR_COMPARISON, null);
                ratio(targets, measured, "hpio-afc-qd" + depth, "jdk-afc-qd" + depth, "cpu-per-io",
                        m -> m.number("cpu-per-io"), FOR_COMPARISON, null);
            }
        }
        ratio(targets, measured, "hpio-afc-qd" + qd, "jdk-afc-qd" + qd, "iops", m -> m.number("iops"),
                FOR_COMPARISON, null);
        for (int threads : s.threads()) {
            ratio(targets, measured, "hpio-vt" + threads, "jdk-vt" + threads, "iops", m -> m.number("iops"), ">= 1.0",
                    v -> v >= 1.0);
            ratio(targets, measured, "hpio-vt" + threads, "jdk-vt" + threads, "peak-os-threads",
                    m -> m.number("peak-os-threads"), "<= 0.1", v -> v <= 0.1);
            ratio(targets, measured, "hpio-vt" + threads, "jdk-vt" + threads, "cpu-per-io",
                    m -> m.number("cpu-per-io"), FOR_COMPARISON, null);
            for (String provider : List.of(NioConfig.HPIO_SQPOLL, NioConfig.HPIO_ONE_RING)) {
                for (String metric : List.of("iops", "peak-os-threads", "cpu-per-io")) {
                    ratio(targets, measured, provider + "-vt" + threads, "jdk-vt" + threads, metric,
                            m -> m.number(metric), FOR_COMPARISON, null);
                }
            }
            String reference = "uring-qd" + NioSettings.VTHREADS_REFERENCE_DEPTH;
            for (String row : List.of("jdk-vt" + threads, "hpio-vt" + threads)) {
                ratio(targets, measured, row, reference, "iops", m -> m.number("iops"), FOR_COMPARISON, null);
            }
        }
        ratio(targets, measured, name(NioConfig.HEAP, "hpio", NioSettings.HEAP_THREADS),
                name(NioConfig.HEAP, "jdk", NioSettings.HEAP_THREADS), "iops", m -> m.number("iops"), FOR_COMPARISON,
                null);
        for (String kind : List.of(NioConfig.SMALL, NioConfig.SMALL_VT, NioConfig.SMALL_VT_EACH)) {
            ratio(targets, measured, name(kind, "hpio", NioSettings.SMALL_FILE_BYTES),
                    name(kind, "jdk", NioSettings.SMALL_FILE_BYTES), "calls per second", m -> m.number("iops"),
                    FOR_COMPARISON, null);
        }
        for (String kind : NioConfig.FIRST_KINDS) {
            for (int pause : List.of(0, NioSettings.FIRST_CALL_PAUSE_MILLIS)) {
                ratio(targets, measured, new NioConfig(kind, "hpio", pause).configuration(),
                        new NioConfig(kind, "jdk", pause).configuration(), "first call ms",
                        m -> m.number("first-call-ms"), FOR_COMPARISON, null);
            }
        }
        find(measured, "jdk-flood").ifPresent(m -> {
            boolean grew = m.flag("out-of-memory") || m.number("peak-pending") > 2 * s.stagedWrites();
            t.row("jdk-flood", "heap and pending writes", (m.flag("out-of-memory") ? "OutOfMemoryError" : "no error")
                    + " after " + format("%.0f", m.number("submitted")) + " writes; " + format("%.0f", m.number("peak-pending"))
                    + " pending, " + format("%.1f", m.number("peak-live-heap") / MIB) + " MiB live",
                    "grows (to OutOfMemoryError, or past hpio's bound of " + 2 * s.stagedWrites() + " pending)",
                    grew ? "yes" : "no");
        });
        find(measured, "hpio-flood").ifPresent(m -> {
            double liveBound = s.floodHeapBytes() / 4.0;
            boolean bounded = !m.flag("out-of-memory") && m.number("peak-pending") <= 2 * s.stagedWrites()
                    && m.number("peak-live-heap") <= liveBound && m.number("acknowledged") == s.floodWrites();
            t.row("hpio-flood", "heap and pending writes", format("%.0f", m.number("acknowledged")) + " of "
                            + s.floodWrites() + " written; " + format("%.0f", m.number("peak-pending")) + " pending, "
                            + format("%.1f", m.number("peak-live-heap") / MIB) + " MiB live",
                    "bounded: every write done, no error, <= " + 2 * s.stagedWrites() + " pending (twice the "
                            + s.stagedWrites() + " the staging budget holds), live heap <= "
                            + format("%.0f", liveBound / MIB) + " MiB (a quarter of -Xmx" + s.floodHeap() + ")",
                    bounded ? "yes" : "no");
        });
        return t.note("Same run, same file; every row checked its own bytes before its figures count. 'met' compares "
                + "with issue 17's targets; the machine is shared, so one run is one sample.");
    }

    /** A table of virtual-thread read rows ((c), (e)): one {@link #readRow} per row. */
    private static Table threadsTable(String title, List<NioConfig.Measured> rows) {
        Table t = new Table(title, List.of("configuration", "provider", "virtual threads", "IOPS", "CPU µs / I/O",
                "of which JIT", "p50 µs", "p99 µs", "peak OS threads", "device reads / s", "block layer µs / read",
                "in block layer", "interrupts / read", "reads per thread p10 / p50 / p90"));
        for (NioConfig.Measured m : rows) {
            readRow(t, m, optional(m, "block-reads-per-s", "%.0f"), optional(m, "block-read-us", "%.0f"),
                    optional(m, "block-queue", "%.0f"),
                    optional(m, "interrupts-per-io", "%.3f"), readsPerThread(m));
        }
        return t;
    }

    /** How the row's reads were shared among its threads, or a dash where it has no threads of its own. */
    private static String readsPerThread(NioConfig.Measured m) {
        if (Double.isNaN(m.number("reader-reads-p50"))) {
            return "–";
        }
        return format("%.0f", m.number("reader-reads-p10")) + " / " + format("%.0f", m.number("reader-reads-p50"))
                + " / " + format("%.0f", m.number("reader-reads-p90"));
    }

    /** {@code key}'s figure in {@code pattern}, or a dash where the row has none (the engine's own driver). */
    private static String optional(NioConfig.Measured m, String key, String pattern) {
        double v = m.number(key);
        return Double.isNaN(v) ? "–" : format(pattern, v);
    }

    /**
     * A read row of table (b) or (c): its parameter (QD or threads), rate, CPU, latency and peak OS threads, then
     * {@code more} cells.
     */
    private static void readRow(Table t, NioConfig.Measured m, String... more) {
        String parameter = Integer.toString(m.config().parameter());
        if (m.config().kind().equals(NioConfig.URING) && m.config().section().equals(NioConfig.VTHREADS)) {
            parameter = "none (QD " + parameter + ")";
        }
        List<String> cells = new ArrayList<>(List.of(m.name(), provider(m), parameter, format("%.0f", m.number("iops")),
                format("%.2f", m.number("cpu-per-io")), format("%.2f", m.number("jit-cpu-per-io")),
                format("%.0f", m.number("p50")),
                format("%.0f", m.number("p99")), format("%.0f", m.number("peak-os-threads"))));
        cells.addAll(List.of(more));
        t.row(cells);
    }

    /** A row's name, as {@link NioConfig#configuration} gives it (the one place rows are named). */
    private static String name(String kind, String provider, int parameter) {
        return new NioConfig(kind, provider, parameter).configuration();
    }

    private static Optional<NioConfig.Measured> find(List<NioConfig.Measured> measured, String name) {
        return measured.stream().filter(m -> m.name().equals(name)).findFirst();
    }

    /** Adds the row and result {@code a-vs-b} when both were measured. */
    /**
     * The row's CPU per I/O without its JIT compiler threads' part: the path's own cost in steady state (the
     * compiler's is a one-time cost of warming up, which a short row cannot fully leave behind; rows that did
     * not measure it count it all).
     */
    static double steadyCpuPerIo(NioConfig.Measured m) {
        double jit = m.number("jit-cpu-per-io");
        return m.number("cpu-per-io") - (Double.isNaN(jit) ? 0 : jit);
    }

    private static void ratio(TargetsTable targets, List<NioConfig.Measured> measured, String a, String b, String metric,
                              ToDoubleFunction<NioConfig.Measured> value, String target, DoublePredicate met) {
        targets.ratio(a, b, metric, find(measured, a).stream().mapToDouble(value).findFirst(),
                find(measured, b).stream().mapToDouble(value).findFirst(), target, met);
    }
}
