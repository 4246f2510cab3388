package org.hpio.archive.cache.policy;

/**
 * What the two array-based Landlord variants ({@link LandlordNaivePolicy}, {@link LandlordCachedPolicy}) share:
 * the items ({@link LandlordItems}) and the bookkeeping around them. Subclasses choose the victim; they hear of
 * every change to the items through the hooks, to keep whatever they cache about them valid.
 */
abstract class ArrayLandlordPolicy implements EvictionPolicy {
    final LandlordItems items;
    private final String name;

    ArrayLandlordPolicy(boolean reciprocal, String baseName) {
        this.items = new LandlordItems(reciprocal);
        this.name = reciprocal ? baseName + "-recip" : baseName;
    }

    /** Item {@code index} was just appended. */
    void added(int index) {
    }

    /** Item {@code index}'s credit was just restored to its cost. */
    void touched(int index) {
    }

    /** Item {@code index} was removed and the item that was last ({@code last}) moved into its place. */
    void removed(int index, int last) {
    }

    @Override
    public final void add(String key, long size, double cost) {
        PolicyChecks.checkNew(this, key, size, cost);
        added(items.add(key, size, cost));
    }

    /** Figure 1, line 3, "increase item.credit": back to the file's cost, the most Young's Landlord allows. */
    @Override
    public final boolean touch(String key) {
        int i = items.indexOf(key);
        if (i < 0) {
            return false;
        }
        items.credits[i] = items.costs[i];
        touched(i);
        return true;
    }

    @Override
    public final boolean remove(String key) {
        int i = items.indexOf(key);
        if (i < 0) {
            return false;
        }
        removeAt(i);
        return true;
    }

    /** Removes item {@code i}, telling the subclass; returns its key. */
    final String removeAt(int i) {
        int last = items.count - 1;
        String key = items.removeAt(i);
        removed(i, last);
        return key;
    }

    @Override
    public final boolean contains(String key) {
        return items.indexOf(key) >= 0;
    }

    @Override
    public final int count() {
        return items.count;
    }

    @Override
    public final long bytes() {
        return items.bytes;
    }

    @Override
    public final String name() {
        return name;
    }
}
