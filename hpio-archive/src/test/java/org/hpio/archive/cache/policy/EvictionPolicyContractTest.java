package org.hpio.archive.cache.policy;

import org.hpio.archive.simulation.PolicyCache;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The contract every registered eviction policy keeps (one suite, every policy: STYLE.md "Tests are contracts"). */
class EvictionPolicyContractTest {
    static Stream<PolicyKind> policies() {
        return Policies.all().stream();
    }

    @ParameterizedTest
    @MethodSource("policies")
    void keepsAccountsOfWhatItHolds(PolicyKind kind) {
        EvictionPolicy p = kind.create();
        assertEquals(kind.name(), p.name());
        assertEquals(0, p.count());
        assertNull(p.evict());
        p.add("a", 100, 1);
        p.add("b", 0, 1);
        p.add("c", 50, 2);
        assertEquals(3, p.count());
        assertEquals(150, p.bytes());
        assertTrue(p.contains("b"));
        assertTrue(p.touch("a"));
        assertFalse(p.touch("zz"));
        assertTrue(p.remove("c"));
        assertFalse(p.remove("c"));
        assertEquals(100, p.bytes());
        assertFalse(p.contains("c"));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void evictsEveryItemExactlyOnceThenNothing(PolicyKind kind) {
        EvictionPolicy p = kind.create();
        Random r = new Random(7);
        Set<String> added = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            p.add("f" + i, r.nextInt(10_000), 1 + r.nextInt(5));
            added.add("f" + i);
            if (i % 3 == 0) {
                p.touch("f" + r.nextInt(i + 1));
            }
        }
        Set<String> evicted = new HashSet<>();
        for (String k; (k = p.evict()) != null; ) {
            assertTrue(evicted.add(k), "evicted twice: " + k);
            assertFalse(p.contains(k));
        }
        assertEquals(added, evicted);
        assertEquals(0, p.bytes());
        assertEquals(0, p.count());
    }

    @ParameterizedTest
    @MethodSource("policies")
    void refusesBadInputAndChangesNothing(PolicyKind kind) {
        EvictionPolicy p = kind.create();
        p.add("a", 10, 1);
        assertThrows(IllegalArgumentException.class, () -> p.add("a", 10, 1));
        assertThrows(IllegalArgumentException.class, () -> p.add("b", -1, 1));
        assertThrows(IllegalArgumentException.class, () -> p.add("b", 1, 0));
        assertThrows(IllegalArgumentException.class, () -> p.add("b", 1, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> p.add("b", 1, Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> p.add(null, 1, 1));
        assertEquals(1, p.count());
        assertEquals(10, p.bytes());
        assertEquals("a", p.evict());
    }

    @ParameterizedTest
    @MethodSource("policies")
    void aHitProtectsAnItemFromTheNextEviction(PolicyKind kind) {
        EvictionPolicy p = kind.create();
        p.add("a", 100, 1);
        p.add("old", 100, 2);
        p.add("new", 100, 2);
        assertEquals("a", p.evict()); // least recent; for Landlord the lowest credit, whose rent the others pay
        p.touch("old");
        assertEquals("new", p.evict());
    }

    @ParameterizedTest
    @MethodSource("policies")
    void asACacheNeverExceedsItsCapacity(PolicyKind kind) {
        PolicyCache cache = new PolicyCache(10_000, kind.create());
        Random r = new Random(3);
        for (int i = 0; i < 5_000; i++) {
            cache.load("f" + r.nextInt(300), 1 + (r.nextInt(300) * 37L) % 4_000);
            assertTrue(cache.policy().bytes() <= 10_000);
        }
    }
}
