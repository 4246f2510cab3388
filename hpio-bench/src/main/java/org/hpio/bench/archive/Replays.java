package org.hpio.bench.archive;

import org.hpio.archive.Archive;
import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.archive.simulation.SeekCounter;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.bench.machine.PageCache;
import org.hpio.bench.measure.JitQuiet;
import org.hpio.bench.measure.Rounds;
import org.hpio.bench.measure.WarmUp;
import org.hpio.bench.report.Progress;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The archive suite's replays of one workload: untimed warm-ups, the timed rounds (interleaved, cold and warm),
 * and the untimed count of each row's system calls. Every load of every replay is checked (size and CRC-32).
 */
final class Replays {
    /**
     * The JIT wait's total per workload: rows after it warm up as before (by then the code they share is compiled;
     * without a budget, --full's 40-odd rows of a workload could add minutes).
     */
    static final long JIT_WAIT_BUDGET_NANOS = 30_000_000_000L;
    /** Warm-up per configuration: at least 3 replays, more (up to 10) until 1 s has passed: compiled code. */
    static final int WARM_UP_MIN = 3;
    static final int WARM_UP_MAX = 10;
    /**
     * The loads of a replay whose system calls are counted: strace slows each call many times, and the game
     * workload's whole replay under it takes a minute; its first 4,000 loads are its start-up and first level.
     */
    static final int COUNTED_LOADS = 4_000;
    /** {@link #COUNTED_LOADS} in a quick run. */
    static final int QUICK_COUNTED_LOADS = 1_000;

    private Replays() {
    }

    /** A row replayed cold or warm: what one timed replay measures. */
    private record Replay(ArchiveConfig config, boolean cold) {
    }

    /** Every row's timed replays, {@code options.repetitions()} rounds of each page-cache state, after warm-ups. */
    static List<Measured> replayAll(BenchContext context, Workload w, TraceData data, List<ArchiveConfig> configs,
                                    ColdStart coldStart) throws InterruptedException {
        BenchOptions options = context.options();
        List<Replay> replays = new ArrayList<>();
        for (boolean cold : states(options)) {
            configs.forEach(config -> replays.add(new Replay(config, cold)));
        }
        double extraWarmUp = warmUp(context, w, data, configs, coldStart);
        context.report().param(w.key("extra-warm-up-seconds"), Math.round(extraWarmUp * 10) / 10.0);
        // One untimed round in the timed rounds' order first: rows share the loader's code, and a row's replay
        // right after another's may still make C2 recompile what the other's warm-up profiled.
        Rounds<Replay> rounds = Rounds.<Replay>of(options.repetitions(),
                r -> w.key(r.config().name()) + (r.cold() ? " cold" : " warm")).warmUpRounds(1);
        try (Progress progress = context.progress(w.name() + " replays", rounds.steps(replays.size()))) {
            return rounds.run(replays, (r, warmUp) -> replay(w, r.config(), data, r.cold() ? coldStart : null),
                    context.report(), progress);
        }
    }

    /**
     * Whether rows warm up until the JIT is quiet: yes, unless the suite option {@code jit-wait} says false (the
     * suite's own tests, whose tiny replays would spend most of their time waiting).
     */
    static boolean waitsForTheJit(BenchOptions options) {
        return options.suiteOption("jit-wait").map(Boolean::parseBoolean).orElse(true);
    }

    /** The page-cache states measured: cold (true) first, then warm (false), as {@code --cache} asks. */
    private static List<Boolean> states(BenchOptions options) {
        List<Boolean> states = new ArrayList<>();
        if (options.cache().cold()) {
            states.add(true);
        }
        if (options.cache().warm()) {
            states.add(false);
        }
        return states;
    }

    /**
     * Untimed, checked replays of every row: engines started, code compiled, before any figure. Each warm-up step
     * replays the row once in every page-cache state the run measures (a cold one starting cold), so that the
     * code a cold replay runs and a warm one does not (reads still in flight: the waits, the pumping of the read
     * queue) is compiled too: warmed up warm only, C2 recompiled the loader in the timed cold replays, on the
     * same two cores, 0.3 to 35 ms of compiler CPU in replays of 30 to 80 ms (Intel Xeon, quick run). After its
     * {@link WarmUp}, a row replays on until the JIT's compiler threads were quiet through a slice of replays
     * ({@link JitQuiet}): a replay lasts tens of milliseconds, and in a quick run C2 was still compiling the
     * look-ahead loader's per-file path (downcalls included) when the timed rounds began: a warm Zstandard replay
     * took 45 ms there against 28 ms compiled, a Deflate one 58 against 49. Returns the extra warm-up, in seconds.
     */
    private static double warmUp(BenchContext context, Workload w, TraceData data, List<ArchiveConfig> configs,
                                 ColdStart coldStart) {
        WarmUp warmUp = WarmUp.of(WARM_UP_MIN, WARM_UP_MAX, context.options().quick());
        boolean jitWait = waitsForTheJit(context.options());
        List<Boolean> states = states(context.options());
        long extra = 0;
        for (ArchiveConfig config : configs) {
            try {
                warmUp.repeat(() -> replayInEveryState(w, config, data, states, coldStart));
                extra += !jitWait || extra >= JIT_WAIT_BUDGET_NANOS ? 0
                        : JitQuiet.warmUntilQuiet(warmUp.nanos() / 1e9, JIT_WAIT_BUDGET_NANOS - extra, nanos -> {
                    long start = System.nanoTime();
                    do {
                        replayInEveryState(w, config, data, states, coldStart);
                    } while (System.nanoTime() - start < nanos);
                });
            } catch (Exception e) {
                context.report().failure(w.key(config.name()) + " warm-up", e);
            }
        }
        return extra / 1e9;
    }

    /** One untimed, checked replay of {@code config} in each of {@code states} (true: cold, by {@code coldStart}). */
    private static void replayInEveryState(Workload w, ArchiveConfig config, TraceData data, List<Boolean> states,
                                           ColdStart coldStart) throws IOException {
        for (boolean cold : states) {
            replay(w, config, data, cold ? coldStart : null);
        }
    }

    /**
     * Each row's system calls in the first {@value #COUNTED_LOADS} loads of one untimed, checked warm replay under
     * strace; empty when there is no counting ({@link StraceCounter#unavailable()}).
     */
    static Map<String, SyscallCount> countSyscalls(BenchContext context, Workload w, TraceData data,
                                                   List<ArchiveConfig> configs) {
        Map<String, SyscallCount> counts = new LinkedHashMap<>();
        if (StraceCounter.unavailable().isPresent()) {
            return counts;
        }
        StraceCounter strace = new StraceCounter(context.workDir());
        long start = System.nanoTime();
        try (Progress progress = context.progress(w.name() + " system calls (strace)", configs.size())) {
            for (ArchiveConfig config : configs) {
                progress.message(w.key(config.name()));
                try {
                    warm(config);
                    int loads = Math.min(context.options().quick() ? QUICK_COUNTED_LOADS : COUNTED_LOADS,
                            data.loads().size());
                    counts.put(config.name(), strace.count(() -> replayPrepared(w, config, data, false, loads)).over(loads));
                } catch (Exception e) {
                    context.report().note("System calls of " + w.key(config.name()) + " not counted: " + e.getMessage());
                }
                progress.step();
            }
        }
        context.report().param(w.key("syscall-count-seconds"), Math.round((System.nanoTime() - start) / 1e8) / 10.0);
        return counts;
    }

    /**
     * Replays the trace once with {@code config}, cold as {@code coldStart} says or warm when null; every load is
     * checked.
     */
    static Measured replay(Workload w, ArchiveConfig config, TraceData data, ColdStart coldStart) throws IOException {
        if (coldStart != null) {
            coldStart.apply(config.files());
        } else {
            warm(config);
        }
        Measured m = replayPrepared(w, config, data, coldStart != null, data.loads().size());
        return m.seeks().isEmpty() && config.name().startsWith("zipfile")
                ? m.withSeeks(modelSeeks(config.files().getFirst(), data)) : m;
    }

    private static void warm(ArchiveConfig config) throws IOException {
        for (Path f : config.files()) {
            PageCache.warm(f);
        }
    }

    /**
     * Replays the first {@code loads} loads of the trace with {@code config}, the page cache as it is; opening, loads
     * and releases timed.
     */
    private static Measured replayPrepared(Workload w, ArchiveConfig config, TraceData data, boolean cold, int loads)
            throws IOException {
        long nanos = 0;
        long bytes = 0;
        long jitBefore = JitQuiet.compilerCpuNanos();   // outside the timing: it reads /proc
        long t0 = System.nanoTime();
        long wallStart = t0;
        OptionalLong seeks;
        try (ArchiveConfig.Session session = config.opener().open()) {
            nanos += System.nanoTime() - t0;
            for (TraceEvent e : data.loads().subList(0, loads)) {
                long a = System.nanoTime();
                ArchiveConfig.Loaded loaded = session.load(e.path());
                long b = System.nanoTime();
                check(config, e, loaded, data);
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
        double jitMillis = jitBefore < 0 ? Double.NaN : (JitQuiet.compilerCpuNanos() - jitBefore) / 1e6;
        return new Measured(w, config.name(), config.mechanism(), cold, nanos / 1e9, bytes, loads, seeks,
                (wallEnd - wallStart) / 1e9, jitMillis);
    }

    private static void check(ArchiveConfig config, TraceEvent e, ArchiveConfig.Loaded loaded, TraceData data) {
        long expected = data.expected().get(e.path());
        if (loaded.size() != e.size() || loaded.crc() != expected) {
            throw new IllegalStateException(config.name() + " loaded " + loaded.size() + " bytes of " + e.path()
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
}
