package org.hpio.bench.engine;

import java.io.IOException;

/**
 * What one timed run of a driver saw: I/Os completed, bytes, latencies, and everything wrong (blocks that did
 * not hold the pattern, short transfers, the first error). Filled by the thread that runs the driver.
 */
final class Measurement {
    final LatencyHistogram latencies = new LatencyHistogram();
    private final String configuration;
    private long ios;
    private long bytes;
    private long wrongBlocks;
    private long shortTransfers;
    private Exception error;
    private long elapsedNanos;

    Measurement(String configuration) {
        this.configuration = configuration;
    }

    /** One completed I/O of {@code expected} bytes that moved {@code moved} and took {@code latencyNanos}. */
    void completed(long latencyNanos, long moved, long expected, int wrong) {
        ios++;
        bytes += moved;
        wrongBlocks += wrong;
        if (moved != expected) {
            shortTransfers++;
        }
        latencies.record(latencyNanos);
    }

    /** An I/O or submission failed; the run stops issuing and the measurement fails its check. */
    void failed(Exception e) {
        if (error == null) {
            error = e;
        }
    }

    boolean failed() {
        return error != null;
    }

    void elapsed(long nanos) {
        elapsedNanos = nanos;
    }

    long ios() {
        return ios;
    }

    long bytes() {
        return bytes;
    }

    double seconds() {
        return elapsedNanos / 1e9;
    }

    /** Throws when anything went wrong: a figure is reported only for a run whose every I/O was right. */
    void check() throws IOException {
        if (error != null) {
            throw new IOException(configuration + ": " + error.getMessage(), error);
        }
        if (ios == 0) {
            throw new IOException(configuration + " completed no I/O");
        }
        if (shortTransfers > 0) {
            throw new IOException(configuration + ": " + shortTransfers + " of " + ios + " I/Os moved fewer bytes than asked");
        }
        if (wrongBlocks > 0) {
            throw new IOException(configuration + " read wrong data: " + wrongBlocks + " blocks (in " + ios
                    + " I/Os) did not start with their block number");
        }
    }
}
