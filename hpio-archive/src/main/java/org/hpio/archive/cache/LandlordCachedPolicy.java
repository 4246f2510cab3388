package org.hpio.archive.cache;

/**
 * Landlord with the minimum credit density cached (002 §3.5.3 improvement 2, "Landlord_Cached", the paper's
 * default after §4.5): the rent pass computes the next minimum on the side, so the next eviction needs no
 * search. Adds keep the cached minimum up to date; a hit on the minimum item, an explicit removal of it, or an
 * eviction of an item whose credit was already zero invalidates it, and the next eviction searches again.
 * Evicts exactly what {@link LandlordNaivePolicy} evicts (see its design note) with one pass instead of two.
 */
final class LandlordCachedPolicy implements EvictionPolicy {
    private final LandlordItems items;
    private final String name;
    /** Index of the item of minimum credit density, or -1 when unknown. */
    private int minIndex = -1;

    LandlordCachedPolicy(boolean reciprocal) {
        this.items = new LandlordItems(reciprocal);
        this.name = reciprocal ? "landlord-cached-recip" : "landlord-cached";
    }

    @Override
    public void add(String key, long size, double cost) {
        PolicyChecks.checkNew(this, key, size, cost);
        boolean wasEmpty = items.count == 0;
        int i = items.add(key, size, cost);
        if (wasEmpty || minIndex >= 0 && items.density(i) < items.density(minIndex)) {
            minIndex = i;
        }
    }

    @Override
    public boolean touch(String key) {
        int i = items.indexOf(key);
        if (i < 0) {
            return false;
        }
        items.credits[i] = items.costs[i];
        if (i == minIndex) {
            minIndex = -1;
        }
        return true;
    }

    @Override
    public String evict() {
        if (items.count == 0) {
            return null;
        }
        int victim = minIndex >= 0 ? minIndex : items.minDensityIndex();
        double minDensity = items.density(victim);
        int next = minDensity > 0 ? chargeAndFindNext(minDensity, victim) : -1;
        items.credits[victim] = 0;
        int last = items.count - 1;
        String key = items.removeAt(victim);
        minIndex = next == last ? victim : next;
        return key;
    }

    /** One pass: charges rent (Figure 1, line 11) and finds the minimum density among the items but the victim. */
    private int chargeAndFindNext(double perByte, int victim) {
        double[] credits = items.credits;
        long[] sizes = items.sizes;
        int next = -1;
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < items.count; i++) {
            credits[i] = Math.max(0, credits[i] - perByte * PolicyChecks.densitySize(sizes[i]));
            if (i != victim) {
                double d = items.density(i);
                if (d < best) {
                    best = d;
                    next = i;
                }
            }
        }
        return next;
    }

    @Override
    public boolean remove(String key) {
        int i = items.indexOf(key);
        if (i < 0) {
            return false;
        }
        int last = items.count - 1;
        items.removeAt(i);
        if (i == minIndex) {
            minIndex = -1;
        } else if (minIndex == last) {
            minIndex = i;
        }
        return true;
    }

    @Override
    public boolean contains(String key) {
        return items.indexOf(key) >= 0;
    }

    @Override
    public int count() {
        return items.count;
    }

    @Override
    public long bytes() {
        return items.bytes;
    }

    @Override
    public String name() {
        return name;
    }
}
