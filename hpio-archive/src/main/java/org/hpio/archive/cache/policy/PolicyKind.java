package org.hpio.archive.cache.policy;

import java.util.function.Supplier;

/**
 * A registered eviction policy: its name (as the CLI and reports spell it), one line saying what it is, and a
 * factory of fresh instances.
 */
public record PolicyKind(String name, String summary, Supplier<EvictionPolicy> factory) {
    /** A new, empty instance. */
    public EvictionPolicy create() {
        return factory.get();
    }
}
