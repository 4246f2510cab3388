package org.hpio.internal.io;

import java.util.concurrent.locks.LockSupport;

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
        boolean taken;
        try {
            taken = gate.acquire(bytes, helpingEngine);
        } finally {
            wakeFirstInLine();   // taken or interrupted, it is the next one's turn, and what is left may fit it
        }
        if (!taken) {
            throw new EngineSaturatedException("staging budget of " + limit() + " bytes is in use (" + held()
                    + " held, " + bytes + " more asked)");
        }
    }

    public void release(long bytes) {
        gate.release(bytes);
        wakeFirstInLine();
    }

    /**
     * Wakes the first waiter, however it waits: the gate unparks only those parked in it, so one standing by
     * for its engine's poller is unparked here, and one waiting in the kernel (polling its engine) is woken
     * there (a spurious wake-up of either costs a look at the gate).
     */
    private void wakeFirstInLine() {
        Thread first = gate.firstInLine();
        if (first != null) {
            LockSupport.unpark(first);
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
