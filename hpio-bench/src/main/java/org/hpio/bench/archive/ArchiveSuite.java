package org.hpio.bench.archive;

import org.hpio.archive.Archive;
import org.hpio.archive.LoadOptions;
import org.hpio.archive.LookAhead;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.bench.measure.Medians;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
 * (002 Figure 2) and a queue depth sweep 1-32 on the Deflate archive (with {@code --full}, or rows named by
 * {@code --configs}). Deflate rows inflate whole entries
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
 * rows of the same workload and page-cache state. Also: the time to open an archive of 50,000 entries
 * ({@link OpeningTime}). The replays themselves: {@link Replays}.
 */
public final class ArchiveSuite implements Suite {
    static final int[] BLOCK_SIZES_KIB = {4, 8, 16, 32, 64, 128};
    static final int[] QUEUE_DEPTHS = {1, 2, 4, 8, 16, 32};
    static final String MAIN = "archive-deflate-bs32k-qd4";
    static final String STORED = "archive-stored-bs32k-qd4";
    static final String STORED_AHEAD = "archive-stored-lookahead";
    static final String DEFLATE_AHEAD = "archive-deflate-lookahead";
    static final String ZSTD = "archive-zstd-bs32k-qd4";
    static final String ZSTD_AHEAD = "archive-zstd-lookahead";
    /** The whole-file cache of the -cached rows: the python trace's distinct files (57.7 MiB) fit. */
    static final long CACHE_BYTES = 64L << 20;

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
    static List<ArchiveConfig> coreConfigs(TraceData data) {
        List<ArchiveConfig> configs = new ArrayList<>();
        LoadOptions defaults = LoadOptions.defaults();
        configs.add(ArchiveConfig.readAllBytes(data));
        configs.add(ArchiveConfig.looseHpio(data, defaults));
        configs.add(ArchiveConfig.zipFile("zipfile-stored", data.stored()));
        configs.add(ArchiveConfig.zipFile("zipfile-deflate", data.deflated()));
        configs.add(ArchiveConfig.archive(STORED, data.stored(), defaults));
        configs.add(ArchiveConfig.archive(MAIN, data.deflated(), defaults));
        List<String> paths = data.loads().stream().map(TraceEvent::path).toList();
        if (data.zstd() != null) { // Zstandard (issue 20): plain load and look-ahead beside stored and Deflate
            configs.add(ArchiveConfig.archive(ZSTD, data.zstd(), defaults));
            configs.add(ArchiveConfig.lookAhead(ZSTD_AHEAD, data.zstd(), defaults, LookAhead.defaults(), paths));
        }
        for (String ahead : List.of(STORED_AHEAD, DEFLATE_AHEAD)) {
            Path archive = ahead.equals(STORED_AHEAD) ? data.stored() : data.deflated();
            configs.add(ArchiveConfig.lookAhead(ahead, archive, defaults, LookAhead.defaults(), paths));
            configs.add(ArchiveConfig.lookAhead(ahead + "-direct", archive, defaults.withDirect(true), LookAhead.defaults(), paths));
            configs.add(ArchiveConfig.lookAhead(ahead + "-noreuse", archive, defaults, LookAhead.defaults().withReuse(false), paths));
            configs.add(ArchiveConfig.lookAhead(ahead + "-w0", archive, defaults, LookAhead.defaults().withWorkers(0), paths));
        }
        return configs;
    }

    /**
     * Whether {@code name} is a point of the block size or queue depth sweep other than the default (32 KiB, 4):
     * a quick run ({@code hpio bench} without {@code --full}) leaves them out unless {@code --configs} names them;
     * no target uses them.
     */
    static boolean isSweepPoint(String name) {
        return name.matches(".*-(bs(4|8|16|64|128)k|qd(1|2|8|16|32))(-.*)?");
    }

    /** The recorded trace's rows: the core ones, then the cache, inflation and O_DIRECT rows and both sweeps. */
    static List<ArchiveConfig> configs(TraceData data) {
        List<ArchiveConfig> configs = new ArrayList<>(coreConfigs(data));
        LoadOptions defaults = LoadOptions.defaults();
        configs.add(ArchiveConfig.cachedArchive(STORED + "-cached", data.stored(), defaults, CACHE_BYTES));
        configs.add(ArchiveConfig.cachedArchive(MAIN + "-cached", data.deflated(), defaults, CACHE_BYTES));
        configs.add(ArchiveConfig.archive(MAIN + "-blocks", data.deflated(), defaults.withInflation(LoadOptions.Inflation.BLOCKS)));
        configs.add(ArchiveConfig.archive(MAIN + "-jdk", data.deflated(), defaults.withInflation(LoadOptions.Inflation.WHOLE_JDK)));
        configs.add(ArchiveConfig.archive(archiveName(false, 32, 4, true), data.stored(), defaults.withDirect(true)));
        configs.add(ArchiveConfig.archive(archiveName(true, 32, 4, true), data.deflated(), defaults.withDirect(true)));
        for (int kib : BLOCK_SIZES_KIB) {
            if (kib != 32) {
                configs.add(ArchiveConfig.archive(archiveName(true, kib, 4, false), data.deflated(), defaults.withBlockSize(kib << 10)));
            }
        }
        for (int depth : QUEUE_DEPTHS) {
            if (depth != 4) {
                configs.add(ArchiveConfig.archive(archiveName(true, 32, depth, false), data.deflated(), defaults.withQueueDepth(depth)));
            }
        }
        return configs;
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
        OpeningTime.measure(context.report(), context.workDir());
    }

    /** Prepares {@code w}'s data, replays its chosen rows, counts their system calls, reports; the medians. */
    private static List<Measured> replayWorkload(BenchContext context, Workload w, ColdStart coldStart)
            throws Exception {
        BenchOptions options = context.options();
        if (w.configs().apply(TraceData.none()).stream().noneMatch(config -> w.selects(options, config.name()))) {
            return List.of();
        }
        Path dir = context.workDir().resolve(w.name());
        TraceData data = TraceData.prepare(dir, w.source().get(), options.size().orElse(Long.MAX_VALUE));
        try {
            List<ArchiveConfig> configs = w.configs().apply(data).stream().filter(config -> w.selects(options, config.name()))
                    .filter(config -> !(options.quick() && options.configs().isEmpty() && isSweepPoint(config.name())))
                    .toList();
            describe(context.report(), w, data);
            List<Measured> measured = Replays.replayAll(context, w, data, configs, coldStart);
            List<Measured> medians = Medians.byName(measured, Measured::key, Measured::mbPerSecond);
            ReplayTables.report(context.report(), w, medians, Replays.countSyscalls(context, w, data, configs));
            return medians;
        } finally {
            data.delete();
            Files.deleteIfExists(dir);
        }
    }

    private static void describe(SuiteReport report, BenchOptions options, ColdStart coldStart) {
        report.param("workloads", "the python trace (or --trace) with every row; the game's small files (generated) "
                        + "with the rows both get; --configs chooses rows by name, by workload-prefixed name "
                        + "(game-loose-readallbytes) or a whole workload (python, trace, game)")
                .param("page-cache", "cold: " + coldStart.description + "; warm: each file read once before")
                .param("sweeps", options.quick() && options.configs().isEmpty()
                        ? "block size and queue depth sweeps left out (quick run; --full, or --configs naming them)"
                        : "Deflate archive, block sizes 4-128 KiB at queue depth 4, queue depths 1-32 at 32 KiB")
                .param("rounds", options.repetitions() + " interleaved, after " + Replays.WARM_UP_MIN + "-"
                        + Replays.WARM_UP_MAX + " untimed warm replays (" + (options.quick() ? "0.3 s, quick" : "1 s")
                        + ") per configuration; the median replay is "
                        + "reported")
                .param("timing", "System.nanoTime around opening, each load and each release; each load's "
                        + "CRC-32 check against the file's is untimed")
                .param("syscalls", StraceCounter.unavailable().map(why -> "not counted: " + why)
                        .orElse("the first " + (options.quick() ? Replays.QUICK_COUNTED_LOADS : Replays.COUNTED_LOADS) + " loads (at most) of one untimed warm replay "
                                + "per row under strace -f -c -p <this JVM>, after the timed ones "
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
                        + size(data.deflated()) + " bytes" + (data.zstd() == null ? "; no Zstandard rows (libzstd missing)"
                        : ", Zstandard (level " + TraceData.ZSTD_LEVEL + "): " + size(data.zstd()) + " bytes"));
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }
}
