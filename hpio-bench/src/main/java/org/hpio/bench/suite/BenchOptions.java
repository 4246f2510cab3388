package org.hpio.bench.suite;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the user asked of a bench run. Sizes left empty mean each suite's default.
 *
 * @param size        data size per suite (bytes), empty for the suite's default
 * @param threads     thread and process counts for the parallel suites
 * @param repetitions timed repetitions per configuration (the median is reported)
 * @param cache       which page-cache states to measure
 * @param workDir     where data files go (a real disk, not tmpfs)
 * @param configs     the configurations to run, by name; empty for all of them
 * @param trace       a load trace to replay (the archive suite), empty for the suite's default
 * @param traceRoot   the directory the trace's paths are relative to, empty for the suite's default
 * @param suiteOptions options only some suites read, by name as typed after {@code --} ("sizes" -> "1m,16m",
 *                     "full" -> "true"); each suite parses its own and says clearly what was wrong
 */
public record BenchOptions(Optional<Long> size, List<Integer> threads, int repetitions, CacheMode cache,
                           Path workDir, List<String> configs, Optional<Path> trace, Optional<Path> traceRoot,
                           Map<String, String> suiteOptions) {

    /** Without a trace or suite-specific options: each suite's default. */
    public BenchOptions(Optional<Long> size, List<Integer> threads, int repetitions, CacheMode cache, Path workDir,
                        List<String> configs) {
        this(size, threads, repetitions, cache, workDir, configs, Optional.empty(), Optional.empty(), Map.of());
    }

    /** With a trace, without suite-specific options. */
    public BenchOptions(Optional<Long> size, List<Integer> threads, int repetitions, CacheMode cache, Path workDir,
                        List<String> configs, Optional<Path> trace, Optional<Path> traceRoot) {
        this(size, threads, repetitions, cache, workDir, configs, trace, traceRoot, Map.of());
    }

    /** With suite-specific options, without a trace. */
    public BenchOptions(Optional<Long> size, List<Integer> threads, int repetitions, CacheMode cache, Path workDir,
                        List<String> configs, Map<String, String> suiteOptions) {
        this(size, threads, repetitions, cache, workDir, configs, Optional.empty(), Optional.empty(), suiteOptions);
    }

    /** Which page-cache states a suite measures. */
    public enum CacheMode {
        WARM, COLD, BOTH;

        public boolean warm() {
            return this != COLD;
        }

        public boolean cold() {
            return this != WARM;
        }

        /** warm, cold or both (any case); IllegalArgumentException naming the choices otherwise. */
        public static CacheMode parse(String text) {
            for (CacheMode mode : values()) {
                if (mode.name().equalsIgnoreCase(text.strip())) {
                    return mode;
                }
            }
            throw new IllegalArgumentException("--cache: expected warm, cold or both, got '" + text + "'");
        }
    }

    public BenchOptions {
        if (repetitions < 1) {
            throw new IllegalArgumentException("repetitions must be at least 1: " + repetitions);
        }
        threads = List.copyOf(threads);
        configs = List.copyOf(configs);
        suiteOptions = Map.copyOf(suiteOptions);
        if (threads.isEmpty() || threads.stream().anyMatch(t -> t < 1)) {
            throw new IllegalArgumentException("thread counts must be positive: " + threads);
        }
    }

    /** Whether configuration {@code name} was asked for. */
    public boolean includes(String name) {
        return configs.isEmpty() || configs.contains(name);
    }

    /** The suite-specific option {@code name} (without its dashes), when given. */
    public Optional<String> suiteOption(String name) {
        return Optional.ofNullable(suiteOptions.get(name));
    }

    /**
     * Whether this is the quick default run ({@code hpio bench} without {@code --full}, suite option "quick"):
     * each suite keeps every configuration and target but measures smaller sizes, fewer points or shorter
     * durations, so that all suites finish in minutes. Without it (tests, {@code --full}) suites run the
     * paper-sized set.
     */
    public boolean quick() {
        return suiteOption("quick").map(Boolean::parseBoolean).orElse(false);
    }

    /** {@code quickBytes} in a quick run, {@code fullBytes} otherwise; an explicit {@code --size} wins over both. */
    public long sizeOr(long fullBytes, long quickBytes) {
        return size.orElse(quick() ? quickBytes : fullBytes);
    }

    public long sizeOr(long defaultBytes) {
        return size.orElse(defaultBytes);
    }

    /** Parses sizes like 256m, 1g, 64k, 4096 (binary units). */
    public static long parseSize(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT).replace("ib", "").replace("b", "");
        long unit = 1;
        char last = t.isEmpty() ? ' ' : t.charAt(t.length() - 1);
        switch (last) {
            case 'k' -> unit = 1L << 10;
            case 'm' -> unit = 1L << 20;
            case 'g' -> unit = 1L << 30;
            default -> { }
        }
        String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
        try {
            long value = Math.multiplyExact(Long.parseLong(digits), unit);
            if (value <= 0) {
                throw new IllegalArgumentException("size must be positive: " + text);
            }
            return value;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("not a size (try 256m, 1g, 64k): " + text);
        }
    }

    /** A size as a configuration name part, the form {@link #parseSize} reads: "256m", "4k", "1g", "1000". */
    public static String sizeTag(long bytes) {
        String[] suffixes = {"g", "m", "k"};
        for (int i = 0; i < suffixes.length; i++) {
            long unit = 1L << (10 * (suffixes.length - i));
            if (bytes != 0 && bytes % unit == 0) {
                return bytes / unit + suffixes[i];
            }
        }
        return Long.toString(bytes);
    }

    /** "256 MiB", "4 KiB", "1.5 GiB". */
    public static String formatSize(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return (v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v))
                + " " + units[u];
    }
}
