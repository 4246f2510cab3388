package org.hpio.archive;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link OpenedOnce}: one opening however many threads ask at once, one close, and no opening after it. */
class OpenedOnceTest {
    @Test
    void opensOnceForManyThreadsAndNeverAfterClose() throws Exception {
        AtomicInteger opened = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        OpenedOnce<AutoCloseable> once = new OpenedOnce<>("the resource", () -> {
            opened.incrementAndGet();
            return closed::incrementAndGet;
        });
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<AutoCloseable>> got = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                got.add(threads.submit(() -> {
                    start.await();
                    return once.get();
                }));
            }
            start.countDown();
            AutoCloseable first = got.getFirst().get(30, TimeUnit.SECONDS);
            for (Future<AutoCloseable> f : got) {
                assertSame(first, f.get(30, TimeUnit.SECONDS));
            }
        } finally {
            threads.shutdownNow();
        }
        assertEquals(1, opened.get());
        once.close();
        once.close();
        assertEquals(1, closed.get(), "closed once");
        IOException after = assertThrows(IOException.class, once::get);
        assertTrue(after.getMessage().contains("the resource is closed"), after.getMessage());
        assertEquals(1, opened.get(), "not opened again after close");
    }

    @Test
    void closingWhatWasNeverOpenedOpensNothing() throws Exception {
        AtomicInteger opened = new AtomicInteger();
        OpenedOnce<AutoCloseable> once = new OpenedOnce<>("x", () -> {
            opened.incrementAndGet();
            return () -> { };
        });
        once.close();
        assertThrows(IOException.class, once::get);
        assertEquals(0, opened.get());
    }
}
