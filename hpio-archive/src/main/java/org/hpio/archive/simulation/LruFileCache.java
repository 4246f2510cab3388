package org.hpio.archive.simulation;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A simulated least-recently-used whole-file cache of a fixed capacity in bytes (the baseline policy of
 * 002 §4.4). A load that misses evicts the least recently loaded files until the new one fits; a file larger
 * than the whole cache is read and not kept. Not thread-safe.
 */
public final class LruFileCache implements FileCacheSimulation {
    private final long capacityBytes;
    private final LinkedHashMap<String, Long> sizes = new LinkedHashMap<>(16, 0.75f, true);
    private long usedBytes;

    /** An empty cache of {@code capacityBytes} (positive). */
    public LruFileCache(long capacityBytes) {
        if (capacityBytes <= 0) {
            throw new IllegalArgumentException("LRU cache capacity must be > 0 bytes, was " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
    }

    @Override
    public boolean load(String path, long size) {
        if (sizes.get(path) != null) {
            return true;
        }
        if (size <= capacityBytes) {
            evictUntilFree(size);
            sizes.put(path, size);
            usedBytes += size;
        }
        return false;
    }

    private void evictUntilFree(long size) {
        Iterator<Map.Entry<String, Long>> leastRecentFirst = sizes.entrySet().iterator();
        while (capacityBytes - usedBytes < size) {
            usedBytes -= leastRecentFirst.next().getValue();
            leastRecentFirst.remove();
        }
    }

    /** The bytes the cached files take. */
    public long usedBytes() {
        return usedBytes;
    }
}
