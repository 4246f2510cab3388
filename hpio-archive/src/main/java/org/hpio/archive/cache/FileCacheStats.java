package org.hpio.archive.cache;

import org.hpio.archive.alloc.AllocatorStats;

/**
 * A snapshot of a {@link FileCache}.
 *
 * @param hits            loads served from the cache
 * @param misses          loads that read the file (including bypassed ones)
 * @param bypassed        loads of files too large to cache (002 §3.5: the "configured share")
 * @param evictions       files the policy evicted
 * @param cachedFiles     files the cache holds now
 * @param cachedBytes     their sizes rounded up to the alignment, as the policy accounts them
 * @param heldBuffers     buffers users hold now (the extant list)
 * @param allocator       the allocator's memory use (waste: {@link AllocatorStats#waste()})
 */
public record FileCacheStats(long hits, long misses, long bypassed, long evictions, int cachedFiles, long cachedBytes,
                             int heldBuffers, AllocatorStats allocator) {
}
