package org.hpio.archive.cache.policy;

/** Argument checks shared by the policies, so that every one refuses bad input with the same message. */
final class PolicyChecks {
    private PolicyChecks() {
    }

    static void checkNew(EvictionPolicy policy, String key, long size, double cost) {
        if (key == null) {
            throw new IllegalArgumentException(policy.name() + ": key must not be null");
        }
        if (size < 0) {
            throw new IllegalArgumentException(policy.name() + ": size of '" + key + "' must be >= 0, was " + size);
        }
        if (!(cost > 0) || !Double.isFinite(cost)) {
            throw new IllegalArgumentException(policy.name() + ": cost of '" + key + "' must be positive and finite, was " + cost);
        }
        if (policy.contains(key)) {
            throw new IllegalArgumentException(policy.name() + ": '" + key + "' is cached already");
        }
    }

    /** Landlord's sizes for density: an empty file counts as one byte, so that its density stays finite. */
    static long densitySize(long size) {
        return Math.max(1, size);
    }
}
