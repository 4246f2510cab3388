package org.hpio.internal.mem;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** StagingSlots: buffers of the size asked for, page-aligned, never handed to two owners, kept up to the slots. */
class StagingSlotsTest {
    @Test
    void buffersAreAlignedOfTheSizeAndReused() {
        StagingSlots slots = new StagingSlots(64 * 1024, 2);
        MemorySegment a = slots.acquire();
        assertEquals(64 * 1024, a.byteSize());
        assertEquals(0, a.address() % 4096);
        slots.release(a);
        assertSame(a, slots.acquire(), "an idle buffer is handed out again");
    }

    @Test
    void noBufferHasTwoOwnersAndOnlyTheSlotsAreKept() {
        StagingSlots slots = new StagingSlots(4096, 2);
        List<MemorySegment> held = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            MemorySegment b = slots.acquire();
            held.forEach(h -> assertNotSame(h, b));
            held.add(b);
        }
        held.forEach(slots::release);
        MemorySegment x = slots.acquire();
        MemorySegment y = slots.acquire();
        MemorySegment z = slots.acquire();
        assertNotSame(x, y);
        assertTrue(held.contains(x) && held.contains(y), "the two kept buffers come back");
        assertTrue(!held.contains(z), "the others were dropped: a third acquire allocates");
    }

    @Test
    void aBufferOfAnotherSizeIsRefused() {
        StagingSlots slots = new StagingSlots(4096, 2);
        assertThrows(IllegalArgumentException.class, () -> slots.release(Arena.ofAuto().allocate(8192)));
    }
}
