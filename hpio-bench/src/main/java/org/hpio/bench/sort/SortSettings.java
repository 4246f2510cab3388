package org.hpio.bench.sort;

import org.hpio.bench.suite.BenchOptions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What {@code hpio bench sort} runs: input sizes ({@code --sizes}, default 1, 16, 64, 256 MiB as 000 §5),
 * chunk sizes ({@code --chunks}, default 32 KiB and 512 KiB, Figures 6 and 7), whether the whole external
 * sort runs too ({@code --full}) and the memory it may use ({@code --memory}, default 64 MiB), and the size
 * above which the configurations that make one system call per long are not run ({@value #UNBUFFERED_PROPERTY},
 * default 16 MiB).
 *
 * @param sizes         input file sizes in bytes, each a whole number of longs
 * @param chunks        chunk sizes in bytes, each a whole number of longs
 * @param full          also run the merge passes (the whole sort)
 * @param memory        bytes the whole sort may hold in buffers; the largest size must exceed it
 * @param unbufferedMax largest input the per-long configurations (raf, ds) are run on
 */
public record SortSettings(List<Long> sizes, List<Long> chunks, boolean full, long memory, long unbufferedMax) {
    public static final List<Long> DEFAULT_SIZES = List.of(1L << 20, 16L << 20, 64L << 20, 256L << 20);
    /**
     * The sizes of a quick run ({@code hpio bench} without {@code --full}): every target, measured at 16 MiB (Table 2
     * too, at the largest size up to 64 MiB).
     */
    public static final List<Long> QUICK_SIZES = List.of(1L << 20, 16L << 20);
    public static final List<Long> DEFAULT_CHUNKS = List.of(32L << 10, 512L << 10);
    public static final long DEFAULT_MEMORY = 64L << 20;
    public static final String UNBUFFERED_PROPERTY = "hpio.bench.sort.unbuffered-max";
    static final long DEFAULT_UNBUFFERED_MAX = 16L << 20;
    /**
     * {@link #DEFAULT_UNBUFFERED_MAX} in a quick run: raf and ds take 3 s per 16 MiB sort (two thirds of the quick
     * suite's time) and no target uses them; they still show their cost at 1 MiB.
     */
    static final long QUICK_UNBUFFERED_MAX = 1L << 20;
    /** Largest chunk: a long[] index is an int. */
    static final long MAX_CHUNK = 1L << 30;

    public SortSettings {
        sizes = List.copyOf(sizes);
        chunks = List.copyOf(chunks);
        if (sizes.isEmpty() || chunks.isEmpty()) {
            throw new IllegalArgumentException("sort needs at least one size and one chunk size");
        }
        for (long s : sizes) {
            requireLongs("--sizes", s);
        }
        for (long c : chunks) {
            requireLongs("--chunks", c);
            if (c > MAX_CHUNK) {
                throw new IllegalArgumentException("--chunks: " + BenchOptions.formatSize(c) + " is larger than the "
                        + "largest chunk, " + BenchOptions.formatSize(MAX_CHUNK));
            }
        }
        if (full && memory >= largest(sizes)) {
            throw new IllegalArgumentException("--full needs an input larger than --memory so that merging is real: "
                    + "the largest of --sizes is " + BenchOptions.formatSize(largest(sizes)) + ", --memory is "
                    + BenchOptions.formatSize(memory));
        }
        if (memory < 3 * ExternalSort.ALIGN * 4) {
            throw new IllegalArgumentException("--memory must be at least " + (3 * ExternalSort.ALIGN * 4) + " bytes: "
                    + memory);
        }
    }

    /** The settings {@code options} ask for, with the defaults above for what they leave out. */
    public static SortSettings from(BenchOptions options) {
        List<Long> sizes = options.suiteOption("sizes").map(t -> sizeList("--sizes", t)).orElse(options.quick() ? QUICK_SIZES : DEFAULT_SIZES);
        List<Long> chunks = options.suiteOption("chunks").map(t -> sizeList("--chunks", t)).orElse(DEFAULT_CHUNKS);
        boolean full = options.suiteOption("full").map(Boolean::parseBoolean).orElse(false);
        long memory = options.suiteOption("memory").map(t -> size("--memory", t)).orElse(DEFAULT_MEMORY);
        String cap = System.getProperty(UNBUFFERED_PROPERTY);
        long unbufferedMax = cap != null ? size("-D" + UNBUFFERED_PROPERTY, cap)
                : options.quick() ? QUICK_UNBUFFERED_MAX : DEFAULT_UNBUFFERED_MAX;
        return new SortSettings(sizes, chunks, full, memory, unbufferedMax);
    }

    /** A comma-separated list of sizes ("1m,16m"), ascending and without repeats. */
    static List<Long> sizeList(String option, String text) {
        List<Long> values = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            if (part.isBlank()) {
                throw new IllegalArgumentException(option + ": empty entry in '" + text + "' (write e.g. 1m,16m)");
            }
            values.add(size(option, part));
        }
        return values.stream().distinct().sorted().toList();
    }

    private static long size(String option, String text) {
        try {
            return BenchOptions.parseSize(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        }
    }

    private static void requireLongs(String option, long bytes) {
        if (bytes < Long.BYTES || bytes % Long.BYTES != 0) {
            throw new IllegalArgumentException(option + ": " + bytes + " bytes is not a whole number of longs (8 bytes)");
        }
    }

    private static long largest(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).max().orElseThrow();
    }

    long largestSize() {
        return largest(sizes);
    }

    /** Short label of a size for names and charts: "512k", "64m", "1000b". */
    static String label(long bytes) {
        for (long unit : new long[] {1L << 30, 1L << 20, 1L << 10}) {
            if (bytes % unit == 0) {
                return bytes / unit + (unit == 1L << 30 ? "g" : unit == 1L << 20 ? "m" : "k");
            }
        }
        return bytes + "b";
    }

    @Override
    public String toString() {
        return "sizes " + Arrays.toString(sizes.stream().map(SortSettings::label).toArray()) + ", chunks "
                + Arrays.toString(chunks.stream().map(SortSettings::label).toArray()) + (full ? ", full, memory "
                + BenchOptions.formatSize(memory) : "");
    }
}
