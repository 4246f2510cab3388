package org.hpio.archive.cache;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FileCacheTest {
    private static final int K = 4096;

    /** Fills a file's memory with its name's hash, so a view can be checked. Counts loads. */
    private static final class PatternLoader implements FileCache.Loader {
        final AtomicInteger loads = new AtomicInteger();

        @Override
        public void load(String path, MemorySegment destination) {
            loads.incrementAndGet();
            destination.fill((byte) path.hashCode());
        }
    }

    @Test
    void aHitReturnsTheSameReadOnlyMemoryWithoutLoadingAgain() throws IOException {
        PatternLoader loader = new PatternLoader();
        try (FileCache cache = new FileCache(FileCacheConfig.of(64 * K))) {
            MemorySegment a = cache.get("a", 5000, loader);
            MemorySegment b = cache.get("a", 5000, loader);
            assertEquals(a.address(), b.address());
            assertEquals(5000, a.byteSize());
            assertTrue(a.isReadOnly());
            assertEquals(0, a.address() % K);
            assertThrows(IllegalArgumentException.class, () -> a.set(JAVA_BYTE, 0, (byte) 1));
            assertEquals(1, loader.loads.get());
            assertEquals((byte) "a".hashCode(), b.get(JAVA_BYTE, 4999));
            cache.release(a);
            cache.release(b);
            FileCacheStats s = cache.stats();
            assertEquals(1, s.hits());
            assertEquals(1, s.misses());
            assertEquals(0, s.heldBuffers());
            assertEquals(1, s.cachedFiles());
        }
    }

    @Test
    void memoryReturnsOnlyWhenReleasedAndEvicted() throws IOException {
        PatternLoader loader = new PatternLoader();
        FileCacheConfig config = FileCacheConfig.of(4 * K).withBypassShare(1);
        try (FileCache cache = new FileCache(config)) {
            MemorySegment held = cache.get("held", 2 * K, 1, loader);
            cache.release(cache.get("other", 2 * K, 5, loader));
            // big evicts held (cheapest) while a user holds it, then other; held's memory stays taken, so big
            // cannot have 3 contiguous granules and is loaded outside the cache.
            MemorySegment big = cache.get("big", 3 * K, 5, loader);
            assertFalse(cache.contains("held"));
            assertFalse(cache.contains("big"));
            assertEquals((byte) "held".hashCode(), held.get(JAVA_BYTE, 2 * K - 1)); // still valid, not reused
            assertEquals(2L * K, cache.stats().allocator().allocatedBytes(), "held memory not freed yet");
            cache.release(held);
            assertEquals(0, cache.stats().allocator().allocatedBytes(), "released and evicted: freed");
            cache.release(big);
            cache.release(cache.get("big", 3 * K, 5, loader));
            assertTrue(cache.contains("big"));
        }
    }

    @Test
    void doubleAndForeignReleasesAreRefused() throws IOException {
        try (FileCache cache = new FileCache(FileCacheConfig.of(16 * K)); Arena arena = Arena.ofConfined()) {
            MemorySegment a = cache.get("a", 100, new PatternLoader());
            cache.release(a);
            IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> cache.release(a));
            assertTrue(twice.getMessage().contains("released already"), twice.getMessage());
            assertThrows(IllegalArgumentException.class, () -> cache.release(arena.allocate(100)));
            assertEquals(0, cache.stats().heldBuffers());
        }
    }

    @Test
    void aUserHoldingTooManyBuffersIsWarnedOnce() throws IOException {
        List<String> warnings = new ArrayList<>();
        FileCacheConfig config = FileCacheConfig.of(64 * K).withWarnHeldBuffers(2);
        try (FileCache cache = new FileCache(config, warnings::add)) {
            List<MemorySegment> held = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                held.add(cache.get("f" + i, 10, new PatternLoader()));
            }
            assertEquals(1, warnings.size());
            assertTrue(warnings.getFirst().contains("holds 3 file buffers"), warnings.getFirst());
            held.forEach(cache::release);
        }
    }

    @Test
    void largeFilesBypassTheCacheAndAreFreedAtRelease() throws IOException {
        try (FileCache cache = new FileCache(FileCacheConfig.of(16 * K))) { // bypass above 4 KiB
            MemorySegment big = cache.get("big", 5 * K, new PatternLoader());
            assertFalse(cache.contains("big"));
            assertEquals(1, cache.stats().bypassed());
            assertEquals(0, cache.stats().allocator().allocatedBytes());
            cache.release(big);
            assertThrows(IllegalStateException.class, () -> big.get(JAVA_BYTE, 0));
            MemorySegment empty = cache.get("empty", 0, new PatternLoader());
            assertEquals(0, empty.byteSize());
            cache.release(empty);
        }
    }

    @Test
    void aFailedLoadCachesNothingAndFreesItsMemory() throws IOException {
        try (FileCache cache = new FileCache(FileCacheConfig.of(16 * K))) {
            IOException e = assertThrows(IOException.class,
                    () -> cache.get("bad", 100, (p, d) -> { throw new IOException("disk on fire"); }));
            assertEquals("disk on fire", e.getMessage());
            assertFalse(cache.contains("bad"));
            assertEquals(0, cache.stats().allocator().allocatedBytes());
            cache.release(cache.get("bad", 100, new PatternLoader())); // a later attempt loads it
            assertTrue(cache.contains("bad"));
        }
    }

    @Test
    void readsRealFiles(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("f.bin");
        byte[] data = new byte[10_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31);
        }
        Files.write(f, data);
        try (FileCache cache = new FileCache(FileCacheConfig.of(64 * K))) {
            MemorySegment v = cache.get(f);
            assertArrayEquals(data, v.toArray(JAVA_BYTE));
            cache.release(v);
        }
    }

    @Test
    void concurrentGetsOfOneFileLoadItOnce() throws Exception {
        PatternLoader counting = new PatternLoader();
        CountDownLatch start = new CountDownLatch(1);
        FileCache.Loader slow = (p, d) -> {
            try {
                start.await();
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            counting.load(p, d);
        };
        try (FileCache cache = new FileCache(FileCacheConfig.of(64 * K)); ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<MemorySegment>> got = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                got.add(pool.submit(() -> cache.get("shared", 3000, slow)));
            }
            Thread.sleep(100);
            start.countDown();
            long address = got.getFirst().get().address();
            for (Future<MemorySegment> f : got) {
                assertEquals(address, f.get().address());
                cache.release(f.get());
            }
            assertEquals(1, counting.loads.get());
            assertEquals(0, cache.stats().heldBuffers());
        }
    }
}
