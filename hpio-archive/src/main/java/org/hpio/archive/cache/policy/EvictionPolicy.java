package org.hpio.archive.cache.policy;

/**
 * Decides which cached file leaves the cache when room is needed (002 §3.5.3, the cache manager's policy).
 *
 * <p>The policy only keeps accounts: keys with their sizes and costs. The caller (the runtime cache,
 * {@code org.hpio.archive.cache.FileCache}, or a simulated one, {@code org.hpio.archive.simulation.PolicyCache})
 * owns the capacity: before adding a file of {@code size} bytes it calls {@link #evict()} while
 * {@code capacity - bytes() < size}. Every implementation passes {@code EvictionPolicyContractTest} and has one
 * registration in {@link Policies}. Not thread-safe: the owning cache serializes calls.
 */
public interface EvictionPolicy {
    /**
     * Adds {@code key} (which must be absent) with its size in bytes (&gt;= 0) and its cost of loading (&gt; 0,
     * finite: a load time or a caller's hint; 1 for all files makes the policy maximize the hit count).
     *
     * @throws IllegalArgumentException if the key is present or size/cost is out of range (nothing changes)
     */
    void add(String key, long size, double cost);

    /** Records a hit on {@code key}; false (and nothing changes) if the key is absent. */
    boolean touch(String key);

    /** Chooses a victim, removes it and returns its key; null if nothing is cached. */
    String evict();

    /** Removes {@code key} without any charge to the others; false if it was absent. */
    boolean remove(String key);

    boolean contains(String key);

    /** Number of keys held. */
    int count();

    /** Sum of the sizes of the keys held. */
    long bytes();

    /** The name it is registered under in {@link Policies}. */
    String name();
}
