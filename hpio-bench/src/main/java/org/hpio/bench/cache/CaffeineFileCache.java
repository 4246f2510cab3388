package org.hpio.bench.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.archive.simulation.FileCacheSimulation;

/**
 * Caffeine (size-weighted W-TinyLFU: {@code maximumWeight} with each file weighing its size) as a simulated
 * whole-file cache: the cache a Java developer would pick today, beside 002's Landlord and LRU.
 *
 * <p>Caffeine evicts asynchronously on its executor; here maintenance runs on the calling thread
 * ({@code executor(Runnable::run)}) and {@code cleanUp()} follows every insertion, so a replay is deterministic.
 * Caffeine's admission filter may refuse a new file, which then simply is not cached. A file over 2 GiB weighs
 * {@code Integer.MAX_VALUE}. Not thread-safe as a simulation (one replay, one thread).
 */
public final class CaffeineFileCache implements FileCacheSimulation {
    /** The name the simulator and its reports use. */
    public static final String NAME = "caffeine";

    private final Cache<String, Long> cache;

    public CaffeineFileCache(long capacity) {
        this.cache = Caffeine.newBuilder()
                .maximumWeight(capacity)
                .weigher((String path, Long size) -> (int) Math.min(size, Integer.MAX_VALUE))
                .executor(Runnable::run)
                .build();
    }

    /** A factory of fresh caches of {@code capacity} bytes. */
    public static FileCacheModel model(long capacity) {
        return () -> new CaffeineFileCache(capacity);
    }

    @Override
    public boolean load(String path, long size) {
        if (cache.getIfPresent(path) != null) {
            return true;
        }
        cache.put(path, size);
        cache.cleanUp();
        return false;
    }

    /** Bytes the cached files weigh now. */
    public long weightedSize() {
        return cache.policy().eviction().orElseThrow().weightedSize().orElse(0);
    }
}
