package org.hpio.bench.async;

/**
 * One way of doing asynchronous requests one after another: start a request (timed as initiation), then wait
 * for it (timed as completion). Each request's array or buffer is checked against the file's pattern (long i
 * of the file holds i) before the figure counts.
 */
interface RequestCost extends AutoCloseable {
    /** Starts a read of {@code longs.length} longs at byte {@code position}, or a write of them. */
    void start(long position, long[] longs, boolean write) throws Exception;

    /** Waits for the request started last; for a read, {@code longs} then holds the data. */
    void finish(long[] longs) throws Exception;
}
