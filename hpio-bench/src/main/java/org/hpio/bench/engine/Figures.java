package org.hpio.bench.engine;

/**
 * One configuration's checked figures. Latencies in microseconds, CPU time in microseconds per I/O, NaN where
 * not measured. {@code jitMicrosPerIo}: the part of {@code cpuMicrosPerIo} the JIT's compiler threads used
 * (0 for fio, which has none).
 */
record Figures(String configuration, Mechanism mechanism, Workload workload, int depth, long ios, double seconds,
               double cpuMicrosPerIo, double jitMicrosPerIo, double switchesPerIo, double p50, double p99, double p999,
               long bytes) {

    double iops() {
        return ios / seconds;
    }

    /** MB/s of 10^6 bytes. */
    double mbPerSecond() {
        return bytes / 1e6 / seconds;
    }

    /**
     * CPU time per I/O without the JIT's compiler threads: the path's own cost, which the CPU targets compare (as
     * {@code bench nio} does); the whole where the JIT's part is unknown.
     */
    double cpuWithoutJitMicrosPerIo() {
        return Double.isNaN(jitMicrosPerIo) ? cpuMicrosPerIo : cpuMicrosPerIo - jitMicrosPerIo;
    }

    /** From a checked measurement and the process's usage over it. */
    static Figures of(String configuration, Mechanism mechanism, Workload workload, int depth, Measurement m, Usage used) {
        double ios = m.ios();
        return new Figures(configuration, mechanism, workload, depth, m.ios(), m.seconds(),
                used.cpuNanos() / 1e3 / ios, used.jitNanos() < 0 ? Double.NaN : used.jitNanos() / 1e3 / ios,
                used.contextSwitches() < 0 ? Double.NaN : used.contextSwitches() / ios,
                m.latencies.quantile(0.50) / 1e3, m.latencies.quantile(0.99) / 1e3, m.latencies.quantile(0.999) / 1e3,
                m.bytes());
    }
}
