package org.hpio.internal.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void waitersAreServedInOrderSoALargeDemandIsNotPassedBySmallOnes(boolean virtual) throws Exception {
        AdmissionGate gate = new AdmissionGate(10, false);
        gate.tryAcquire(9);
        Acquirer large = Acquirer.waiting(virtual, gate, 5);
        Acquirer small = Acquirer.waiting(virtual, gate, 1);   // would fit now: 9 + 1 <= 10
        assertEquals(9, gate.held(), "a later, smaller demand waits behind the first waiter");
        gate.release(9);
        assertTrue(large.admitted().get(10, TimeUnit.SECONDS));
        assertTrue(small.admitted().get(10, TimeUnit.SECONDS));
        assertEquals(6, gate.held());
        assertTrue(gate.acquire(4, (g, units) -> { throw new AssertionError("nobody waits: no wait"); }));
    }

    @Test
    void whenTheFirstWaiterIsInterruptedTheNextInLineTakesItsTurn() throws Exception {
        AdmissionGate gate = new AdmissionGate(10, false);
        gate.tryAcquire(9);
        Acquirer large = Acquirer.waiting(true, gate, 5);
        Acquirer small = Acquirer.waiting(true, gate, 1);
        large.thread().interrupt();
        ExecutionException e = assertThrows(ExecutionException.class, () -> large.admitted().get(10, TimeUnit.SECONDS));
        assertInstanceOf(InterruptedException.class, e.getCause());
        assertTrue(small.admitted().get(10, TimeUnit.SECONDS), "the second waiter fits once it is first");
        assertEquals(10, gate.held());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aReleaseWakesOnlyTheFirstWaiterNotEveryParkedOne(boolean virtual) throws Exception {
        AdmissionGate gate = new AdmissionGate(10, false);
        gate.tryAcquire(10);
        AtomicInteger headWaits = new AtomicInteger();
        AtomicInteger followerWaits = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        threads.add(parkedWaiter(virtual, gate, 10, headWaits));   // first in line: needs all ten units
        int followers = 40;
        for (int i = 0; i < followers; i++) {
            threads.add(parkedWaiter(virtual, gate, 1, followerWaits));
        }
        int before = followerWaits.get();
        for (int i = 0; i < 9; i++) {   // each frees room, never enough for the first waiter
            int headBefore = headWaits.get();
            gate.release(1);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (headWaits.get() == headBefore || threads.getFirst().getState() != Thread.State.WAITING) {
                assertTrue(System.nanoTime() < deadline, "the first waiter was not woken by a release");
                Thread.sleep(1);
            }
        }
        Thread.sleep(50);   // time for any other waiter a release woke to run
        assertTrue(followerWaits.get() - before < followers / 4, (followerWaits.get() - before)
                + " wake-ups of the " + followers + " waiters behind the first after 9 releases (a wake-up of all "
                + "on each release would be " + 9 * followers + ")");
        assertEquals(1, gate.held(), "nobody behind the first took a unit");
        for (Thread t : threads) {
            t.interrupt();
            t.join(10_000);
        }
    }

    /** A thread acquiring {@code units} that counts each round of its wait in {@code waits}; started once parked. */
    private static Thread parkedWaiter(boolean virtual, AdmissionGate gate, long units, AtomicInteger waits)
            throws InterruptedException {
        return Acquirer.waiting(virtual, gate, units, (g, u) -> {
            waits.incrementAndGet();
            g.awaitRoom(u, Long.MAX_VALUE);
        }).thread();
    }

    /** A thread acquiring {@code units} on a gate (parking while it waits), and its outcome. */
    private record Acquirer(Thread thread, CompletableFuture<Boolean> admitted) {
        /** Starts one and returns once it parks in its wait (failing if it returns instead). */
        static Acquirer waiting(boolean virtual, AdmissionGate gate, long units) throws InterruptedException {
            return waiting(virtual, gate, units, AdmissionGate.helping(Completions.NONE));
        }

        /** {@link #waiting(boolean, AdmissionGate, long)} with {@code wait} as the acquire's wait. */
        static Acquirer waiting(boolean virtual, AdmissionGate gate, long units, AdmissionGate.Wait wait)
                throws InterruptedException {
            CompletableFuture<Boolean> admitted = new CompletableFuture<>();
            Thread thread = (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).start(() -> {
                try {
                    admitted.complete(gate.acquire(units, wait));
                } catch (Throwable t) {
                    admitted.completeExceptionally(t);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (thread.getState() != Thread.State.WAITING) {
                assertFalse(admitted.isDone(), "the acquire of " + units + " units returned instead of waiting");
                assertTrue(System.nanoTime() < deadline, "the acquire of " + units + " units never parked");
                Thread.sleep(1);
            }
            return new Acquirer(thread, admitted);
        }
    }
}
