package org.hpio.internal.io;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IoRequestTest {
    @Test
    void theListenerSeesTheResultAndRunsBeforeAnyWaiterWakes() throws Exception {
        IoRequest request = new IoRequest(IoOperation.nop());
        AtomicBoolean listenerSaw = new AtomicBoolean();
        AtomicBoolean waiterSawListener = new AtomicBoolean();
        request.whenDone(() -> {
            listenerSaw.set(!request.isDone() && request.result() == 5);   // done only once it ran
            try {
                Thread.sleep(50);   // a waiter must still be parked now
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                request.await();
                waiterSawListener.set(listenerSaw.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertFalse(request.await(0, TimeUnit.SECONDS), "a timeout of 0 polls");
        assertThrows(IllegalStateException.class, request::result);
        request.complete(5, 0);
        waiter.join(10_000);
        assertTrue(listenerSaw.get());
        assertTrue(waiterSawListener.get());
        assertEquals(5, request.resultOrThrow());
    }

    @Test
    void aThreadWaitingForSeveralRequestsLosesNoOtherThreadWaitingForOneOfThem() throws Exception {
        for (boolean all : new boolean[] {true, false}) {
            IoRequest a = new IoRequest(IoOperation.nop());
            IoRequest b = new IoRequest(IoOperation.nop());
            IoRequest c = new IoRequest(IoOperation.nop());
            Thread onA = Thread.ofPlatform().daemon().start(() -> awaitQuietly(List.of(a), true));
            awaitParked(onA);
            Thread onC = Thread.ofPlatform().daemon().start(() -> awaitQuietly(List.of(c), true));
            awaitParked(onC);
            // Registers with a, b and c in turn: a's and c's waiters must stay registered.
            Thread onEach = Thread.ofVirtual().start(() -> awaitQuietly(List.of(a, b, c), all));
            awaitParked(onEach);
            a.complete(0, 0);
            onA.join(10_000);
            assertFalse(onA.isAlive(), "a's first waiter was not woken (all: " + all + ")");
            b.complete(0, 0);
            c.complete(0, 0);
            onC.join(10_000);
            onEach.join(10_000);
            assertFalse(onC.isAlive(), "c's first waiter was not woken (all: " + all + ")");
            assertFalse(onEach.isAlive(), "the waiter of all three was not woken (all: " + all + ")");
        }
    }

    @Test
    void aRequestListedTwiceInOneWaitIsWaitedForOnce() throws Exception {
        IoRequest a = new IoRequest(IoOperation.nop());
        Thread twice = Thread.ofPlatform().daemon().start(() -> awaitQuietly(List.of(a, a), true));
        awaitParked(twice);
        Thread completing = Thread.ofPlatform().daemon().start(() -> a.complete(0, 0));
        completing.join(10_000);
        assertFalse(completing.isAlive(), "completing the request never ended (its waiters looped)");
        twice.join(10_000);
        assertFalse(twice.isAlive());
    }

    private static void awaitQuietly(List<IoRequest> requests, boolean all) {
        try {
            IoRequests.await(requests, all, Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until {@code thread} parks (it registers with its requests just before). */
    private static void awaitParked(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.WAITING) {
            assertTrue(System.nanoTime() < deadline, "the thread never parked: " + thread.getState());
            Thread.sleep(1);
        }
    }

    @Test
    void aListenerThatThrowsLeavesTheRequestCompletedAndItsWaitersWoken() throws Exception {
        IoRequest request = new IoRequest(IoOperation.nop());
        request.whenDone(() -> {
            throw new IllegalStateException("a listener's own failure (expected in this test)");
        });
        Thread waiter = Thread.ofPlatform().daemon().start(() -> awaitQuietly(List.of(request), true));
        awaitParked(waiter);
        request.complete(3, 0);   // the engine's retiring thread: it goes on
        waiter.join(10_000);
        assertFalse(waiter.isAlive());
        assertTrue(request.isDone());
        assertEquals(3, request.resultOrThrow());
    }

    @Test
    void aSecondListenerIsRefused() {
        IoRequest request = new IoRequest(IoOperation.nop());
        request.whenDone(() -> { });
        assertThrows(IllegalStateException.class, () -> request.whenDone(() -> { }));
    }

    @Test
    void aListenerAddedAfterCompletionRunsAtOnce() {
        IoRequest request = new IoRequest(IoOperation.nop());
        request.complete(0, 0);
        AtomicBoolean ran = new AtomicBoolean();
        request.whenDone(() -> ran.set(true));
        assertTrue(ran.get());
    }

    @Test
    void anEmptyListIsAllDoneAndNeverAnyDoneWithoutWaiting() throws InterruptedException {
        assertTrue(IoRequests.awaitAll(List.of(), Long.MAX_VALUE));
        assertFalse(IoRequests.awaitAny(List.of(), 1_000_000_000L));
        assertFalse(IoRequests.awaitAny(List.of(), Long.MAX_VALUE), "returns: an infinite wait on nothing never ends");
    }
}
