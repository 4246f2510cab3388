package org.hpio.archive.cache;

import org.hpio.archive.alloc.AlignedAllocator;
import org.hpio.archive.cache.policy.Policies;

/**
 * How a {@link FileCache} is set up.
 *
 * @param capacity          bytes of the cache's memory region (reserved at once, committed as used)
 * @param alignment         alignment of every cached file's buffer (a power of two, at least 64)
 * @param policy            registered name of the eviction policy ({@link Policies})
 * @param bypassShare       files larger than this share of the capacity are not cached (0 &lt; share &lt;= 1)
 * @param warnHeldBuffers   a thread holding more buffers than this at once gets one warning
 */
public record FileCacheConfig(long capacity, int alignment, String policy, double bypassShare, int warnHeldBuffers) {
    /** Checks every field; see the record's description for the ranges. */
    public FileCacheConfig {
        if (capacity <= 0) {
            throw new IllegalArgumentException("file cache capacity must be > 0 bytes, was " + capacity);
        }
        if (!(bypassShare > 0 && bypassShare <= 1)) {
            throw new IllegalArgumentException("bypass share must be in (0, 1], was " + bypassShare);
        }
        if (warnHeldBuffers < 1) {
            throw new IllegalArgumentException("warnHeldBuffers must be >= 1, was " + warnHeldBuffers);
        }
        Policies.require(policy);
    }

    /** 4 KiB alignment, the paper's default policy, files over a quarter of the cache bypass it, warn above 16. */
    public static FileCacheConfig of(long capacity) {
        return new FileCacheConfig(capacity, AlignedAllocator.DEFAULT_ALIGNMENT, Policies.DEFAULT, 0.25, 16);
    }

    public FileCacheConfig withPolicy(String name) {
        return new FileCacheConfig(capacity, alignment, name, bypassShare, warnHeldBuffers);
    }

    public FileCacheConfig withBypassShare(double share) {
        return new FileCacheConfig(capacity, alignment, policy, share, warnHeldBuffers);
    }

    public FileCacheConfig withWarnHeldBuffers(int n) {
        return new FileCacheConfig(capacity, alignment, policy, bypassShare, n);
    }

    /** Largest file the cache keeps. */
    public long largestCachedFile() {
        return (long) Math.floor(capacity * bypassShare);
    }
}
