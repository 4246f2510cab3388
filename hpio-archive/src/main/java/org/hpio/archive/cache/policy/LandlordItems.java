package org.hpio.archive.cache.policy;

import java.util.Arrays;
import java.util.HashMap;

/**
 * The cached items of the array-based Landlord variants, one array per field (002 §3.5.3: "an array-based hash
 * table will perform much better than a tree"; loops over all items then stream through memory). Removal moves
 * the last item into the hole. With {@code reciprocal}, each item also keeps 1/size, so that a credit density is
 * a multiplication instead of a division (002 §3.5.3 improvement 1), at 8 more bytes per item.
 */
final class LandlordItems {
    private final HashMap<String, Integer> index = new HashMap<>();
    private final boolean reciprocal;
    String[] keys = new String[16];
    long[] sizes = new long[16];
    double[] credits = new double[16];
    double[] costs = new double[16];
    double[] inverseSizes;
    int count;
    long bytes;

    LandlordItems(boolean reciprocal) {
        this.reciprocal = reciprocal;
        this.inverseSizes = reciprocal ? new double[16] : null;
    }

    /** Credit per byte of item {@code i}. */
    double density(int i) {
        return reciprocal ? credits[i] * inverseSizes[i] : credits[i] / PolicyChecks.densitySize(sizes[i]);
    }

    /** Index of {@code key}, or -1. */
    int indexOf(String key) {
        Integer i = index.get(key);
        return i == null ? -1 : i;
    }

    /** Appends an item whose credit starts at its cost; returns its index. */
    int add(String key, long size, double cost) {
        if (count == keys.length) {
            grow();
        }
        int i = count++;
        keys[i] = key;
        sizes[i] = size;
        costs[i] = cost;
        credits[i] = cost;
        if (reciprocal) {
            inverseSizes[i] = 1.0 / PolicyChecks.densitySize(size);
        }
        index.put(key, i);
        bytes += size;
        return i;
    }

    /** Removes item {@code i}: the last item moves to {@code i}. Returns the removed key. */
    String removeAt(int i) {
        String key = keys[i];
        index.remove(key);
        bytes -= sizes[i];
        int last = --count;
        if (i != last) {
            keys[i] = keys[last];
            sizes[i] = sizes[last];
            costs[i] = costs[last];
            credits[i] = credits[last];
            if (reciprocal) {
                inverseSizes[i] = inverseSizes[last];
            }
            index.put(keys[i], i);
        }
        keys[last] = null;
        return key;
    }

    /** Charges every item rent of {@code perByte} per byte of its size (Figure 1, line 11), never below zero. */
    void chargeAll(double perByte) {
        for (int i = 0; i < count; i++) {
            credits[i] = Math.max(0, credits[i] - perByte * PolicyChecks.densitySize(sizes[i]));
        }
    }

    /** Index of the item of minimum credit density (Figure 1, line 9); -1 if empty. */
    int minDensityIndex() {
        int min = -1;
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < count; i++) {
            double d = density(i);
            if (d < best) {
                best = d;
                min = i;
            }
        }
        return min;
    }

    private void grow() {
        int n = keys.length * 2;
        keys = Arrays.copyOf(keys, n);
        sizes = Arrays.copyOf(sizes, n);
        credits = Arrays.copyOf(credits, n);
        costs = Arrays.copyOf(costs, n);
        if (reciprocal) {
            inverseSizes = Arrays.copyOf(inverseSizes, n);
        }
    }
}
