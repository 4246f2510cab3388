package org.hpio.bench.sort;

import org.hpio.bench.machine.PageCache;
import org.hpio.bench.report.Progress;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static org.hpio.bench.report.Numbers.format;

/**
 * {@code --full}: the whole external sort of the largest input in {@code --memory} ({@link ExternalSort}, O_DIRECT),
 * checked (one sorted file, the input's multiset), and its lower bound measured in the same run: the device's
 * sequential read and write rates ({@link DeviceRates}) times the bytes each pass moves, times the passes a sort
 * in this memory needs (two when the data does not fit: the initial pass and one merge), plus the time
 * {@link ChunkSort} takes to sort the same data in memory at once.
 */
final class FullSortRun {
    /**
     * The whole sort and its bound, seconds.
     *
     * @param bytes        input size
     * @param memory       memory the sort was given
     * @param sort         what the sort did
     * @param rates        the device's sequential rates
     * @param inMemorySort time to sort all the data in one array
     */
    record Figures(long bytes, long memory, ExternalSort.Result sort, DeviceRates rates, double inMemorySort) {
        double ioBound() {
            return sort.passes() * (bytes / rates.readBytesPerSecond() + bytes / rates.writeBytesPerSecond());
        }

        double lowerBound() {
            return ioBound() + inMemorySort;
        }

        double ratio() {
            return sort.total() / lowerBound();
        }
    }

    private FullSortRun() {
    }

    /** Runs the whole sort of {@code in}; empty (with the failure reported) when it failed. */
    static Optional<Figures> run(BenchContext context, Path in, Path out, long memory) throws IOException {
        try (Progress progress = context.progress("whole sort of " + BenchOptions.formatSize(Files.size(in)), 3)) {
            MultisetHash expected = MultisetHash.of(in);
            PageCache.drop(in);
            ExternalSort.Result result = ExternalSort.sort(in, out, memory, true);
            progress.step();
            SortCheck.verify("whole sort", out, expected, Long.MAX_VALUE);
            Files.deleteIfExists(out);
            PageCache.drop(in);
            DeviceRates rates = DeviceRates.measure(in, out, result.direct());
            progress.step();
            double inMemory = inMemorySort(in, expected);
            progress.step();
            return Optional.of(new Figures(Files.size(in), memory, result, rates, inMemory));
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            context.report().failure("whole sort (--full)", e);
            return Optional.empty();
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** Seconds {@link ChunkSort} takes to sort all of {@code in} in one array (read untimed, result checked). */
    static double inMemorySort(Path in, MultisetHash expected) throws IOException {
        long count = Files.size(in) / Long.BYTES;
        if (count > Integer.MAX_VALUE - 8) {
            throw new IOException("the in-memory sort time cannot be measured for more than 2^31 longs: " + count);
        }
        long[] all = new long[(int) count];
        try (FileChannel channel = FileChannel.open(in, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
            int index = 0;
            while (index < all.length) {
                if (channel.read(buffer) < 0) {
                    throw new IOException(in + " ended early");
                }
                buffer.flip();
                while (buffer.remaining() >= Long.BYTES && index < all.length) {
                    all[index++] = buffer.getLong();
                }
                buffer.compact();
            }
        }
        long start = System.nanoTime();
        ChunkSort.sort(all, all.length);
        double seconds = (System.nanoTime() - start) / 1e9;
        for (int i = 1; i < all.length; i++) {
            if (all[i] < all[i - 1]) {
                throw new IOException("in-memory sort left long " + i + " out of order");
            }
        }
        if (!MultisetHash.of(all, all.length).equals(expected)) {
            throw new IOException("in-memory sort changed the multiset");
        }
        return seconds;
    }

    static void report(SuiteReport report, Figures f) {
        ExternalSort.Result s = f.sort();
        String name = "full-" + SortSettings.label(f.bytes());
        report.result(name, "total", s.total(), "s").result(name, "lower-bound", f.lowerBound(), "s")
                .result(name, "vs-lower-bound", f.ratio(), "ratio")
                .result(name, "run-formation", s.runFormation().total(), "s").result(name, "merge", s.merge(), "s")
                .result(name, "merge-read-wait", s.mergeReadWait(), "s").result(name, "merge-decode", s.mergeDecode(), "s")
                .result(name, "merge-write", s.mergeWrite(), "s").result(name, "merge-cpu", s.mergeCpu(), "s")
                .result("device", "read", f.rates().readBytesPerSecond() / 1e6, "MB/s")
                .result("device", "write", f.rates().writeBytesPerSecond() / 1e6, "MB/s")
                .result(name, "in-memory-sort", f.inMemorySort(), "s");
        SortTimes.Breakdown r = s.runFormation();
        Table table = new Table("Whole external sort (--full): " + BenchOptions.formatSize(f.bytes()) + " in "
                + BenchOptions.formatSize(f.memory()) + " of memory", List.of("part", "seconds", "how"));
        table.row("whole sort", format("%.3f", s.total()), s.runs() + " runs of memory/3, " + s.passes()
                + " passes, " + (s.direct() ? "O_DIRECT" : "buffered (size not a multiple of 4 KiB)"));
        table.row("initial pass (Figure 5)", format("%.3f", r.total()), String.format(Locale.ROOT,
                "read* %.3f, write* %.3f, sort %.3f, block %.3f", r.read(), r.write(), r.sort(), r.block()));
        table.row("merge passes", format("%.3f", s.merge()), String.format(Locale.ROOT,
                "waiting for read-ahead %.3f, decoding blocks read %.3f, encoding + initiating/awaiting writes %.3f,"
                        + " merging %.3f (one thread: a tree of branchless 2-way merges)", s.mergeReadWait(),
                s.mergeDecode(), s.mergeWrite(), s.mergeCpu()));
        table.row("lower bound", format("%.3f", f.lowerBound()), String.format(Locale.ROOT,
                "%d passes x (%s / %.0f MB/s read + / %.0f MB/s write) = %.3f s, + in-memory sort %.3f s",
                s.passes(), BenchOptions.formatSize(f.bytes()), f.rates().readBytesPerSecond() / 1e6,
                f.rates().writeBytesPerSecond() / 1e6, f.ioBound(), f.inMemorySort()));
        table.row("whole sort / lower bound", String.format(Locale.ROOT, "%.2f", f.ratio()), "target <= 1.5");
        report.table(table.note("Checked: the output has the input's length and multiset and is sorted throughout. "
                + "Device rates: the input read and a new file of its size written once, sequentially, in "
                + DeviceRates.BLOCK_MIB + " MiB blocks with FileChannel" + (s.direct() ? " and O_DIRECT" : "")
                + ", after the sort. The bound adds I/O and sorting as if nothing overlapped; a sort that "
                + "overlaps them may beat it."));
    }
}
