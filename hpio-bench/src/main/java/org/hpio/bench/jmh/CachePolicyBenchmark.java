package org.hpio.bench.jmh;

import org.hpio.archive.cache.policy.EvictionPolicy;
import org.hpio.archive.cache.policy.Policies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The CPU cost of one cache-manager operation for each eviction policy, with 002 §4.5's method: operations chosen
 * at random from a fixed mix, weighted to the frequent ones; here 70 % adds of a new file (making room first, as
 * Landlord's makeRoomFor: the paper's "current (and quite arbitrary) 70 %") and 30 % hits on a recently added
 * file. File sizes are uniform in 12..20 KiB and the capacity holds {@code files} files of 16 KiB on average, so
 * about that many stay cached. Run with {@code ./hpio jmh CachePolicyBenchmark}.
 *
 * <p>Checked before a figure counts: the cache never exceeds its capacity, holds between half and twice
 * {@code files} files, and most hits found their file; otherwise the trial fails.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class CachePolicyBenchmark {
    private static final int OPS = 1 << 16;
    private static final int ADD_PERCENT = 70;

    @Param({"lru", "landlord-naive", "landlord-naive-recip", "landlord-cached", "landlord-cached-recip",
            "landlord-lazy", "landlord-lazy-recip"})
    String policy;

    @Param({"1000", "10000", "100000"})
    int files;

    private EvictionPolicy cache;
    private long capacity;
    private boolean[] isAdd;
    private long[] sizes;
    private int[] picks;
    private String[] recent;
    private int recentNext;
    private int op;
    private long added;
    private long hitOps;
    private long hitsFound;

    @Setup(Level.Trial)
    public void setUp() {
        cache = Policies.require(policy).create();
        capacity = files * 16L * 1024;
        SplittableRandom random = new SplittableRandom(42);
        isAdd = new boolean[OPS];
        sizes = new long[OPS];
        picks = new int[OPS];
        for (int i = 0; i < OPS; i++) {
            isAdd[i] = random.nextInt(100) < ADD_PERCENT;
            sizes[i] = 12 * 1024 + random.nextInt(8 * 1024 + 1);
            picks[i] = random.nextInt(Math.max(1, files / 4));
        }
        recent = new String[Math.max(1, files / 4)];
        for (int i = 0; i < 2 * files; i++) { // fill the cache: the benchmark starts in the steady state
            add(sizes[i % OPS]);
        }
    }

    @Benchmark
    public boolean operation() {
        int i = op++ & (OPS - 1);
        if (isAdd[i]) {
            add(sizes[i]);
            return true;
        }
        hitOps++;
        boolean found = cache.touch(recent[picks[i]]);
        if (found) {
            hitsFound++;
        }
        return found;
    }

    private void add(long size) {
        while (capacity - cache.bytes() < size) {
            cache.evict();
        }
        String key = "f" + added++;
        cache.add(key, size, 1.0);
        recent[recentNext] = key;
        recentNext = (recentNext + 1) % recent.length;
    }

    @TearDown(Level.Trial)
    public void check() {
        if (cache.bytes() > capacity) {
            throw new IllegalStateException(policy + ": " + cache.bytes() + " bytes cached over capacity " + capacity);
        }
        if (cache.count() < files / 2 || cache.count() > 2 * files) {
            throw new IllegalStateException(policy + ": " + cache.count() + " files cached, expected about " + files);
        }
        if (hitOps > 0 && hitsFound < hitOps / 2) {
            throw new IllegalStateException(policy + ": only " + hitsFound + " of " + hitOps + " hits found their file");
        }
    }
}
