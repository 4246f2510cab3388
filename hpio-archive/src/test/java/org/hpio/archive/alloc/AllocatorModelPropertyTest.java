package org.hpio.archive.alloc;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random allocate/free sequences checked against a model (a sorted map of live regions): regions are aligned and
 * never overlap, contents survive other regions' frees (tags are written only in free memory), an allocation
 * fails only when no contiguous free run is large enough (so coalescing is complete), the statistics add up, and
 * freeing everything leaves one untouched block again.
 */
class AllocatorModelPropertyTest {
    private static final int A = 256;
    private static final long CAPACITY = 512L * A;

    @Property(tries = 60)
    void agreesWithAModel(@ForAll long seed, @ForAll @IntRange(min = 50, max = 800) int steps) throws IOException {
        Random random = new Random(seed);
        try (AlignedAllocator alloc = new AlignedAllocator(CAPACITY, A)) {
            long base = alloc.allocate(1).address();
            alloc.free(MemorySegment.ofAddress(base).reinterpret(1));
            TreeMap<Long, MemorySegment> model = new TreeMap<>();
            List<Long> order = new ArrayList<>();
            for (int i = 0; i < steps; i++) {
                if (model.isEmpty() || random.nextInt(100) < 60) {
                    long bytes = 1 + (random.nextBoolean() ? random.nextInt(2 * A) : random.nextInt(40 * A));
                    Lifetime lifetime = random.nextInt(4) == 0 ? Lifetime.LONG : Lifetime.NORMAL;
                    MemorySegment m = alloc.tryAllocate(bytes, lifetime);
                    long rounded = (bytes + A - 1) / A * A;
                    if (m == null) {
                        assertTrue(largestFreeRun(model, base) < rounded,
                                "refused " + rounded + " bytes with a free run of " + largestFreeRun(model, base));
                        continue;
                    }
                    long off = m.address() - base;
                    assertEquals(0, off % A, "aligned");
                    assertTrue(off >= 0 && off + rounded <= CAPACITY, "inside the region");
                    Map.Entry<Long, MemorySegment> below = model.floorEntry(off);
                    assertTrue(below == null || below.getKey() + round(below.getValue()) <= off, "no overlap below");
                    Map.Entry<Long, MemorySegment> above = model.ceilingEntry(off);
                    assertTrue(above == null || off + rounded <= above.getKey(), "no overlap above");
                    stamp(m, off);
                    model.put(off, m);
                    order.add(off);
                } else {
                    long off = order.remove(random.nextInt(order.size()));
                    MemorySegment m = model.remove(off);
                    checkStamp(m, off);
                    alloc.free(m);
                }
                checkStats(alloc.stats(), model);
            }
            for (Map.Entry<Long, MemorySegment> e : model.entrySet()) {
                checkStamp(e.getValue(), e.getKey());
            }
            for (long off : order) {
                alloc.free(model.get(off));
            }
            AllocatorStats end = alloc.stats();
            assertEquals(0, end.freeBlocks(), "all freed: everything coalesced back into one untouched block");
            assertEquals(CAPACITY, end.untouchedBytes());
        }
    }

    private static void checkStats(AllocatorStats s, TreeMap<Long, MemorySegment> model) {
        long requested = model.values().stream().mapToLong(MemorySegment::byteSize).sum();
        long allocated = model.values().stream().mapToLong(AllocatorModelPropertyTest::round).sum();
        assertEquals(requested, s.requestedBytes());
        assertEquals(allocated, s.allocatedBytes());
        assertEquals(model.size(), s.liveRegions());
        assertEquals(CAPACITY, s.allocatedBytes() + s.freeListBytes() + s.untouchedBytes());
    }

    private static long largestFreeRun(TreeMap<Long, MemorySegment> model, long base) {
        long best = 0;
        long at = 0;
        for (Map.Entry<Long, MemorySegment> e : model.entrySet()) {
            best = Math.max(best, e.getKey() - at);
            at = e.getKey() + round(e.getValue());
        }
        return Math.max(best, CAPACITY - at);
    }

    private static long round(MemorySegment m) {
        return (m.byteSize() + A - 1) / A * A;
    }

    private static void stamp(MemorySegment m, long off) {
        if (m.byteSize() >= 16) {
            m.set(JAVA_LONG, 0, off);
            m.asSlice(m.byteSize() - 8).set(JAVA_LONG_UNALIGNED, 0, ~off);
        }
    }

    private static void checkStamp(MemorySegment m, long off) {
        if (m.byteSize() >= 16) {
            assertEquals(off, m.get(JAVA_LONG, 0), "start of the region at " + off + " intact");
            assertEquals(~off, m.asSlice(m.byteSize() - 8).get(JAVA_LONG_UNALIGNED, 0), "end of the region at " + off + " intact");
        }
    }
}
