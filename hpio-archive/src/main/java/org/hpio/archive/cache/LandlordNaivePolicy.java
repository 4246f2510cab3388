package org.hpio.archive.cache;

/**
 * Landlord as in 002 Figure 1, the naive version: every eviction makes two passes over all items.
 *
 * <p>Design note (Young's Landlord, 002 §2.1 and §3.5.3, Figure 1): each file holds credit, set to its cost when
 * it enters and reset to its cost on every hit ("increase item.credit": Young allows any value up to the cost).
 * To make room, the minimum credit density (credit per byte) over the cache is found (line 9), every item is
 * charged rent of that density times its size (line 11), and an item whose credit reached zero leaves (line 12);
 * ties leave one by one, the next eviction takes them without charging again. O(n) per eviction. With
 * {@code reciprocal}, densities multiply by a stored 1/size (002 §3.5.3 improvement 1; §4.5 measured it 1.4 %
 * slower here because the items grow).
 */
final class LandlordNaivePolicy implements EvictionPolicy {
    private final LandlordItems items;
    private final String name;

    LandlordNaivePolicy(boolean reciprocal) {
        this.items = new LandlordItems(reciprocal);
        this.name = reciprocal ? "landlord-naive-recip" : "landlord-naive";
    }

    @Override
    public void add(String key, long size, double cost) {
        PolicyChecks.checkNew(this, key, size, cost);
        items.add(key, size, cost);
    }

    @Override
    public boolean touch(String key) {
        int i = items.indexOf(key);
        if (i < 0) {
            return false;
        }
        items.credits[i] = items.costs[i];
        return true;
    }

    @Override
    public String evict() {
        int victim = items.minDensityIndex();
        if (victim < 0) {
            return null;
        }
        double minDensity = items.density(victim);
        if (minDensity > 0) {
            items.chargeAll(minDensity);
        }
        items.credits[victim] = 0;
        return items.removeAt(victim);
    }

    @Override
    public boolean remove(String key) {
        int i = items.indexOf(key);
        if (i < 0) {
            return false;
        }
        items.removeAt(i);
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
