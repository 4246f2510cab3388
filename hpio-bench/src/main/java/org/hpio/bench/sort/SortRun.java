package org.hpio.bench.sort;

/**
 * One checked run of a configuration on one input size and chunk size, or the reason it was not run.
 *
 * @param config    configuration name
 * @param size      input bytes
 * @param chunk     chunk bytes
 * @param times     where the time went (null when not run)
 * @param notRun    why it was not run (null when run)
 */
record SortRun(String config, long size, long chunk, SortTimes.Breakdown times, String notRun) {
    static SortRun measured(String config, long size, long chunk, SortTimes.Breakdown times) {
        return new SortRun(config, size, chunk, times, null);
    }

    static SortRun skipped(String config, long size, long chunk, String why) {
        return new SortRun(config, size, chunk, null, why);
    }

    boolean ran() {
        return times != null;
    }

    /** Input size over total time, MB/s of 10^6 bytes (000 §5.1's throughput). */
    double throughput() {
        return size / 1e6 / times.total();
    }

    /** The JSON name: configuration, chunk, size ("async-512k-64m"). */
    String key() {
        return config + "-" + SortSettings.label(chunk) + "-" + SortSettings.label(size);
    }
}
