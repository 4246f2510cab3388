package org.hpio.bench.measure;

import java.util.Arrays;

/** Small statistics for repeated measurements. */
public final class Stats {
    private Stats() {
    }

    public static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * The {@code q}-quantile of {@code values} by the nearest-rank rule (the smallest value at least a share
     * {@code q} of the values are at or below), for {@code q} in (0, 1]; {@code values} is not changed.
     */
    public static long quantile(long[] values, double q) {
        if (values.length == 0 || !(q > 0 && q <= 1)) {
            throw new IllegalArgumentException("a quantile in (0, 1] of at least one value, not " + q + " of "
                    + values.length);
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.ceil(q * sorted.length) - 1];
    }

    /** Megabytes (10^6 bytes) per second. */
    public static double mbPerSecond(long bytes, double seconds) {
        return bytes / 1e6 / seconds;
    }
}
