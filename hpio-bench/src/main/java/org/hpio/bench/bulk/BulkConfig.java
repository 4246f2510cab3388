package org.hpio.bench.bulk;

import org.hpio.bench.bulk.SharedFileRun.Op;
import org.hpio.bench.bulk.SharedFileRun.Plan;
import org.hpio.bench.data.TestData;
import org.hpio.bench.machine.CProgram;
import org.hpio.bench.ranks.RankGroup;

import java.nio.ByteOrder;
import java.util.Optional;

/**
 * A configuration of the bulk and approaches suites: a Java {@link Approach} or the C reference program,
 * run by threads of one process, by separate processes it forks, or by the ranks of a launch. Returns seconds; reads are checked inside.
 */
interface BulkConfig {
    /** Threads of this JVM, processes it forks, or the ranks of a launch (this process one of them). */
    enum Workers { THREADS, PROCESSES, RANKS }

    String name();

    String description();

    ByteOrder order();

    /** True when it makes one library call per element (may then run on a prefix). */
    boolean perElement();

    /**
     * One timed run of {@code op} over {@code plan} by {@code plan.workers()} workers of the given kind.
     * {@code buffers[i]} is worker i's array in this process (used by Java threads only); for writes it is
     * filled from the generator here, before the clock starts.
     */
    double run(Op op, Plan plan, Workers workers, Object[] buffers, long expectedChecksum) throws Exception;

    static BulkConfig java(Approach approach) {
        return java(approach, Optional.empty());
    }

    /** The launch this process is a rank of, and where the ranks' own figures go. */
    record Launch(RankGroup group, RankFigures figures) {
    }

    /** A Java approach; {@code launch}: the launch this process is a rank of, for {@link Workers#RANKS}. */
    static BulkConfig java(Approach approach, Optional<Launch> launch) {
        return new BulkConfig() {
            public String name() { return approach.name(); }
            public String description() { return approach.description(); }
            public ByteOrder order() { return approach.fileOrder(); }
            public boolean perElement() { return approach.perElement(); }

            public double run(Op op, Plan plan, Workers workers, Object[] buffers, long expected) throws Exception {
                if (workers == Workers.RANKS) {
                    Launch ranks = launch.orElseThrow(() -> new IllegalStateException(name() + ": no launch to run ranks in"));
                    return SharedFileRun.inRanks(approach, op, plan, ranks.group(), ranks.figures(), buffers[0], expected);
                }
                if (workers == Workers.PROCESSES) {
                    return SharedFileRun.inProcesses(approach.name(), op, plan,
                            i -> SharedFileRun.javaWorker(approach, op, plan, i), expected);
                }
                if (op == Op.WRITE) {
                    for (int i = 0; i < plan.workers(); i++) {
                        TestData.fill(buffers[i], 0, plan.length(i), plan.first(i));
                    }
                }
                return SharedFileRun.inThreads(approach, op, plan, buffers, expected);
            }
        };
    }

    static BulkConfig c(CProgram program, ByteOrder order) {
        boolean bigEndian = order == ByteOrder.BIG_ENDIAN;
        return new BulkConfig() {
            public String name() { return bigEndian ? "c" : "c-native"; }
            public String description() {
                return "C, pread/pwrite in 1 MiB chunks, " + (bigEndian ? "big-endian (bulk bswap)" : "native order");
            }
            public ByteOrder order() { return order; }
            public boolean perElement() { return false; }

            public double run(Op op, Plan plan, Workers workers, Object[] buffers, long expected) throws Exception {
                if (workers == Workers.RANKS) {
                    throw new UnsupportedOperationException(name() + " does not run as ranks of a launch");
                }
                if (workers == Workers.PROCESSES) {
                    return SharedFileRun.inProcesses(name(), op, plan,
                            i -> SharedFileRun.cWorker(program, op, plan, i, 1, true), expected);
                }
                Plan oneProcess = new Plan(plan.file(), plan.elements(), plan.count(), 1, plan.order());
                return SharedFileRun.inProcesses(name(), op, oneProcess,
                        i -> SharedFileRun.cWorker(program, op, oneProcess, 0, plan.workers(), true), expected);
            }
        };
    }
}
