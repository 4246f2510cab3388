package org.hpio.internal.mem;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** BufferPool: buffer size and alignment, reuse, the retained bound, foreign buffers, exclusive ownership. */
class BufferPoolTest {
    @Test
    void buffersArePageAlignedNativeSegmentsOfThePoolSize() {
        BufferPool pool = new BufferPool(64 * 1024, 2);
        assertEquals(64 * 1024, pool.bufferBytes());
        MemorySegment b = pool.acquire();
        assertEquals(64 * 1024, b.byteSize());
        assertTrue(b.isNative());
        assertEquals(0, b.address() % 4096, "page-aligned");
        b.fill((byte) 7); // writable over its whole size
        pool.release(b);
    }

    @Test
    void releasedBuffersAreReused() {
        BufferPool pool = new BufferPool(4096, 4);
        MemorySegment a = pool.acquire();
        pool.release(a);
        assertEquals(a.address(), pool.acquire().address());
    }

    @Test
    void atMostRetainedIdleBuffersAreKept() {
        BufferPool pool = new BufferPool(4096, 2);
        MemorySegment a = pool.acquire();
        MemorySegment b = pool.acquire();
        MemorySegment c = pool.acquire();
        assertEquals(3, Set.of(a.address(), b.address(), c.address()).size(), "three distinct buffers");
        pool.release(a);
        pool.release(b);
        pool.release(c); // one more than retained: dropped
        Set<Long> again = new HashSet<>();
        again.add(pool.acquire().address());
        again.add(pool.acquire().address());
        assertEquals(Set.of(a.address(), b.address()), again);
        MemorySegment fresh = pool.acquire();
        assertNotEquals(c.address(), fresh.address(), "the third buffer was not kept");
        assertFalse(again.contains(fresh.address()));
    }

    @Test
    void foreignSizedBuffersAreRejected() {
        BufferPool pool = new BufferPool(8192, 2);
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalArgumentException.class, () -> pool.release(arena.allocate(4096)));
            assertThrows(IllegalArgumentException.class, () -> pool.release(arena.allocate(8193)));
        }
        MemorySegment other = new BufferPool(4096, 2).acquire();
        assertThrows(IllegalArgumentException.class, () -> pool.release(other));
        assertThrows(IllegalArgumentException.class, () -> pool.release(pool.acquire().asSlice(0, 100)));
        // The rejected buffers were not pooled: the next acquire gives a full-size buffer.
        assertEquals(8192, pool.acquire().byteSize());
    }

    /** Many threads acquire, fill with their own mark, check it, release: no buffer has two owners at once. */
    @Test
    void eachBufferHasOneOwnerAtATime() throws Exception {
        BufferPool pool = new BufferPool(4096, 3);
        int threads = 8;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long mark = 0x0101010101010101L * (t + 1);
                futures.add(executor.submit(() -> {
                    start.await();
                    for (int i = 0; i < 3000; i++) {
                        MemorySegment b = pool.acquire();
                        b.fill((byte) mark);
                        Thread.yield();
                        for (long at = 0; at < b.byteSize(); at += 512) {
                            if (b.get(ValueLayout.JAVA_LONG_UNALIGNED, at) != mark) {
                                throw new AssertionError("buffer shared between two owners");
                            }
                        }
                        pool.release(b);
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
    }
}
