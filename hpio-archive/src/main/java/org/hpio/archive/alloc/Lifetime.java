package org.hpio.archive.alloc;

/**
 * A caller's hint of how long a region will live (002 §3.5.1, "lifetime hints"): holes open where short-lived
 * regions are freed between long-lived ones, so the allocator places the two kinds at opposite ends of the region.
 */
public enum Lifetime {
    /** The usual case, e.g. a cached file that the cache may evict: placed from the low end up. */
    NORMAL,
    /** Expected to outlive most other regions (a file pinned for the whole run): placed from the high end down. */
    LONG
}
