package org.hpio.internal.io;

import org.junit.jupiter.api.Test;

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
}
