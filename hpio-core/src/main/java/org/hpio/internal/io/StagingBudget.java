package org.hpio.internal.io;

/**
 * A bound on the staging bytes held for requests in flight (heap data copied off-heap for the kernel): the
 * reason 003's OutOfMemoryError cannot happen here. {@link #acquire} waits (parking, not pinning) until the
 * bytes are free, or fails at once when the engine is fail-fast; every acquire is matched by one release.
 * A single request larger than the whole budget is admitted alone, when nothing else is held.
 *
 * <p>Bytes come back when the requests holding them complete, and a completion may wait for somebody to
 * retire it: so a thread that waits here helps its engine retire completions ({@link AdmissionGate#helping}),
 * never just sleeps while nobody else would.
 */
public final class StagingBudget {
    private final AdmissionGate gate;
    private final AdmissionGate.Wait helpingEngine;
    private final Completions engine;

    StagingBudget(long limit, boolean failFast, Completions engine) {
        this.gate = new AdmissionGate(limit, failFast);
        this.helpingEngine = AdmissionGate.helping(engine);
        this.engine = engine;
    }

    public void acquire(long bytes) throws EngineSaturatedException, InterruptedException {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative byte count: " + bytes);
        }
        if (!gate.acquire(bytes, helpingEngine)) {
            throw new EngineSaturatedException("staging budget of " + limit() + " bytes is in use (" + held()
                    + " held, " + bytes + " more asked)");
        }
        wakeFirstInLine();   // it is the next one's turn, and what is left may fit it
    }

    public void release(long bytes) {
        gate.release(bytes);
        wakeFirstInLine();
    }

    /** The gate unparks its first waiter; one that waits in the kernel (polling its engine) is woken there. */
    private void wakeFirstInLine() {
        Thread first = gate.firstInLine();
        if (first != null) {
            engine.waitEndedOffRing(first);
        }
    }

    public long held() {
        return gate.held();
    }

    public long limit() {
        return gate.limit();
    }
}
