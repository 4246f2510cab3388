package org.hpio.archive.alloc;

import org.hpio.internal.sys.NativeAccess;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AlignedAllocatorTest {
    private static final int A = 4096;

    @Test
    void regionsAreAlignedAndTakenFromUntouchedSpaceInAddressOrder() throws IOException {
        try (AlignedAllocator alloc = new AlignedAllocator(64 * A)) {
            MemorySegment a = alloc.allocate(1);
            MemorySegment b = alloc.allocate(A + 1);
            MemorySegment c = alloc.allocate(A);
            assertEquals(0, a.address() % A);
            assertEquals(a.address() + A, b.address());
            assertEquals(b.address() + 2 * A, c.address());
            assertEquals(1, a.byteSize());
            AllocatorStats s = alloc.stats();
            assertEquals(1 + A + 1 + A, s.requestedBytes());
            assertEquals(4 * A, s.allocatedBytes());
            assertEquals(60 * A, s.untouchedBytes());
        }
    }

    @Test
    void freeingTheMiddleLeavesAHoleThatIsReusedAfterUntouchedSpaceRunsOut() throws IOException {
        try (AlignedAllocator alloc = new AlignedAllocator(4 * A)) {
            MemorySegment a = alloc.allocate(A);
            MemorySegment b = alloc.allocate(A);
            alloc.allocate(A);
            alloc.free(b);
            assertEquals(1, alloc.stats().freeBlocks());
            MemorySegment d = alloc.allocate(A); // untouched space first
            assertEquals(a.address() + 3 * A, d.address());
            MemorySegment e = alloc.allocate(A); // then the hole
            assertEquals(b.address(), e.address());
            assertNull(alloc.tryAllocate(1, Lifetime.NORMAL));
            assertThrows(RegionFullException.class, () -> alloc.allocate(1));
        }
    }

    @Test
    void neighboursCoalesceIntoOneBlockAndBackIntoTheUntouchedGap() throws IOException {
        try (AlignedAllocator alloc = new AlignedAllocator(8 * A)) {
            List<MemorySegment> r = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                r.add(alloc.allocate(A));
            }
            alloc.free(r.get(1));
            alloc.free(r.get(3));
            alloc.free(r.get(2)); // joins 1..3
            AllocatorStats s = alloc.stats();
            assertEquals(1, s.freeBlocks());
            assertEquals(3 * A, s.freeListBytes());
            MemorySegment big = alloc.allocate(3 * A);
            assertEquals(r.get(1).address(), big.address());
            alloc.free(big);
            for (int i : new int[] {7, 0, 5, 4, 6}) {
                alloc.free(r.get(i));
            }
            s = alloc.stats();
            assertEquals(0, s.freeBlocks());
            assertEquals(8 * A, s.untouchedBytes());
            assertEquals(0, s.liveRegions());
        }
    }

    @Test
    void longLivedRegionsComeFromTheOtherEnd() throws IOException {
        try (AlignedAllocator alloc = new AlignedAllocator(8 * A)) {
            MemorySegment normal = alloc.allocate(A, Lifetime.NORMAL);
            MemorySegment pinned = alloc.allocate(A, Lifetime.LONG);
            assertEquals(normal.address() + 7 * A, pinned.address());
            alloc.free(pinned);
            assertEquals(7 * A, alloc.stats().untouchedBytes());
        }
    }

    @Test
    void misuseIsRefusedClearlyAndChangesNothing() throws IOException {
        try (AlignedAllocator alloc = new AlignedAllocator(16 * A); Arena arena = Arena.ofConfined()) {
            MemorySegment a = alloc.allocate(2 * A);
            MemorySegment b = alloc.allocate(100);
            alloc.free(b);
            AllocatorStats before = alloc.stats();
            assertMessage(() -> alloc.free(b), "freed twice");
            assertMessage(() -> alloc.free(arena.allocate(A, A)), "not from this allocator");
            assertMessage(() -> alloc.free(a.asSlice(8, 16)), "not aligned");
            assertMessage(() -> alloc.free(a.asSlice(A, A)), "inside a live region");
            assertMessage(() -> alloc.free(a.asSlice(0, A)), "larger than");
            if (NativeAccess.available()) {   // forging a segment is itself a native access
                assertMessage(() -> alloc.free(MemorySegment.ofAddress(a.address()).reinterpret(3 * A)), "smaller than");
            }
            assertEquals(before, alloc.stats());
            assertThrows(IllegalArgumentException.class, () -> alloc.allocate(0));
            assertThrows(IllegalArgumentException.class, () -> alloc.allocate(17 * A));
            assertThrows(IllegalArgumentException.class, () -> new AlignedAllocator(A, 100));
            alloc.free(a);
        }
    }

    @Test
    void dataThatLooksLikeATagDoesNotMergeALiveRegion() throws IOException {
        try (AlignedAllocator alloc = new AlignedAllocator(8 * A)) {
            MemorySegment a = alloc.allocate(A);
            MemorySegment b = alloc.allocate(A);
            MemorySegment c = alloc.allocate(A);
            alloc.allocate(A);
            // A header-looking pattern at the start of live b: right magic and position, guessed size and check.
            long offsetB = b.address() - a.address();
            b.set(JAVA_LONG, 0, 0x6870696F46524545L);
            b.set(JAVA_LONG, 8, offsetB);
            b.set(JAVA_LONG, 16, A);
            b.set(JAVA_LONG, 24, 0);
            alloc.free(a);
            // And a footer-looking pattern at the end of live b, claiming b free.
            b.set(JAVA_LONG, A - 32, 0x4545524646726565L);
            b.set(JAVA_LONG, A - 24, offsetB);
            b.set(JAVA_LONG, A - 16, A);
            alloc.free(c);
            AllocatorStats s = alloc.stats();
            assertEquals(2, s.freeBlocks());
            assertEquals(2 * A, s.freeListBytes());
            assertEquals(offsetB, b.get(JAVA_LONG, 8)); // b's contents untouched
            alloc.free(b); // now all three coalesce
            assertEquals(1, alloc.stats().freeBlocks());
            assertEquals(3 * A, alloc.stats().freeListBytes());
        }
    }

    @Test
    void memoryIsCommittedOnlyAsItIsUsed() throws IOException {
        long before = residentBytes();
        try (AlignedAllocator alloc = new AlignedAllocator(4L << 30)) {
            MemorySegment m = alloc.allocate(1 << 20);
            m.fill((byte) 1);
            long grown = residentBytes() - before;
            assertTrue(grown < (1L << 30), "reserving 4 GiB and touching 1 MiB grew the resident set by " + grown);
            assertEquals(1 << 20, alloc.stats().committedBytes());
        }
    }

    @Test
    void segmentsThrowAfterClose() throws IOException {
        AlignedAllocator alloc = new AlignedAllocator(4 * A);
        MemorySegment a = alloc.allocate(A);
        alloc.close();
        assertThrows(IllegalStateException.class, () -> a.get(JAVA_LONG, 0));
    }

    @Test
    void manyThreadsAllocateAndFreeWithoutOverlap() throws Exception {
        try (AlignedAllocator alloc = new AlignedAllocator(4096L * A); ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long id = t;
                done.add(pool.submit(() -> churn(alloc, id)));
            }
            for (Future<?> f : done) {
                f.get();
            }
            AllocatorStats s = alloc.stats();
            assertEquals(0, s.liveRegions());
            assertEquals(0, s.freeBlocks());
            assertEquals(s.capacity(), s.untouchedBytes());
        }
    }

    /** Allocates, stamps its own id into every region, checks the stamp before freeing. */
    private static Void churn(AlignedAllocator alloc, long id) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<MemorySegment> held = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            if (held.size() < 50 && random.nextInt(3) > 0) {
                MemorySegment m = alloc.tryAllocate(16 + random.nextInt(8 * A), random.nextInt(5) == 0 ? Lifetime.LONG : Lifetime.NORMAL);
                if (m != null) {
                    m.set(JAVA_LONG, 0, id);
                    m.asSlice(m.byteSize() - 8).set(JAVA_LONG_UNALIGNED, 0, ~id);
                    held.add(m);
                }
            } else if (!held.isEmpty()) {
                MemorySegment m = held.remove(random.nextInt(held.size()));
                assertEquals(id, m.get(JAVA_LONG, 0));
                assertEquals(~id, m.asSlice(m.byteSize() - 8).get(JAVA_LONG_UNALIGNED, 0));
                alloc.free(m);
            }
        }
        held.forEach(alloc::free);
        return null;
    }

    private static void assertMessage(Runnable r, String part) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertNotNull(e.getMessage());
        assertTrue(e.getMessage().contains(part), "message '" + e.getMessage() + "' should say '" + part + "'");
    }

    private static long residentBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("no VmRSS in /proc/self/status");
    }
}
