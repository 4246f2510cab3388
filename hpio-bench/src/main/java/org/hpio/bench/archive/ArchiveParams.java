package org.hpio.bench.archive;

import org.hpio.bench.measure.BlockQueue;
import org.hpio.bench.measure.JitQuiet;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The archive suite's parameters in the report: how it measures, and each workload's trace and archives. */
final class ArchiveParams {
    private ArchiveParams() {
    }

    /** How the suite measures, as {@code options} and {@code coldStart} say. */
    static void describe(SuiteReport report, BenchOptions options, ColdStart coldStart) {
        report.param("workloads", "the python trace (or --trace) with every row; the game's small files (generated) "
                        + "with the rows both get; --configs chooses rows by name, by workload-prefixed name "
                        + "(game-loose-readallbytes) or a whole workload (python, trace, game)")
                .param("page-cache", "cold: " + coldStart.description + "; warm: each file read once before")
                .param("sweeps", options.quick() && options.configs().isEmpty()
                        ? "block size and queue depth sweeps left out (quick run; --full, or --configs naming them)"
                        : "Deflate archive, block sizes 4-128 KiB at queue depth 4, queue depths 1-32 at 32 KiB")
                .param("rounds", options.repetitions() + " interleaved, after " + Replays.WARM_UP_MIN + "-"
                        + Replays.WARM_UP_MAX + " untimed replays in each page-cache state measured (a cold one "
                        + "starting cold; " + (options.quick() ? "0.3 s, quick" : "1 s") + ") per configuration, " + jitWait(options)
                        + ", then one untimed round of every row; the median replay is reported")
                .param("timing", "System.nanoTime around opening, each load and each release; each load's "
                        + "CRC-32 check against the file's is untimed")
                .param("syscalls", StraceCounter.unavailable().map(why -> "not counted: " + why)
                        .orElse("the first " + (options.quick() ? Replays.QUICK_COUNTED_LOADS : Replays.COUNTED_LOADS)
                                + " loads (at most) of one untimed warm replay "
                                + "per row under strace -f -c -p <this JVM>, after the timed ones "
                                + "(-D" + StraceCounter.PROPERTY + "=false in HPIO_JAVA_OPTS skips it)"));
    }

    /** Workload {@code w}'s trace, files and archives. */
    static void describe(SuiteReport report, Workload w, TraceData data) {
        String p = w.resultPrefix();
        report.param(p + "trace", data.traceName())
                .param(p + "loads", data.loads().size())
                .param(p + "distinct-files", data.sizes().size())
                .param(p + "user-bytes", data.userBytes())
                .param(p + "stand-ins", data.filesNote())
                .param(p + "archives", "trace order (002 §3.3); stored: " + size(data.stored()) + " bytes, Deflate: "
                        + size(data.deflated()) + " bytes" + zstdArchive(data))
                .param(p + "device", BlockQueue.describeDeviceOf(data.stored().toAbsolutePath().getParent()));
    }

    /** How the rows wait for the JIT after their warm-up (the "rounds" parameter's middle). */
    private static String jitWait(BenchOptions options) {
        if (!Replays.waitsForTheJit(options)) {
            return "without waiting for the JIT (jit-wait=false)";
        }
        return "then more until the JIT's compiler threads used under " + Math.round(JitQuiet.QUIET_SHARE * 100)
                + "% of " + JitQuiet.SLICE_NANOS / 1_000_000 + " ms of replays (at most "
                + JitQuiet.MAX_EXTRA_PER_WARMUP + " times that warm-up, "
                + Replays.JIT_WAIT_BUDGET_NANOS / 1_000_000_000
                + " s per workload in all; extra-warm-up-seconds says how long)";
    }

    /** The zstd archive's settings, size and size against the Deflate archive's (issue 20: at most 1.15x). */
    private static String zstdArchive(TraceData data) {
        if (data.zstd() == null) {
            return "; no Zstandard rows (libzstd missing)";
        }
        return String.format(", Zstandard (%s): %d bytes (%.3fx Deflate's)", TraceData.zstdDescription(),
                size(data.zstd()), (double) size(data.zstd()) / size(data.deflated()));
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }
}
