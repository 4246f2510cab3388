package org.hpio.internal.mem;

import org.hpio.internal.sys.NativeAccess;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * MemoryPool: power-of-two classes from 4 KiB, page alignment, reuse, the per-class and the total idle bound,
 * sizes above the largest class, scoped views (and none with native calls off: {@code NativeAccessDeniedTest}
 * runs this class in a child JVM with native access denied).
 */
class MemoryPoolTest {
    private static final long MIB = 1 << 20;

    @Test
    void sizesAreRoundedUpToPageAlignedPowerOfTwoClassesFrom4KiB() {
        MemoryPool pool = new MemoryPool(MIB, MemoryPool.IdleBound.total(MIB));
        long[][] cases = {{0, 4096}, {1, 4096}, {4096, 4096}, {4097, 8192}, {300_000, 512 << 10}, {MIB, MIB}};
        for (long[] c : cases) {
            MemorySegment m = pool.take(c[0]);
            assertEquals(c[1], m.byteSize(), "take(" + c[0] + ")");
            assertEquals(c[1], pool.capacityFor(c[0]), "capacityFor(" + c[0] + ")");
            assertEquals(0, m.address() % MemoryPool.ALIGNMENT, "page-aligned");
            assertTrue(pool.pools(c[0]));
            m.fill((byte) 7); // writable over its whole size
            pool.give(m);
        }
    }

    @Test
    void givenBackMemoryIsReusedForAnySizeOfItsClass() {
        MemoryPool pool = new MemoryPool(MIB, MemoryPool.IdleBound.total(MIB));
        MemorySegment a = pool.take(5000);
        pool.give(a);
        assertEquals(a.address(), pool.take(8000).address());
    }

    @Test
    void eachClassKeepsItsBytesOrItsBuffersWhicheverIsMore() {
        MemoryPool.IdleBound staging = MemoryPool.IdleBound.perClass(256 << 10, 4);
        assertEquals(64, staging.buffersOf(4096));
        assertEquals(4, staging.buffersOf(64 << 10));
        assertEquals(4, staging.buffersOf(MIB));
        MemoryPool pool = new MemoryPool(MIB, MemoryPool.IdleBound.perClass(8192, 1));
        MemorySegment a = pool.take(4096);
        MemorySegment b = pool.take(4096);
        MemorySegment c = pool.take(4096);
        pool.give(a);
        pool.give(b);
        pool.give(c); // a third 4 KiB buffer is over the class's 8 KiB: dropped
        Set<Long> again = Set.of(pool.take(1).address(), pool.take(1).address());
        assertEquals(Set.of(a.address(), b.address()), again);
        assertNotEquals(c.address(), pool.take(1).address(), "the third buffer was not kept");
    }

    @Test
    void theIdleBytesOfAllClassesStayWithinTheTotalBound() {
        MemoryPool pool = new MemoryPool(MIB, MemoryPool.IdleBound.total(16 << 10));
        MemorySegment a = pool.take(4096);
        MemorySegment b = pool.take(4096);
        MemorySegment c = pool.take(8192);
        MemorySegment d = pool.take(4096);
        pool.give(a);
        pool.give(b);
        pool.give(c);
        assertEquals(16 << 10, pool.idleBytes());
        pool.give(d); // over the bound: dropped
        assertEquals(16 << 10, pool.idleBytes());
        assertEquals(c.address(), pool.take(8192).address());
        assertEquals(8 << 10, pool.idleBytes());
    }

    @Test
    void sizesAboveTheLargestClassAreExactAndNotKept() {
        MemoryPool pool = new MemoryPool(MIB, MemoryPool.IdleBound.total(64 * MIB));
        assertFalse(pool.pools(MIB + 1));
        assertEquals(MIB + 1, pool.capacityFor(MIB + 1));
        MemorySegment big = pool.take(MIB + 1);
        assertEquals(MIB + 1, big.byteSize());
        assertEquals(0, big.address() % MemoryPool.ALIGNMENT);
        pool.give(big);
        pool.give(pool.take(2 * MIB)); // a power of two, but above the largest class
        try (Arena arena = Arena.ofConfined()) {
            pool.give(arena.allocate(3000)); // not a class size
        }
        assertEquals(0, pool.idleBytes());
    }

    @Test
    void theLargestClassMustBeAPowerOfTwoFrom4KiB() {
        assertThrows(IllegalArgumentException.class, () -> new MemoryPool(3 * 4096, MemoryPool.IdleBound.total(0)));
        assertThrows(IllegalArgumentException.class, () -> new MemoryPool(2048, MemoryPool.IdleBound.total(0)));
    }

    @Test
    void aScopedViewGoesBackToThePoolWhenItsArenaCloses() {
        assumeTrue(NativeAccess.available(), "native calls are off: scoped views are not recycled");
        MemoryPool pool = new MemoryPool(MIB, MemoryPool.IdleBound.total(MIB));
        MemorySegment view;
        try (Arena arena = Arena.ofConfined()) {
            view = pool.scoped(arena, 10_000, 512);
            assertEquals(10_000, view.byteSize());
            assertEquals(0, view.address() % MemoryPool.ALIGNMENT);
            assertEquals(0, pool.idleBytes());
        }
        assertThrows(IllegalStateException.class, () -> view.get(ValueLayout.JAVA_BYTE, 0));
        assertEquals(16 << 10, pool.idleBytes());
        assertEquals(view.address(), pool.take(10_000).address());
    }

    @Test
    void smallScopedMemoryComesFromTheArena() {
        MemoryPool pool = new MemoryPool(MIB, MemoryPool.IdleBound.total(MIB));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment small = pool.scoped(arena, 100, 512);
            assertEquals(100, small.byteSize());
            assertEquals(0, small.address() % 512);
        }
        assertEquals(0, pool.idleBytes());
    }

    @Test
    void withNativeCallsOffScopedMemoryIsFreshAndNotRecycled() {
        assumeFalse(NativeAccess.available(), "native calls are on: scoped views are recycled");
        MemoryPool pool = new MemoryPool(MIB, MemoryPool.IdleBound.total(MIB));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = pool.scoped(arena, 10_000, 512);
            assertEquals(10_000, m.byteSize());
            assertEquals(0, m.address() % 512);
        }
        assertEquals(0, pool.idleBytes());
    }

    /** Threads take and give sizes of every class at once: the total bound holds and no buffer has two owners. */
    @Test
    void manyThreadsShareThePoolWithinItsBound() throws Exception {
        long bound = 64 << 10;
        MemoryPool pool = new MemoryPool(64 << 10, MemoryPool.IdleBound.total(bound));
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                byte mark = (byte) (t + 1);
                futures.add(executor.submit(() -> {
                    for (int i = 0; i < 2000; i++) {
                        MemorySegment m = pool.take(ThreadLocalRandom.current().nextLong(1, 64 << 10));
                        m.fill(mark);
                        Thread.yield();
                        for (long at = 0; at < m.byteSize(); at += 1024) {
                            if (m.get(ValueLayout.JAVA_BYTE, at) != mark) {
                                throw new AssertionError("memory shared between two owners");
                            }
                        }
                        pool.give(m);
                        assertTrue(pool.idleBytes() <= bound + 4 * (64 << 10), "bound, give or take a refused add");
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            executor.shutdownNow();
        }
        assertTrue(pool.idleBytes() <= bound, "idle " + pool.idleBytes());
        assertNotEquals(0, pool.idleBytes());
    }
}
