package org.hpio.nio;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The early warm-up's wait for its provider: handed over before or during the wait, or given up for good. */
class HandOverTest {
    private static final long LONG = TimeUnit.SECONDS.toNanos(30);

    @Test
    void aValueOfferedBeforeTheWaitIsTakenAtOnceAndALaterOfferChangesNothing() {
        HandOver<String> handOver = new HandOver<>();
        assertTrue(handOver.offer("first"));
        assertTrue(handOver.offer("second"), "it has a value: the later offer is told so");
        assertEquals("first", handOver.await(0));
        assertEquals("given", HandOver.of("given").await(0));
    }

    @Test
    void anOfferWakesTheWaiter() throws Exception {
        HandOver<String> handOver = new HandOver<>();
        CompletableFuture<String> got = CompletableFuture.supplyAsync(() -> handOver.await(LONG));
        Thread.sleep(50);
        assertTrue(handOver.offer("value"));
        assertEquals("value", got.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aWaiterThatGaveUpStaysGoneAndTheGiverIsTold() {
        HandOver<String> handOver = new HandOver<>();
        assertNull(handOver.await(TimeUnit.MILLISECONDS.toNanos(20)));
        assertFalse(handOver.offer("late"), "the waiter gave up: the giver must do the work itself");
        assertNull(handOver.await(0), "given up for good");
    }

    @Test
    void anInterruptNeitherEndsTheWaitNorStaysPending() throws Exception {
        HandOver<String> handOver = new HandOver<>();
        CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
        CompletableFuture<String> got = new CompletableFuture<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            got.complete(handOver.await(LONG));
            interruptedAfter.complete(Thread.currentThread().isInterrupted());
        });
        Thread.sleep(50);
        waiter.interrupt();
        Thread.sleep(50);
        assertFalse(got.isDone(), "an interrupt ended the wait");
        assertTrue(handOver.offer("value"));
        assertEquals("value", got.get(10, TimeUnit.SECONDS));
        assertFalse(interruptedAfter.get(10, TimeUnit.SECONDS));
    }
}
