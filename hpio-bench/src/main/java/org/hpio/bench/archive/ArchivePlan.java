package org.hpio.bench.archive;

import org.hpio.archive.LoadOptions;
import org.hpio.archive.LookAhead;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.bench.suite.BenchOptions;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The archive suite's rows (configurations) and their names (DESIGN.md's naming): the core rows every workload
 * gets, the recorded trace's further rows and sweeps, and which of them a run replays.
 */
final class ArchivePlan {
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

    private ArchivePlan() {
    }

    static String archiveName(boolean deflate, int blockKiB, int depth, boolean direct) {
        return "archive-" + (deflate ? "deflate" : "stored") + "-bs" + blockKiB + "k-qd" + depth
                + (direct ? "-direct" : "");
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
            String zstd = "libzstd, " + TraceData.zstdDescription();
            configs.add(ArchiveConfig.archive(ZSTD, data.zstd(), defaults, zstd));
            configs.add(ArchiveConfig.lookAhead(ZSTD_AHEAD, data.zstd(), defaults, LookAhead.defaults(), paths, zstd));
            configs.add(ArchiveConfig.lookAhead(ZSTD_AHEAD + "-direct", data.zstd(), defaults.withDirect(true),
                    LookAhead.defaults(), paths, zstd));
        }
        LookAhead lookAhead = LookAhead.defaults();
        for (String ahead : List.of(STORED_AHEAD, DEFLATE_AHEAD)) {
            Path archive = ahead.equals(STORED_AHEAD) ? data.stored() : data.deflated();
            configs.add(ArchiveConfig.lookAhead(ahead, archive, defaults, lookAhead, paths));
            configs.add(ArchiveConfig.lookAhead(ahead + "-direct", archive, defaults.withDirect(true), lookAhead, paths));
            configs.add(ArchiveConfig.lookAhead(ahead + "-noreuse", archive, defaults, lookAhead.withReuse(false), paths));
            configs.add(ArchiveConfig.lookAhead(ahead + "-w0", archive, defaults, lookAhead.withWorkers(0), paths));
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
    static List<ArchiveConfig> recordedTraceConfigs(TraceData data) {
        List<ArchiveConfig> configs = new ArrayList<>(coreConfigs(data));
        LoadOptions defaults = LoadOptions.defaults();
        configs.add(ArchiveConfig.cachedArchive(STORED + "-cached", data.stored(), defaults, CACHE_BYTES));
        configs.add(ArchiveConfig.cachedArchive(MAIN + "-cached", data.deflated(), defaults, CACHE_BYTES));
        configs.add(ArchiveConfig.archive(MAIN + "-blocks", data.deflated(),
                defaults.withInflation(LoadOptions.Inflation.BLOCKS)));
        configs.add(ArchiveConfig.archive(MAIN + "-jdk", data.deflated(),
                defaults.withInflation(LoadOptions.Inflation.WHOLE_JDK)));
        configs.add(ArchiveConfig.archive(archiveName(false, 32, 4, true), data.stored(), defaults.withDirect(true)));
        configs.add(ArchiveConfig.archive(archiveName(true, 32, 4, true), data.deflated(), defaults.withDirect(true)));
        for (int kib : BLOCK_SIZES_KIB) {
            if (kib != 32) {
                configs.add(ArchiveConfig.archive(archiveName(true, kib, 4, false), data.deflated(),
                        defaults.withBlockSize(kib << 10)));
            }
        }
        for (int depth : QUEUE_DEPTHS) {
            if (depth != 4) {
                configs.add(ArchiveConfig.archive(archiveName(true, 32, depth, false), data.deflated(),
                        defaults.withQueueDepth(depth)));
            }
        }
        return configs;
    }

    /**
     * The rows of {@code w} that {@code options} choose ({@code --configs}), without the sweep points in a quick
     * run that names none.
     */
    static List<ArchiveConfig> chosen(BenchOptions options, Workload w, TraceData data) {
        return w.configs().apply(data).stream().filter(config -> w.selects(options, config.name()))
                .filter(config -> !(options.quick() && options.configs().isEmpty() && isSweepPoint(config.name())))
                .toList();
    }

    /** Whether {@code options} choose any row of {@code w} (before its data is made). */
    static boolean anyChosen(BenchOptions options, Workload w) {
        return w.configs().apply(TraceData.none()).stream().anyMatch(config -> w.selects(options, config.name()));
    }
}
