package org.hpio.bench.sort;

/**
 * Where the merge passes spend their time: waiting for read-ahead blocks, initiating (and, at the in-flight
 * bound, waiting for) writes; the rest of a pass is merging on the CPU. One thread.
 */
final class MergeTimes {
    private long readWait;
    private long write;

    void readWait(long since) {
        readWait += SortTimes.now() - since;
    }

    void write(long since) {
        write += SortTimes.now() - since;
    }

    double readWaitSeconds() {
        return readWait / 1e9;
    }

    double writeSeconds() {
        return write / 1e9;
    }
}
