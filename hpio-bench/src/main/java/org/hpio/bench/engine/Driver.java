package org.hpio.bench.engine;

import java.io.IOException;

/**
 * One I/O mechanism opened on one file at one queue depth: it keeps that many I/Os of the workload in flight
 * for a given time, checking each one. Owns its file, buffers and threads until closed; closing waits for
 * every I/O still in flight before the buffers are freed.
 */
interface Driver extends AutoCloseable {
    /**
     * Keeps issuing I/Os at {@code offsets} for {@code nanos}, then waits for those in flight. Never throws
     * for an I/O that failed or read wrong data: the measurement records it and fails its check.
     */
    Measurement run(String configuration, Workload.Offsets offsets, long nanos) throws InterruptedException;

    @Override
    void close() throws IOException;
}
