package org.hpio.archive.cache.policy;

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
final class LandlordNaivePolicy extends ArrayLandlordPolicy {
    LandlordNaivePolicy(boolean reciprocal) {
        super(reciprocal, "landlord-naive");
    }

    @Override
    public String evict() {
        int victim = items.minDensityIndex(); // line 9
        if (victim < 0) {
            return null;
        }
        double minDensity = items.density(victim);
        if (minDensity > 0) {
            items.chargeAll(minDensity); // line 11
        }
        items.credits[victim] = 0;
        return removeAt(victim); // line 12
    }
}
