package org.hpio.bench.sort;

/**
 * Where the merge passes spend their time: waiting for read-ahead blocks, decoding them (off-heap file bytes
 * into the long[] block), encoding the output and initiating (and, at the in-flight bound, waiting for) writes;
 * the rest of a pass is merging on the CPU. One thread.
 */
final class MergeTimes {
    private long readWait;
    private long decode;
    private long write;

    /** Adds the time since {@code since} to waiting for reads; returns now. */
    long readWait(long since) {
        long now = SortTimes.now();
        readWait += now - since;
        return now;
    }

    /** Adds the time since {@code since} to decoding; returns now. */
    long decode(long since) {
        long now = SortTimes.now();
        decode += now - since;
        return now;
    }

    void write(long since) {
        write += SortTimes.now() - since;
    }

    double readWaitSeconds() {
        return readWait / 1e9;
    }

    double decodeSeconds() {
        return decode / 1e9;
    }

    double writeSeconds() {
        return write / 1e9;
    }
}
