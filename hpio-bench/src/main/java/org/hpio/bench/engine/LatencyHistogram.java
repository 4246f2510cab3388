package org.hpio.bench.engine;

/**
 * Latencies in nanoseconds, log-linear buckets: exact below 128 ns, then 64 buckets per power of two (at most
 * 1.6% off). Fixed size, so recording never allocates. One thread; {@link #add} merges another's counts.
 */
public final class LatencyHistogram {
    private static final int SUB_BITS = 6;
    private static final int SUB = 1 << SUB_BITS;
    private static final int LINEAR = 2 * SUB;

    private final long[] counts = new long[LINEAR + (63 - SUB_BITS) * SUB];
    private long total;

    public void record(long nanos) {
        counts[index(Math.max(0, nanos))]++;
        total++;
    }

    public long count() {
        return total;
    }

    /** The latency at quantile {@code q} (0..1) in nanoseconds, the middle of its bucket; NaN when empty. */
    public double quantile(double q) {
        if (total == 0) {
            return Double.NaN;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return (lowest(i) + lowest(i + 1)) / 2.0;
            }
        }
        return lowest(counts.length - 1);
    }

    /** Adds {@code other}'s counts to this one's (the other one is not changed). */
    public void add(LatencyHistogram other) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
        }
        total += other.total;
    }

    static int index(long v) {
        if (v < LINEAR) {
            return (int) v;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(v);
        int mantissa = (int) (v >>> (exponent - SUB_BITS)) & (SUB - 1);
        return LINEAR + (exponent - SUB_BITS - 1) * SUB + mantissa;
    }

    static double lowest(int index) {
        if (index < LINEAR) {
            return index;
        }
        int exponent = (index - LINEAR) / SUB + SUB_BITS + 1;
        int mantissa = (index - LINEAR) % SUB;
        return Math.scalb((double) (SUB + mantissa), exponent - SUB_BITS);
    }
}
