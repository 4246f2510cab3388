package org.hpio.bench.archive;

import org.hpio.archive.Archive;
import org.hpio.archive.LoadOptions;
import org.hpio.archive.LoadedFile;
import org.hpio.archive.LookAhead;
import org.hpio.archive.order.FileCacheModel;
import org.hpio.archive.order.SeekCounter;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.bench.io.PageCache;
import org.hpio.bench.report.Medians;
import org.hpio.bench.report.Progress;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suite;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * {@code hpio bench archive}: 002 §4.2's throughput measurement on two workloads. The recorded one replays a load
 * trace (default: the python startup trace, 1,712 loads, with the machine's Python installation as its files; files
 * of 77 KB on average); the game one ({@link GameAssets}) a generated game's asset loading, 27,052 loads of 2,256
 * mostly 0.3-6 KiB files, where the per-file cost shows. Each file is loaded in trace order with: loose files and
 * {@code Files.readAllBytes}; loose files through hpio's mount table; {@code java.util.zip.ZipFile} on the stored
 * and Deflate archives; hpio's {@link Archive#load} on the same archives (32 KiB blocks, queue depth 4); and (the
 * recorded trace only) with O_DIRECT. Cold (by default the whole machine's page cache, dentries and inodes dropped
 * first, as after a reboot, where root may; else, or with {@code --cold files}, each file's pages dropped with
 * POSIX_FADV_DONTNEED) and warm (each file read once first). For the recorded trace, a block size sweep 4-128 KiB
 * (002 Figure 2) and a queue depth sweep 1-32 on the Deflate archive. Deflate rows inflate whole entries
 * (libdeflate when the system has it); {@code -blocks} is 002 §3.2's per-block Inflater, {@code -jdk} whole-buffer
 * Inflater. The {@code -lookahead} rows load the trace through {@link org.hpio.archive.ArchiveLoader} (the load
 * list known in advance; a file loaded again reuses the memory the loader kept, within its 64 MiB; {@code -direct}:
 * O_DIRECT; {@code -noreuse}: repeats read again; {@code -w0}: no decode workers), still delivering and checking
 * each file in trace order; since their reads and workers may progress while the replay checks a file, the table
 * also gives wall-clock MB/s.
 *
 * <p>Figure: effective MB/s = bytes of files delivered / elapsed time (002 §4.2), where elapsed time sums the
 * opening of the archive (or ZipFile, or mount table), every load and every release; the check of each load's
 * bytes (CRC-32 against the file's) runs between them, untimed. Load count and seeks (measured by hpio's
 * loader; 002 §4.3's model on the archive layout for ZipFile; not known for loose files), microseconds per load
 * and system calls per load (one untimed warm replay per row under {@code strace -f -c}, {@link StraceCounter})
 * beside it. Rounds run interleaved; the median is reported. The targets table ({@link ArchiveTargets}) compares
 * rows of the same workload and page-cache state. Also: the time to open an archive of 50,000 entries.
 */
public final class ArchiveSuite implements Suite {
    static final int[] BLOCK_SIZES_KIB = {4, 8, 16, 32, 64, 128};
    static final int[] QUEUE_DEPTHS = {1, 2, 4, 8, 16, 32};
    static final int OPEN_ENTRIES = 50_000;
    static final String MAIN = "archive-deflate-bs32k-qd4";
    static final String STORED = "archive-stored-bs32k-qd4";
    static final String STORED_AHEAD = "archive-stored-lookahead";
    static final String DEFLATE_AHEAD = "archive-deflate-lookahead";
    /** The whole-file cache of the -cached rows: the python trace's distinct files (57.7 MiB) fit. */
    static final long CACHE_BYTES = 64L << 20;
    /** Warm-up per configuration: at least 3 replays, more (up to 10) until 1 s has passed: compiled code. */
    static final int WARM_UP_MIN = 3;
    static final int WARM_UP_MAX = 10;
    /**
     * The loads of a replay whose system calls are counted: strace slows each call many times, and the game
     * workload's whole replay under it takes a minute; its first 4,000 loads are its start-up and first level.
     */
    static final int COUNTED_LOADS = 4_000;
    static final long WARM_UP_NANOS = 1_000_000_000L;

    /** How a cold replay starts. */
    enum ColdStart {
        /** sync, then the whole machine's page cache, dentries and inodes dropped: as after a reboot. */
        MACHINE("sync; echo 3 > /proc/sys/vm/drop_caches before each replay (page cache, dentries and inodes: "
                + "file data and file-system metadata cold, as after a reboot)"),
        /** Only the replay's own files' pages dropped; their inodes, dentries and directories stay cached. */
        FILES("POSIX_FADV_DONTNEED on every file read before each replay (file data cold; inodes, dentries and "
                + "directories stay cached)");

        final String description;

        ColdStart(String description) {
            this.description = description;
        }

        /** {@code --cold machine|files}; by default machine where the machine allows it, else files. */
        static ColdStart choose(Optional<String> given) {
            if (given.isEmpty()) {
                return PageCache.canDropEverything() ? MACHINE : FILES;
            }
            return switch (given.get()) {
                case "machine" -> {
                    if (!PageCache.canDropEverything()) {
                        throw new IllegalArgumentException("--cold machine needs a writable /proc/sys/vm/drop_caches "
                                + "(root); use --cold files");
                    }
                    yield MACHINE;
                }
                case "files" -> FILES;
                default -> throw new IllegalArgumentException("--cold: expected machine or files, got '"
                        + given.get() + "'");
            };
        }

        void apply(List<Path> files) throws IOException {
            if (this == FILES) {
                for (Path f : files) {
                    PageCache.drop(f);
                }
            } else if (!PageCache.dropEverything()) {
                throw new IOException("could not drop the page cache (sync or /proc/sys/vm/drop_caches failed)");
            }
        }
    }

    @Override
    public String name() {
        return "archive";
    }

    @Override
    public String summary() {
        return "trace replay (002 §4.2), python trace and a game's small files: loose files, ZipFile and hpio archives, "
                + "block size and queue depth sweeps";
    }

    static String archiveName(boolean deflate, int blockKiB, int depth, boolean direct) {
        return "archive-" + (deflate ? "deflate" : "stored") + "-bs" + blockKiB + "k-qd" + depth + (direct ? "-direct" : "");
    }

    /** The rows every workload gets: loose files, ZipFile, Archive.load stored and Deflate, the look-ahead loader. */
    static List<Way> coreWays(TraceData data) {
        List<Way> ways = new ArrayList<>();
        LoadOptions defaults = LoadOptions.defaults();
        ways.add(Way.readAllBytes(data));
        ways.add(Way.looseHpio(data, defaults));
        ways.add(Way.zipFile("zipfile-stored", data.stored()));
        ways.add(Way.zipFile("zipfile-deflate", data.deflated()));
        ways.add(Way.archive(STORED, data.stored(), defaults));
        ways.add(Way.archive(MAIN, data.deflated(), defaults));
        List<String> paths = data.loads().stream().map(TraceEvent::path).toList();
        for (String ahead : List.of(STORED_AHEAD, DEFLATE_AHEAD)) {
            Path archive = ahead.equals(STORED_AHEAD) ? data.stored() : data.deflated();
            ways.add(Way.lookAhead(ahead, archive, defaults, LookAhead.defaults(), paths));
            ways.add(Way.lookAhead(ahead + "-direct", archive, defaults.withDirect(true), LookAhead.defaults(), paths));
            ways.add(Way.lookAhead(ahead + "-noreuse", archive, defaults, LookAhead.defaults().withReuse(false), paths));
            ways.add(Way.lookAhead(ahead + "-w0", archive, defaults, LookAhead.defaults().withWorkers(0), paths));
        }
        return ways;
    }

    /** The recorded trace's rows: the core ones, then the cache, inflation and O_DIRECT rows and both sweeps. */
    static List<Way> ways(TraceData data) {
        List<Way> ways = new ArrayList<>(coreWays(data));
        LoadOptions defaults = LoadOptions.defaults();
        ways.add(Way.cachedArchive(STORED + "-cached", data.stored(), defaults, CACHE_BYTES));
        ways.add(Way.cachedArchive(MAIN + "-cached", data.deflated(), defaults, CACHE_BYTES));
        ways.add(Way.archive(MAIN + "-blocks", data.deflated(), defaults.withInflation(LoadOptions.Inflation.BLOCKS)));
        ways.add(Way.archive(MAIN + "-jdk", data.deflated(), defaults.withInflation(LoadOptions.Inflation.WHOLE_JDK)));
        ways.add(Way.archive(archiveName(false, 32, 4, true), data.stored(), defaults.withDirect(true)));
        ways.add(Way.archive(archiveName(true, 32, 4, true), data.deflated(), defaults.withDirect(true)));
        for (int kib : BLOCK_SIZES_KIB) {
            if (kib != 32) {
                ways.add(Way.archive(archiveName(true, kib, 4, false), data.deflated(), defaults.withBlockSize(kib << 10)));
            }
        }
        for (int depth : QUEUE_DEPTHS) {
            if (depth != 4) {
                ways.add(Way.archive(archiveName(true, 32, depth, false), data.deflated(), defaults.withQueueDepth(depth)));
            }
        }
        return ways;
    }

    @Override
    public void run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        ColdStart coldStart = ColdStart.choose(options.suiteOption("cold"));
        describe(context.report(), options, coldStart);
        List<Workload> workloads = Workload.all(options);
        List<Measured> medians = new ArrayList<>();
        for (Workload w : workloads) {
            medians.addAll(replayWorkload(context, w, coldStart));
        }
        context.report().table(ArchiveTargets.table(context.report(), workloads, medians));
        measureOpening(context, context.report());
    }

    /** Prepares {@code w}'s data, replays its chosen rows, counts their system calls, reports; the medians. */
    private static List<Measured> replayWorkload(BenchContext context, Workload w, ColdStart coldStart)
            throws Exception {
        BenchOptions options = context.options();
        if (w.ways().apply(TraceData.none()).stream().noneMatch(way -> w.selects(options, way.name()))) {
            return List.of();
        }
        TraceData data = TraceData.prepare(context.workDir().resolve(w.name()), w.source().get(),
                options.size().orElse(Long.MAX_VALUE));
        try {
            List<Way> ways = w.ways().apply(data).stream().filter(way -> w.selects(options, way.name())).toList();
            describe(context.report(), w, data);
            List<Measured> measured = replayAll(context, w, data, ways, coldStart);
            List<Measured> medians = Medians.byName(measured, Measured::key, Measured::mbPerSecond);
            ReplayTables.report(context.report(), w, medians, countSyscalls(context, w, data, ways));
            return medians;
        } finally {
            data.delete();
        }
    }

    private static void describe(SuiteReport report, BenchOptions options, ColdStart coldStart) {
        report.param("workloads", "the python trace (or --trace) with every row; the game's small files (generated) "
                        + "with the rows both get; --configs chooses rows by name, by workload-prefixed name "
                        + "(game-loose-readallbytes) or a whole workload (python, trace, game)")
                .param("page-cache", "cold: " + coldStart.description + "; warm: each file read once before")
                .param("rounds", options.repetitions() + " interleaved, after " + WARM_UP_MIN + "-" + WARM_UP_MAX
                        + " untimed warm replays (1 s) per configuration; the median replay is reported")
                .param("timing", "System.nanoTime around opening, each load and each release; each load's "
                        + "CRC-32 check against the file's is untimed")
                .param("syscalls", StraceCounter.unavailable().map(why -> "not counted: " + why)
                        .orElse("the first " + COUNTED_LOADS + " loads (at most) of one untimed warm replay per row "
                                + "under strace -f -c -p <this JVM>, after the timed ones "
                                + "(-D" + StraceCounter.PROPERTY + "=false in HPIO_JAVA_OPTS skips it)"));
    }

    private static void describe(SuiteReport report, Workload w, TraceData data) {
        String p = w.resultPrefix();
        report.param(p + "trace", data.traceName())
                .param(p + "loads", data.loads().size())
                .param(p + "distinct-files", data.sizes().size())
                .param(p + "user-bytes", data.userBytes())
                .param(p + "stand-ins", data.filesNote())
                .param(p + "archives", "trace order (002 §3.3); stored: " + size(data.stored()) + " bytes, Deflate: "
                        + size(data.deflated()) + " bytes");
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }

    private static List<Measured> replayAll(BenchContext context, Workload w, TraceData data, List<Way> ways,
                                            ColdStart coldStart) {
        BenchOptions options = context.options();
        List<Boolean> states = new ArrayList<>();
        if (options.cache().cold()) {
            states.add(true);
        }
        if (options.cache().warm()) {
            states.add(false);
        }
        warmUp(context, w, data, ways);
        List<Measured> measured = new ArrayList<>();
        try (Progress progress = context.progress(w.name() + " replays",
                (long) options.repetitions() * states.size() * ways.size())) {
            for (int round = 0; round < options.repetitions(); round++) {
                for (boolean cold : states) {
                    for (Way way : ways) {
                        String what = w.key(way.name()) + (cold ? " cold" : " warm");
                        progress.message(what);
                        try {
                            measured.add(replay(w, way, data, cold ? coldStart : null));
                        } catch (Exception e) {
                            context.report().failure(what, e);
                        }
                        progress.step();
                    }
                }
            }
        }
        return measured;
    }

    /** Untimed, checked replays of every row: engines started, code compiled, before any figure. */
    private static void warmUp(BenchContext context, Workload w, TraceData data, List<Way> ways) {
        for (Way way : ways) {
            try {
                long start = System.nanoTime();
                for (int n = 0; n < WARM_UP_MIN || n < WARM_UP_MAX && System.nanoTime() - start < WARM_UP_NANOS; n++) {
                    replay(w, way, data, null);
                }
            } catch (Exception e) {
                context.report().failure(w.key(way.name()) + " warm-up", e);
            }
        }
    }

    /** Each row's system calls in one untimed, checked warm replay under strace; empty when strace is missing. */
    private static Map<String, SyscallCount> countSyscalls(BenchContext context, Workload w, TraceData data,
                                                           List<Way> ways) {
        Map<String, SyscallCount> counts = new LinkedHashMap<>();
        if (StraceCounter.unavailable().isPresent()) {
            return counts;
        }
        StraceCounter strace = new StraceCounter(context.workDir());
        long start = System.nanoTime();
        try (Progress progress = context.progress(w.name() + " system calls (strace)", ways.size())) {
            for (Way way : ways) {
                progress.message(w.key(way.name()));
                try {
                    warm(way);
                    int loads = Math.min(COUNTED_LOADS, data.loads().size());
                    counts.put(way.name(), strace.count(() -> replayPrepared(w, way, data, false, loads)).over(loads));
                } catch (Exception e) {
                    context.report().note("System calls of " + w.key(way.name()) + " not counted: " + e.getMessage());
                }
                progress.step();
            }
        }
        context.report().param(w.key("syscall-count-seconds"), Math.round((System.nanoTime() - start) / 1e8) / 10.0);
        return counts;
    }

    /**
     * Replays the trace once with {@code way}, cold as {@code coldStart} says or warm when null; every load is
     * checked.
     */
    static Measured replay(Workload w, Way way, TraceData data, ColdStart coldStart) throws IOException {
        if (coldStart != null) {
            coldStart.apply(way.files());
        } else {
            warm(way);
        }
        Measured m = replayPrepared(w, way, data, coldStart != null, data.loads().size());
        return m.seeks().isEmpty() && way.name().startsWith("zipfile")
                ? m.withSeeks(modelSeeks(way.files().getFirst(), data)) : m;
    }

    private static void warm(Way way) throws IOException {
        for (Path f : way.files()) {
            PageCache.warm(f);
        }
    }

    /**
     * Replays the first {@code loads} loads of the trace with {@code way}, the page cache as it is; opening, loads
     * and releases timed.
     */
    private static Measured replayPrepared(Workload w, Way way, TraceData data, boolean cold, int loads)
            throws IOException {
        long nanos = 0;
        long bytes = 0;
        long t0 = System.nanoTime();
        long wallStart = t0;
        OptionalLong seeks;
        try (Way.Session session = way.opener().open()) {
            nanos += System.nanoTime() - t0;
            for (TraceEvent e : data.loads().subList(0, loads)) {
                long a = System.nanoTime();
                Way.Loaded loaded = session.load(e.path());
                long b = System.nanoTime();
                check(way, e, loaded, data);
                bytes += loaded.size();
                long c = System.nanoTime();
                loaded.release();
                nanos += b - a + System.nanoTime() - c;
            }
            seeks = session.seeks();
            t0 = System.nanoTime();
        }
        long wallEnd = System.nanoTime();
        nanos += wallEnd - t0;
        return new Measured(w, way.name(), way.mechanism(), cold, nanos / 1e9, bytes, loads, seeks,
                (wallEnd - wallStart) / 1e9);
    }

    private static void check(Way way, TraceEvent e, Way.Loaded loaded, TraceData data) {
        long expected = data.expected().get(e.path());
        if (loaded.size() != e.size() || loaded.crc() != expected) {
            throw new IllegalStateException(way.name() + " loaded " + loaded.size() + " bytes of " + e.path()
                    + " with CRC-32 " + Long.toHexString(loaded.crc()) + ", expected " + e.size() + " bytes with "
                    + Long.toHexString(expected));
        }
    }

    /** 002 §4.3's seek count on the archive's real layout, no file cache (what ZipFile reads). */
    private static OptionalLong modelSeeks(Path archive, TraceData data) throws IOException {
        try (Archive a = Archive.open(archive)) {
            return OptionalLong.of(SeekCounter.count(data.trace(), a.layout(), FileCacheModel.none()).wholeTrace().seeks());
        }
    }

    /** Opening an archive of {@value #OPEN_ENTRIES} entries: hpio against ZipFile, warm, median of 9. */
    static void measureOpening(BenchContext context, SuiteReport report) throws IOException {
        Path zip = context.workDir().resolve("many-entries.zip");
        try {
            try (ZipOutputStream z = new ZipOutputStream(new BufferedOutputStream(Files.newOutputStream(zip), 1 << 20))) {
                z.setLevel(1);
                for (int i = 0; i < OPEN_ENTRIES; i++) {
                    z.putNextEntry(new ZipEntry("data/dir" + i % 250 + "/file-" + i + ".txt"));
                    z.write(("entry " + i).getBytes());
                    z.closeEntry();
                }
            }
            PageCache.warm(zip);
            for (int r = 0; r < 5; r++) { // untimed warm-up of both
                try (Archive a = Archive.open(zip); ZipFile z = new ZipFile(zip.toFile())) {
                    checkOpened(a, r);
                }
            }
            double[] hpio = new double[9];
            double[] jdk = new double[9];
            for (int r = 0; r < hpio.length; r++) {
                long t0 = System.nanoTime();
                try (Archive a = Archive.open(zip)) {
                    hpio[r] = (System.nanoTime() - t0) / 1e6;
                    checkOpened(a, r);
                }
                t0 = System.nanoTime();
                try (ZipFile z = new ZipFile(zip.toFile())) {
                    jdk[r] = (System.nanoTime() - t0) / 1e6;
                    if (z.size() != OPEN_ENTRIES) {
                        throw new IllegalStateException("ZipFile saw " + z.size() + " entries");
                    }
                }
            }
            Arrays.sort(hpio);
            Arrays.sort(jdk);
            Table t = new Table("Opening an archive of " + OPEN_ENTRIES + " entries (warm, after 5 untimed opens, median of 9)",
                    List.of("configuration", "ms", "archive bytes"));
            t.row("hpio Archive.open", ReplayTables.fmt(hpio[4]), String.valueOf(Files.size(zip)));
            t.row("java.util.zip.ZipFile", ReplayTables.fmt(jdk[4]), String.valueOf(Files.size(zip)));
            t.note("Each open parses the whole central directory; hpio's index is checked by loading one entry by name.");
            report.table(t);
            report.result("archive-open-" + OPEN_ENTRIES, "open-time", hpio[4] / 1e3, "s");
            report.result("zipfile-open-" + OPEN_ENTRIES, "open-time", jdk[4] / 1e3, "s");
        } finally {
            Files.deleteIfExists(zip);
        }
    }

    private static void checkOpened(Archive a, int round) throws IOException {
        int i = (round * 7919) % OPEN_ENTRIES;
        if (a.size() != OPEN_ENTRIES) {
            throw new IllegalStateException("Archive.open saw " + a.size() + " entries, wrote " + OPEN_ENTRIES);
        }
        try (LoadedFile f = a.load("data/dir" + i % 250 + "/file-" + i + ".txt")) {
            String text = new String(f.toByteArray());
            if (!text.equals("entry " + i)) {
                throw new IllegalStateException("entry " + i + " holds '" + text + "'");
            }
        }
    }
}
