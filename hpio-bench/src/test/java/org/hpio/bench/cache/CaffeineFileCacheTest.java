package org.hpio.bench.cache;

import org.hpio.archive.simulation.CacheSimulator;
import org.hpio.archive.simulation.SyntheticTraces;
import org.hpio.archive.trace.Trace;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CaffeineFileCacheTest {
    @Test
    void staysWithinItsWeightAndServesRepeats() {
        CaffeineFileCache cache = new CaffeineFileCache(1 << 20);
        assertFalse(cache.load("a", 1000));
        assertTrue(cache.load("a", 1000));
        Random r = new Random(1);
        for (int i = 0; i < 5000; i++) {
            cache.load("f" + r.nextInt(2000), 1 + r.nextInt(100_000));
            assertTrue(cache.weightedSize() <= 1 << 20, "weighted size " + cache.weightedSize());
        }
    }

    @Test
    void replaysAreDeterministic() {
        Trace trace = SyntheticTraces.widelySpacedRepeats(3, 50, 200, 9);
        CacheSimulator.Result a = CacheSimulator.replay(trace, "caffeine", CaffeineFileCache.model(8 << 20), 8 << 20, 0.25, null);
        CacheSimulator.Result b = CacheSimulator.replay(trace, "caffeine", CaffeineFileCache.model(8 << 20), 8 << 20, 0.25, null);
        assertEquals(a, b);
        assertTrue(a.hits() > 0, a.toString());
    }
}
