package org.hpio.archive.simulation;

import org.hpio.archive.cache.policy.Policies;

/**
 * A cache policy at a size, as a factory of fresh simulations: ordering (002 §3.3.3) and seek counting
 * (002 §4.3) start one simulation per sequence of loads they replay. Another policy (Landlord, 002 §3.5.3)
 * plugs in by implementing this one method.
 */
@FunctionalInterface
public interface FileCacheModel {
    /** A new, empty cache simulation. */
    FileCacheSimulation start();

    /** No file cache: every load is read. */
    static FileCacheModel none() {
        return () -> (path, size) -> false;
    }

    /**
     * A least-recently-used cache of {@code capacityBytes} (0: no cache), the baseline of 002 §4.4: the
     * registered {@code lru} policy run by a {@link PolicyCache}, as the cache simulations run it.
     */
    static FileCacheModel lru(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("cache capacity must be >= 0 bytes, was " + capacityBytes);
        }
        return capacityBytes == 0 ? none() : PolicyCache.model(Policies.require(Policies.LRU), capacityBytes);
    }
}
