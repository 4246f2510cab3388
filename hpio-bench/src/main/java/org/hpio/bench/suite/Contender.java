package org.hpio.bench.suite;

import org.hpio.bench.io.Approach;
import org.hpio.bench.io.CProgram;
import org.hpio.bench.io.SharedFileRun;
import org.hpio.bench.io.SharedFileRun.Op;
import org.hpio.bench.io.SharedFileRun.Plan;
import org.hpio.bench.io.TestData;

import java.nio.ByteOrder;

/**
 * A configuration of the bulk and approaches suites: a Java {@link Approach} or the C reference program,
 * run by threads of one process or by separate processes. Returns seconds; reads are checked inside.
 */
interface Contender {
    enum Workers { THREADS, PROCESSES }

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

    static Contender java(Approach approach) {
        return new Contender() {
            public String name() { return approach.name(); }
            public String description() { return approach.description(); }
            public ByteOrder order() { return approach.fileOrder(); }
            public boolean perElement() { return approach.perElement(); }

            public double run(Op op, Plan plan, Workers workers, Object[] buffers, long expected) throws Exception {
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

    static Contender c(CProgram program, ByteOrder order) {
        boolean bigEndian = order == ByteOrder.BIG_ENDIAN;
        return new Contender() {
            public String name() { return bigEndian ? "c" : "c-native"; }
            public String description() {
                return "C, pread/pwrite in 1 MiB chunks, " + (bigEndian ? "big-endian (bulk bswap)" : "native order");
            }
            public ByteOrder order() { return order; }
            public boolean perElement() { return false; }

            public double run(Op op, Plan plan, Workers workers, Object[] buffers, long expected) throws Exception {
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
