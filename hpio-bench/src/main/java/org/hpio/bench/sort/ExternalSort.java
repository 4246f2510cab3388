package org.hpio.bench.sort;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileOptions;
import org.hpio.bench.examples.DoubleBufferedSort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole external merge sort in bounded memory, the part 000 §4.2 leaves out: the initial pass of Figure 5
 * (three buffers of a third of the memory each, so runs of memory / 3) and then merge passes
 * ({@link KWayMerge}) of up to {@link #fanIn} runs at a time, with read-ahead of every run and write-behind of
 * the output, until one run remains, written to the output. All I/O is AsyncFile, with O_DIRECT when asked
 * and the file size allows it. Scratch files are made next to the output and deleted.
 */
final class ExternalSort {
    /** Alignment of runs and blocks (bytes): the largest direct-I/O alignment in use on Linux file systems. */
    static final int ALIGN = 4096;
    /** The smallest merge block worth a request (bytes); fixes the fan-in of a pass. */
    static final int MIN_BLOCK = 64 << 10;

    /**
     * What one whole sort did and where its time went (seconds).
     *
     * @param direct        whether the I/O was O_DIRECT
     * @param runs          runs the initial pass made
     * @param passes        passes over the data: the initial one and the merges
     * @param runFormation  the initial pass (Figure 5) breakdown
     * @param merge         wall time of the merge passes
     * @param mergeReadWait time the merge waited for read-ahead blocks
     * @param mergeDecode   time the merge spent decoding the blocks read (file bytes into long[])
     * @param mergeWrite    time the merge spent encoding its output, initiating writes and waiting at the
     *                      in-flight bound
     * @param total         wall time of the whole sort
     */
    record Result(boolean direct, int runs, int passes, SortTimes.Breakdown runFormation, double merge,
                  double mergeReadWait, double mergeDecode, double mergeWrite, double total) {
        /** The merge passes' time on the CPU merging: what the read waits, decoding and writing leave. */
        double mergeCpu() {
            return merge - mergeReadWait - mergeDecode - mergeWrite;
        }
    }

    private ExternalSort() {
    }

    /** Longs per run: a third of {@code memory}, in whole {@link #ALIGN} units. */
    static int runLongs(long memory) {
        long bytes = Math.min(memory / 3 / ALIGN * ALIGN, SortSettings.MAX_CHUNK);
        return (int) (bytes / Long.BYTES);
    }

    /**
     * Runs one merge may take in {@code memory}: two blocks of at least {@link #MIN_BLOCK} and one merge-tree
     * buffer per run, 1 + {@link WriteBehind#IN_FLIGHT} blocks for output.
     */
    static int fanIn(long memory) {
        long perRun = 2L * MIN_BLOCK + KWayMerge.treeBytes(2);
        return (int) Math.max(2, (memory - (1L + WriteBehind.IN_FLIGHT) * MIN_BLOCK) / perRun);
    }

    /** Sorts {@code in} into {@code out} (replaced) within {@code memory} bytes of buffers. */
    static Result sort(Path in, Path out, long memory, boolean direct) throws IOException {
        long bytes = Files.size(in);
        boolean useDirect = direct && bytes % ALIGN == 0;
        AsyncFileOptions options = AsyncFileOptions.defaults().withDirect(useDirect);
        Path a = out.resolveSibling(out.getFileName() + ".runs-a");
        Path b = out.resolveSibling(out.getFileName() + ".runs-b");
        try {
            for (Path p : List.of(out, a, b)) {
                Files.deleteIfExists(p);
            }
            long start = SortTimes.now();
            int runLongs = runLongs(memory);
            SortTimes times = new SortTimes();
            long t = SortTimes.now();
            DoubleBufferedSort.sortChunks(in, a, runLongs, options, times);
            SortTimes.Breakdown formation = times.breakdown(SortTimes.now() - t);
            List<KWayMerge.Run> runs = runs(bytes / Long.BYTES, runLongs);
            int runCount = runs.size();
            MergeTimes mergeTimes = new MergeTimes();
            long mergeStart = SortTimes.now();
            int passes = 1;
            Path source = a;
            while (runs.size() > 1) {
                int fanIn = fanIn(memory);
                Path target = runs.size() <= fanIn ? out : source == a ? b : a;
                Files.deleteIfExists(target);
                runs = mergePass(source, target, runs, fanIn, memory, options, mergeTimes);
                source = target;
                passes++;
            }
            if (source != out) {
                Files.move(source, out);
            }
            double merge = (SortTimes.now() - mergeStart) / 1e9;
            return new Result(useDirect, runCount, passes, formation, merge, mergeTimes.readWaitSeconds(),
                    mergeTimes.decodeSeconds(), mergeTimes.writeSeconds(), (SortTimes.now() - start) / 1e9);
        } finally {
            Files.deleteIfExists(a);
            Files.deleteIfExists(b);
        }
    }

    /** The runs of the initial pass: consecutive, {@code runLongs} each, the last one shorter. */
    static List<KWayMerge.Run> runs(long totalLongs, long runLongs) {
        List<KWayMerge.Run> runs = new ArrayList<>();
        for (long first = 0; first < totalLongs; first += runLongs) {
            runs.add(new KWayMerge.Run(first, Math.min(runLongs, totalLongs - first)));
        }
        return runs;
    }

    /** Merges groups of up to {@code fanIn} consecutive runs of {@code source} into {@code target}; the new runs. */
    private static List<KWayMerge.Run> mergePass(Path source, Path target, List<KWayMerge.Run> runs, int fanIn,
                                                 long memory, AsyncFileOptions options, MergeTimes times)
            throws IOException {
        List<KWayMerge.Run> merged = new ArrayList<>();
        try (AsyncFile from = new AsyncFile(source, "r", options); AsyncFile to = new AsyncFile(target, "rw", options)) {
            for (int i = 0; i < runs.size(); i += fanIn) {
                List<KWayMerge.Run> group = runs.subList(i, Math.min(runs.size(), i + fanIn));
                KWayMerge.merge(from, group, to, blockLongs(memory, group.size()), options.order(), times);
                merged.add(new KWayMerge.Run(group.getFirst().first(), group.getLast().end() - group.getFirst().first()));
            }
        }
        return merged;
    }

    /**
     * Block of a merge of {@code runs} runs: the memory left after the merge tree's buffers, over 2 per run (the
     * current block and the read-ahead) + 1 + {@link WriteBehind#IN_FLIGHT} for the output, in ALIGN units.
     */
    static int blockLongs(long memory, int runs) {
        long left = Math.max(0, memory - KWayMerge.treeBytes(runs));
        long bytes = left / (2L * runs + 1 + WriteBehind.IN_FLIGHT);
        bytes = Math.max(ALIGN, bytes / ALIGN * ALIGN);
        return (int) Math.min(bytes / Long.BYTES, SortSettings.MAX_CHUNK / Long.BYTES);
    }
}
