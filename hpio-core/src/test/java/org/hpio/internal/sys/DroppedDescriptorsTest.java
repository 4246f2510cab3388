package org.hpio.internal.sys;

import org.junit.jupiter.api.Test;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A dropped owner's descriptor is closed after the collection that found it, with no further registration to
 * drain the queue (the arena-per-collection watch) and no thread of hpio's; a closed owner's is closed once,
 * by its close, and leaves no registration behind.
 */
class DroppedDescriptorsTest {
    /** A descriptor that counts its closes. */
    private static final class Counted implements Closeable {
        final AtomicInteger closes = new AtomicInteger();

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    @Test
    void aDroppedOwnersDescriptorIsClosedAfterACollectionWithoutAnotherRegistration() throws Exception {
        Counted descriptor = new Counted();
        registerAndDrop(descriptor);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (descriptor.closes.get() == 0 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        assertEquals(1, descriptor.closes.get(), "closed once, after a collection");
    }

    /**
     * A handle registered before hpio's native calls were ready ({@link NativeFile.DescriptorCloser#forDescriptorNotOpenedYet})
     * arms no watch itself (the watch's arena is the Foreign Function API's); once the watch is allowed, it is
     * armed at once for the live registration, and a collection closes the dropped descriptor.
     */
    @Test
    void aHandleRegisteredBeforeTheWatchWasAllowedArmsNothingUntilItIs() throws Exception {
        DroppedDescriptors.resetWatchForTests();
        Counted descriptor = new Counted();
        DroppedDescriptors.register(new Object(), descriptor, new AtomicInteger(), false);
        assertFalse(DroppedDescriptors.watching(), "a registration made before the native calls armed the watch");
        DroppedDescriptors.allowWatch();
        assertTrue(DroppedDescriptors.watching(), "allowed, with a registration live: armed");
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (descriptor.closes.get() == 0 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        assertEquals(1, descriptor.closes.get(), "closed once, after a collection");
    }

    private static void registerAndDrop(Closeable descriptor) {
        Object owner = new Object();
        DroppedDescriptors.register(owner, descriptor, new AtomicInteger(), true);
    }

    @Test
    void closedOwnersAreClosedOnceByTheirCloseAndLeaveNoRegistration() throws Exception {
        int before = DroppedDescriptors.live();
        List<Counted> descriptors = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            Counted descriptor = new Counted();
            descriptors.add(descriptor);
            NativeFile.DescriptorCloser closer = NativeFile.closeWhenUnreachable(descriptor);
            closer.close();
            closer.clean();   // a second close, as a channel's cleanup may make: nothing more
        }
        assertTrue(DroppedDescriptors.live() <= before, DroppedDescriptors.live() + " registrations left, " + before
                + " before");
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(10);
        }
        DroppedDescriptors.closeDropped();
        for (Counted descriptor : descriptors) {
            assertEquals(1, descriptor.closes.get());
        }
    }
}
