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

    /** Megabytes (10^6 bytes) per second. */
    public static double mbPerSecond(long bytes, double seconds) {
        return bytes / 1e6 / seconds;
    }
}
