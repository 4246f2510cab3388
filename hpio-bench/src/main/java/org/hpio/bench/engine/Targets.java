package org.hpio.bench.engine;

import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;
import org.hpio.bench.report.TargetsTable;

import java.util.List;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;
import java.util.function.ToDoubleFunction;

import static org.hpio.bench.report.TargetsTable.FOR_COMPARISON;

/**
 * The targets, from figures of the same run: io_uring at QD 32 against fio (>= 0.85x IOPS) and
 * FileChannel at QD 1 (>= 3x); its CPU per I/O against AsynchronousFileChannel's at the same depth (<= 1/2, at
 * the same IOPS or better, which this suite takes as >= 0.95x); sequential 1 MiB reads against fio (>= 0.9x).
 * A few more ratios are shown for comparison. Each becomes a result {@code A-vs-B} with the metric compared.
 */
final class Targets {
    /** "The same IOPS or better", allowing for this much noise. */
    static final double SAME_IOPS = 0.95;

    private Targets() {
    }

    static Table table(SuiteReport report, List<Figures> figures, EngineSettings settings) {
        TargetsTable table = new TargetsTable(report, new Table("Targets, same run",
                List.of("ratio", "metric", "value", "target", "met")));
        int qd = settings.targetDepth();
        String uring = "uring-qd" + qd;
        ratio(table, figures, uring, "fio-uring-qd" + qd, "iops", Figures::iops, ">= 0.85", v -> v >= 0.85);
        ratio(table, figures, uring, "filechannel-qd1", "iops", Figures::iops, ">= 3", v -> v >= 3);
        for (String afc : List.of("afc-default-qd" + qd, "afc-pool-qd" + qd)) {
            OptionalDouble iops = ratio(table, figures, uring, afc, "iops", Figures::iops,
                    ">= " + SAME_IOPS + " (for the CPU target)", null);
            boolean sameIops = iops.isPresent() && iops.getAsDouble() >= SAME_IOPS;
            ratio(table, figures, uring, afc, "cpu-per-io without JIT", Figures::cpuWithoutJitMicrosPerIo,
                    "<= 0.5 at the same IOPS or better", v -> v <= 0.5 && sameIops);
            ratio(table, figures, uring, afc, "cpu-per-io", Figures::cpuMicrosPerIo, FOR_COMPARISON, null);
        }
        for (int depth : settings.sequentialDepths()) {
            ratio(table, figures, "uring-seq-read-qd" + depth, "fio-uring-seq-read-qd" + depth, "read",
                    Figures::mbPerSecond, ">= 0.9", v -> v >= 0.9);
        }
        ratio(table, figures, "uring-seq-read-qd1", "filechannel-seq-read-qd1", "read", Figures::mbPerSecond,
                FOR_COMPARISON, null);
        ratio(table, figures, "threads-qd" + qd, "fio-uring-qd" + qd, "iops", Figures::iops, FOR_COMPARISON, null);
        ratio(table, figures, uring, "threads-qd" + qd, "cpu-per-io", Figures::cpuMicrosPerIo, FOR_COMPARISON, null);
        for (int depth : settings.sequentialDepths()) {
            ratio(table, figures, "uring-seq-write-qd" + depth, "fio-uring-seq-write-qd" + depth, "write",
                    Figures::mbPerSecond, FOR_COMPARISON, null);
        }
        return table.table().note("Same run, same file. 'met' compares with the issue's target on this machine kind; "
                + "the machine is shared, so one run is one sample. The 4 KiB random rows compare the engines (a "
                + "read is one page whatever the memory). The 1 MiB rows also compare memory: hpio's engine reads "
                + "into IoMemory (huge pages where the kernel grants them), FileChannel and fio into 4 KiB pages "
                + "(see the buffers parameter), so up to 256 device segments a read; with hugetlbfs buffers (--iomem=mmaphuge, measured by hand "
                + "on the 2-vCPU virtio machine, AMD EPYC) fio read 1 MiB blocks at one in flight 2.1x as fast, "
                + "2,277 against 1,092 MiB/s. This suite does not reserve huge pages for fio.");
    }

    /** Adds the row and result {@code a-vs-b} when both were measured; returns the ratio. */
    private static OptionalDouble ratio(TargetsTable table, List<Figures> figures, String a, String b, String metric,
                                        ToDoubleFunction<Figures> value, String target, DoublePredicate met) {
        return table.ratio(a, b, metric, figure(figures, a, value), figure(figures, b, value), target, met);
    }

    private static OptionalDouble figure(List<Figures> figures, String configuration, ToDoubleFunction<Figures> value) {
        return EngineReport.find(figures, configuration).stream().mapToDouble(value).findFirst();
    }
}
