package org.hpio.internal.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one bound with a wait for room: what fits, fail-fast, release checks, and waiters woken or interrupted. */
class AdmissionGateTest {
    @Test
    void unitsFitWithinTheLimitAndOneDemandLargerThanTheLimitAlone() {
        AdmissionGate gate = new AdmissionGate(10, false);
        assertTrue(gate.tryAcquire(6));
        assertFalse(gate.tryAcquire(5));
        assertTrue(gate.tryAcquire(4));
        assertEquals(10, gate.held());
        gate.release(10);
        assertTrue(gate.tryAcquire(25), "alone, a demand over the limit is admitted");
        assertFalse(gate.tryAcquire(1));
        gate.release(25);
        assertEquals(0, gate.held());
        assertThrows(IllegalArgumentException.class, () -> new AdmissionGate(0, false));
    }

    @Test
    void aFailFastGateRefusesAtOnceAndTakesNothing() throws InterruptedException {
        AdmissionGate gate = new AdmissionGate(1, true);
        assertTrue(gate.acquire(1, (g, units) -> { throw new AssertionError("a free unit needs no wait"); }));
        assertFalse(gate.acquire(1, (g, units) -> { throw new AssertionError("fail-fast never waits"); }));
        assertEquals(1, gate.held());
    }

    @Test
    void releasingMoreThanIsHeldIsRefusedAndChangesNothing() {
        AdmissionGate gate = new AdmissionGate(4, false);
        gate.tryAcquire(2);
        assertThrows(IllegalStateException.class, () -> gate.release(3));
        assertEquals(2, gate.held());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aParkedWaiterTakesTheUnitsAReleaseFrees(boolean virtual) throws Exception {
        AdmissionGate gate = new AdmissionGate(2, false);
        gate.tryAcquire(2);
        AdmissionGate.Wait wait = AdmissionGate.helping(Completions.NONE);   // cannot poll: parks untimed
        CompletableFuture<Boolean> admitted = new CompletableFuture<>();
        Thread waiter = (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).start(() -> {
            try {
                admitted.complete(gate.acquire(2, wait));
            } catch (Throwable t) {
                admitted.completeExceptionally(t);
            }
        });
        while (waiter.getState() != Thread.State.WAITING && !admitted.isDone()) {
            Thread.onSpinWait();
        }
        assertFalse(admitted.isDone());
        gate.release(1);
        gate.release(1);
        assertTrue(admitted.get(10, TimeUnit.SECONDS));
        assertEquals(2, gate.held());
    }

    @Test
    void anInterruptEndsTheWaitWithNothingTaken() throws Exception {
        AdmissionGate gate = new AdmissionGate(1, false);
        gate.tryAcquire(1);
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                gate.acquire(1, AdmissionGate.helping(Completions.NONE));
                ended.complete(null);
            } catch (Throwable t) {
                ended.complete(t);
            }
        });
        waiter.interrupt();
        assertTrue(ended.get(10, TimeUnit.SECONDS) instanceof InterruptedException);
        assertEquals(1, gate.held());
    }

    @Test
    void aTimedWaitForRoomReturnsWhenItsTimeIsUp() throws InterruptedException {
        AdmissionGate gate = new AdmissionGate(1, false);
        gate.tryAcquire(1);
        gate.awaitRoom(1, TimeUnit.MILLISECONDS.toNanos(1));
        assertEquals(1, gate.held());
    }
}
