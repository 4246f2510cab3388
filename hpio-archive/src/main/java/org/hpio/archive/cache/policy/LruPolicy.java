package org.hpio.archive.cache.policy;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Least Recently Used, the baseline of 002 §4.4: evicts the file whose last access is the oldest. Ignores sizes
 * and costs (Landlord with every credit reset to the same value on each access behaves the same, 002 §3.5.3).
 * hpio's one LRU: the file cache's {@code lru} policy, and the simulated LRU cache of seek counting and ordering
 * ({@code FileCacheModel.lru}, this policy run by {@code PolicyCache}).
 */
final class LruPolicy implements EvictionPolicy {
    private final LinkedHashMap<String, Long> order = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;

    @Override
    public void add(String key, long size, double cost) {
        PolicyChecks.checkNew(this, key, size, cost);
        order.put(key, size);
        bytes += size;
    }

    @Override
    public boolean touch(String key) {
        return order.get(key) != null;
    }

    @Override
    public String evict() {
        Iterator<Map.Entry<String, Long>> eldest = order.entrySet().iterator();
        if (!eldest.hasNext()) {
            return null;
        }
        Map.Entry<String, Long> e = eldest.next();
        eldest.remove();
        bytes -= e.getValue();
        return e.getKey();
    }

    @Override
    public boolean remove(String key) {
        Long size = order.remove(key);
        if (size == null) {
            return false;
        }
        bytes -= size;
        return true;
    }

    @Override
    public boolean contains(String key) {
        return order.containsKey(key);
    }

    @Override
    public int count() {
        return order.size();
    }

    @Override
    public long bytes() {
        return bytes;
    }

    @Override
    public String name() {
        return Policies.LRU;
    }
}
