package org.hpio.bench.sort;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The merge of the whole sort ({@link KWayMerge}'s tree) without a file in the way: {@code runs} sorted runs of
 * random longs, 8 Mi longs in all, merged from memory, in nanoseconds per output long. The output is checked
 * (ascending, the input's sum and count) after every invocation, so a broken merge cannot report a figure.
 * Run with {@code ./hpio jmh MergeBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class MergeBenchmark {
    static final int TOTAL = 1 << 23;
    /** Output block, as the whole sort's (2 MiB). */
    static final int OUT_LONGS = 1 << 18;

    @Param({"2", "13", "64"})
    int runs;

    long[][] data;
    long[] out;
    long sum;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(runs);
        data = new long[runs][];
        for (int r = 0; r < runs; r++) {
            int length = TOTAL / runs + (r < TOTAL % runs ? 1 : 0);
            data[r] = random.longs(length).toArray();
            Arrays.sort(data[r]);
            for (long v : data[r]) {
                sum += v;
            }
        }
        out = new long[OUT_LONGS];
    }

    @Benchmark
    @OperationsPerInvocation(TOTAL)
    public long mergeTree() throws Exception {
        List<MergeInput> leaves = new ArrayList<>();
        for (long[] run : data) {
            leaves.add(new ArrayRun(run, OUT_LONGS));
        }
        MergeInput root = KWayMerge.tree(leaves);
        long count = 0;
        long total = 0;
        long previous = Long.MIN_VALUE;
        int n;
        do {
            n = root.fill(out, 0, out.length);
            for (int i = 0; i < n; i++) {
                if (out[i] < previous) {
                    throw new IllegalStateException("merge output out of order at long " + (count + i));
                }
                previous = out[i];
                total += out[i];
            }
            count += n;
        } while (n == out.length);
        if (count != TOTAL || total != sum) {
            throw new IllegalStateException("merge wrote " + count + " longs (sum " + total + "), not " + TOTAL);
        }
        return total;
    }
}
