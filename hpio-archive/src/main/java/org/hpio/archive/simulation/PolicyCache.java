package org.hpio.archive.simulation;

import org.hpio.archive.cache.policy.EvictionPolicy;
import org.hpio.archive.cache.policy.PolicyKind;

import java.util.Objects;

/**
 * A simulated whole-file cache of a fixed capacity run by any {@link EvictionPolicy}: names and sizes only, no
 * data (002 §4.4 simulates the cache this way). A file costs what the {@link LoadCost} says: by default the same
 * (1) for every file, as in the paper's measurements, which took no cost hints. A file larger than the whole
 * capacity is read and not kept. Not thread-safe.
 */
public final class PolicyCache implements FileCacheSimulation {
    private final long capacity;
    private final EvictionPolicy policy;
    private final LoadCost cost;

    /** An empty cache of {@code capacity} bytes (positive) run by {@code policy} (which it then owns). */
    public PolicyCache(long capacity, EvictionPolicy policy) {
        this(capacity, policy, LoadCost.UNIFORM);
    }

    /** As {@link #PolicyCache(long, EvictionPolicy)}, each file costing {@code cost.of(size)}. */
    public PolicyCache(long capacity, EvictionPolicy policy, LoadCost cost) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("cache capacity must be > 0 bytes, was " + capacity);
        }
        this.capacity = capacity;
        this.policy = policy;
        this.cost = Objects.requireNonNull(cost, "cost");
    }

    /** A factory of fresh caches of {@code capacity} bytes with the registered policy {@code kind}. */
    public static FileCacheModel model(PolicyKind kind, long capacity) {
        return model(kind, capacity, LoadCost.UNIFORM);
    }

    /** As {@link #model(PolicyKind, long)} with files costing what {@code cost} says. */
    public static FileCacheModel model(PolicyKind kind, long capacity, LoadCost cost) {
        return () -> new PolicyCache(capacity, kind.create(), cost);
    }

    @Override
    public boolean load(String path, long size) {
        if (policy.touch(path)) {
            return true;
        }
        if (size <= capacity) {
            while (capacity - policy.bytes() < size) {
                policy.evict();
            }
            policy.add(path, size, cost.of(size));
        }
        return false;
    }

    public EvictionPolicy policy() {
        return policy;
    }

    public long capacity() {
        return capacity;
    }
}
