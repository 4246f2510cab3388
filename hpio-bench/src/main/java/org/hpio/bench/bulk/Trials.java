package org.hpio.bench.bulk;

import org.hpio.bench.bulk.SharedFileRun.Op;
import org.hpio.bench.bulk.SharedFileRun.Plan;
import org.hpio.bench.data.DataFiles;
import org.hpio.bench.data.FileChecksum;
import org.hpio.bench.data.TestData;
import org.hpio.bench.machine.PageCache;
import org.hpio.bench.measure.Repeats;
import org.hpio.bench.suite.BenchOptions;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Repeated, checked runs of one configuration: an untimed warm-up (JIT, page cache), then the median of the
 * configured repetitions. Cold reads drop the file's pages before every repetition. Writes go to a fresh sparse
 * file of the final size each time, and are forced and checked against the generator (with the JDK alone) after the clock
 * stopped; the time is that of the write calls, i.e. into the page cache.
 */
final class Trials {
    /** A per-element configuration whose full run would take longer than this runs on a prefix. */
    static final double FULL_RUN_LIMIT_SECONDS = 4.0;

    /** {@link #FULL_RUN_LIMIT_SECONDS} in a quick run ({@link BenchOptions#quick()}). */
    static final double QUICK_RUN_LIMIT_SECONDS = 1.0;

    /** How write figures are measured, for the report. */
    static final String WRITES = "into the page cache of a fresh sparse file of the final size; forced and checked "
            + "after the clock stops";

    private final int repetitions;
    private final boolean keepsFiles;
    private double limitSeconds = FULL_RUN_LIMIT_SECONDS;
    private boolean warmUp = true;

    Trials(int repetitions) {
        this(repetitions, true);
    }

    /**
     * {@code keepsFiles}: whether this process makes each write's fresh file and checks it afterwards. Among
     * the ranks of a launch only rank 0 does; the others wait for it at the run's start meeting.
     */
    Trials(int repetitions, boolean keepsFiles) {
        this.repetitions = repetitions;
        this.keepsFiles = keepsFiles;
    }

    /** This, with the full-run limit of a quick run when {@code quick}. */
    Trials quick(boolean quick) {
        limitSeconds = quick ? QUICK_RUN_LIMIT_SECONDS : FULL_RUN_LIMIT_SECONDS;
        return this;
    }

    /**
     * This, without the untimed warm-up run. For forked processes in a quick run: each is a fresh JVM, so the
     * warm-up warms no JIT, and reads find the file already in the page cache.
     */
    Trials withoutWarmUp() {
        warmUp = false;
        return this;
    }

    /** Median seconds of reading {@code plan} (warm: already cached; cold: dropped before each repetition). */
    double read(BulkConfig c, Plan plan, BulkConfig.Workers workers, Object[] buffers, long expected, boolean cold)
            throws Exception {
        return Repeats.median(warmUps(), repetitions, warmUp -> {
            if (cold && !warmUp) {
                PageCache.drop(plan.file());
            }
            return c.run(Op.READ, plan, workers, buffers, expected);
        });
    }

    /** Median seconds of writing {@code plan} into a fresh file, each run checked. */
    double write(BulkConfig c, Plan plan, BulkConfig.Workers workers, Object[] buffers) throws Exception {
        long expected = TestData.expectedChecksum(0, plan.count(), plan.elements().size());
        return Repeats.median(warmUps(), repetitions, warmUp -> {
            if (keepsFiles) {
                DataFiles.recreateSparse(plan.file(), plan.bytes());
            }
            double s = c.run(Op.WRITE, plan, workers, buffers, expected);
            if (keepsFiles) {
                DataFiles.force(plan.file());
                check(c, plan, expected);
            }
            return s;
        });
    }

    private int warmUps() {
        return warmUp ? 1 : 0;
    }

    /** Checks a written file against the generator; when it is wrong, the error names the blocks that are. */
    private static void check(BulkConfig c, Plan plan, long expected) throws IOException {
        try {
            FileChecksum.verify(c.name(), plan.file(), plan.elements(), plan.order(), 0, plan.count(), expected);
        } catch (IOException e) {
            throw new IOException(e.getMessage() + "; wrong: " + wrongBlocks(plan), e);
        }
    }

    private static String wrongBlocks(Plan plan) throws IOException {
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < plan.workers(); i++) {
            long first = plan.first(i);
            int length = plan.length(i);
            if (FileChecksum.of(plan.file(), plan.elements(), plan.order(), first, length)
                    != TestData.expectedChecksum(first, length, plan.elements().size())) {
                wrong.add("worker " + i + "'s block (elements " + first + ".." + (first + length - 1) + ")");
            }
        }
        return wrong.isEmpty() ? "no single block" : String.join(", ", wrong);
    }

    /**
     * The plan to measure {@code c} on: the full one, or for a per-element configuration whose full run would
     * exceed {@link #FULL_RUN_LIMIT_SECONDS} (a quick run: {@link #QUICK_RUN_LIMIT_SECONDS}), the prefix (timed once on the prefix to decide).
     */
    Plan extent(BulkConfig c, Plan full, Plan prefix, Object[] buffers) throws Exception {
        return extent(c, full, prefix, buffers, BulkConfig.Workers.THREADS);
    }

    /** {@link #extent(BulkConfig, Plan, Plan, Object[])}, timing the prefix with {@code workers}. */
    Plan extent(BulkConfig c, Plan full, Plan prefix, Object[] buffers, BulkConfig.Workers workers) throws Exception {
        if (!c.perElement() || prefix.count() >= full.count()) {
            return full;
        }
        long expected = TestData.expectedChecksum(0, prefix.count(), prefix.elements().size());
        double seconds = c.run(Op.READ, prefix, workers, buffers, expected);
        double estimate = seconds * full.count() / prefix.count();
        return estimate > limitSeconds ? prefix : full;
    }
}
