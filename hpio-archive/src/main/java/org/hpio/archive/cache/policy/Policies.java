package org.hpio.archive.cache.policy;

import java.util.List;
import java.util.Optional;

/** The registry of eviction policies: one line per policy variant. */
public final class Policies {
    /** The paper's default (002 §4.5: Landlord_Cached performs best there and needs less memory than Lazy). */
    public static final String DEFAULT = "landlord-cached";
    /** Least recently used, the baseline of 002 §4.4. */
    public static final String LRU = "lru";

    private static final List<PolicyKind> ALL = List.of(
            new PolicyKind(LRU, "least recently used (002 §4.4 baseline)", LruPolicy::new),
            new PolicyKind("landlord-naive", "Landlord, Figure 1: two passes per eviction",
                    () -> new LandlordNaivePolicy(false)),
            new PolicyKind("landlord-naive-recip", "landlord-naive, dividing by multiplying with 1/size",
                    () -> new LandlordNaivePolicy(true)),
            new PolicyKind("landlord-cached", "Landlord_Cached: minimum credit density kept, one pass per eviction",
                    () -> new LandlordCachedPolicy(false)),
            new PolicyKind("landlord-cached-recip", "landlord-cached, dividing by multiplying with 1/size",
                    () -> new LandlordCachedPolicy(true)),
            new PolicyKind("landlord-lazy", "Landlord_Lazy: indexed heap and pending rent, O(log n) per operation",
                    () -> new LandlordLazyPolicy(false)),
            new PolicyKind("landlord-lazy-recip", "landlord-lazy, dividing by multiplying with 1/size",
                    () -> new LandlordLazyPolicy(true)));

    private Policies() {
    }

    public static List<PolicyKind> all() {
        return ALL;
    }

    public static Optional<PolicyKind> byName(String name) {
        return ALL.stream().filter(k -> k.name().equals(name)).findFirst();
    }

    /** The named policy, or an IllegalArgumentException listing the names there are. */
    public static PolicyKind require(String name) {
        return byName(name).orElseThrow(() -> new IllegalArgumentException("no cache policy named '" + name
                + "'; the policies are: " + String.join(", ", ALL.stream().map(PolicyKind::name).toList())));
    }
}
