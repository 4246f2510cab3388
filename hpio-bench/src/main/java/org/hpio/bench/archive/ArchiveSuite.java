package org.hpio.bench.archive;

import org.hpio.archive.Archive;
import org.hpio.bench.measure.Medians;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.hpio.bench.suite.Suite;

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
 * list known in advance; a file loaded again reuses the memory the loader kept, within its 128 MiB; {@code -direct}:
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
 * ({@link OpeningTime}). The rows: {@link ArchivePlan}; the replays themselves: {@link Replays}; the parameters:
 * {@link ArchiveParams}.
 */
public final class ArchiveSuite implements Suite {
    @Override
    public String name() {
        return "archive";
    }

    @Override
    public String summary() {
        return "trace replay (002 §4.2), python trace and a game's small files: loose files, ZipFile and hpio archives, "
                + "block size and queue depth sweeps";
    }

    @Override
    public void run(BenchContext context) throws Exception {
        BenchOptions options = context.options();
        ColdStart coldStart = ColdStart.choose(options.suiteOption("cold"));
        ArchiveParams.describe(context.report(), options, coldStart);
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
        if (!ArchivePlan.anyChosen(options, w)) {
            return List.of();
        }
        Path dir = context.workDir().resolve(w.name());
        TraceData data = TraceData.prepare(dir, w.source().get(), options.size().orElse(Long.MAX_VALUE));
        try {
            List<ArchiveConfig> configs = ArchivePlan.chosen(options, w, data);
            ArchiveParams.describe(context.report(), w, data);
            List<Measured> measured = Replays.replayAll(context, w, data, configs, coldStart);
            List<Measured> medians = Medians.byName(measured, Measured::key, Measured::mbPerSecond);
            ReplayTables.report(context.report(), w, medians, Replays.countSyscalls(context, w, data, configs));
            return medians;
        } finally {
            data.delete();
            Files.deleteIfExists(dir);
        }
    }
}
