package org.hpio.archive.cache.policy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Landlord's decisions (002 Figure 1), and the agreement of its variants. */
class LandlordTest {
    private static final List<String> LANDLORDS = Policies.all().stream().map(PolicyKind::name)
            .filter(n -> n.startsWith("landlord")).toList();

    @Test
    void withEqualCostsTheLargestFileLeavesFirst() {
        for (String name : LANDLORDS) {
            EvictionPolicy p = Policies.require(name).create();
            p.add("small", 10, 1);
            p.add("large", 1000, 1);
            p.add("medium", 100, 1);
            assertEquals("large", p.evict(), name);
            assertEquals("medium", p.evict(), name);
        }
    }

    @Test
    void rentIsChargedToTheSurvivors() {
        // densities: a 1/100, b 3/100 -> a evicted, b charged 1/100*100 = 1, credit 2 (density 2/100);
        // c enters with density 2.5/100 -> b (2/100) goes before c.
        for (String name : LANDLORDS) {
            EvictionPolicy p = Policies.require(name).create();
            p.add("a", 100, 1);
            p.add("b", 100, 3);
            assertEquals("a", p.evict(), name);
            p.add("c", 100, 2.5);
            assertEquals("b", p.evict(), name);
            p.add("d", 100, 2.5);
            p.touch("c"); // c had been charged down to 0.5; the hit restores its credit to 2.5
            p.add("e", 100, 0.5);
            assertEquals("e", p.evict(), name);
        }
    }

    /** Every Landlord variant evicts the same files in the same order (random distinct costs: no ties). */
    @Property(tries = 40)
    void allVariantsMakeTheSameDecisions(@ForAll long seed) {
        List<EvictionPolicy> variants = LANDLORDS.stream().map(n -> Policies.require(n).create()).toList();
        Random r = new Random(seed);
        List<String> keys = new ArrayList<>();
        for (int step = 0; step < 600; step++) {
            int op = r.nextInt(10);
            if (op < 5 || keys.isEmpty()) {
                String k = "k" + step;
                long size = 1 + r.nextInt(50_000);
                double cost = 0.5 + r.nextDouble() * 10;
                variants.forEach(v -> v.add(k, size, cost));
                keys.add(k);
            } else if (op < 8) {
                String k = keys.get(r.nextInt(keys.size()));
                variants.forEach(v -> v.touch(k));
            } else if (op < 9) {
                String first = variants.getFirst().evict();
                for (EvictionPolicy v : variants.subList(1, variants.size())) {
                    assertEquals(first, v.evict(), v.name() + " at step " + step + " (seed " + seed + ")");
                }
                keys.remove(first);
            } else {
                String k = keys.remove(r.nextInt(keys.size()));
                variants.forEach(v -> v.remove(k));
            }
        }
    }
}
