package org.hpio.archive.cache.policy;

/**
 * Landlord with the minimum credit density cached (002 §3.5.3 improvement 2, "Landlord_Cached", the paper's
 * default after §4.5): the rent pass computes the next minimum on the side, so the next eviction needs no
 * search. Adds keep the cached minimum up to date; a hit on the minimum item, an explicit removal of it, or an
 * eviction of an item whose credit was already zero invalidates it, and the next eviction searches again.
 * Evicts exactly what {@link LandlordNaivePolicy} evicts (see its design note) with one pass instead of two.
 */
final class LandlordCachedPolicy extends ArrayLandlordPolicy {
    /** Index of the item of minimum credit density, or -1 when unknown. */
    private int minIndex = -1;

    LandlordCachedPolicy(boolean reciprocal) {
        super(reciprocal, "landlord-cached");
    }

    @Override
    void added(int index) {
        if (items.count == 1 || minIndex >= 0 && items.density(index) < items.density(minIndex)) {
            minIndex = index;
        }
    }

    @Override
    void touched(int index) {
        if (index == minIndex) {
            minIndex = -1;
        }
    }

    @Override
    void removed(int index, int last) {
        if (index == minIndex) {
            minIndex = -1;
        } else if (minIndex == last) {
            minIndex = index;
        }
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
        minIndex = next; // removed() moves it along if it was the last item
        return removeAt(victim);
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
}
