package org.hpio.archive.simulation;

import org.hpio.archive.cache.FileCacheConfig;
import org.hpio.archive.cache.policy.Policies;
import org.hpio.archive.cache.policy.PolicyKind;
import org.hpio.archive.trace.Trace;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The figures issue 8 asks for, as deterministic checks (simulations, no timing): Landlord's hit rate against
 * LRU's over the cache sizes of Figure 3 (002 §4.4.1), and the allocator's waste over a replay (002 §4.6).
 */
class CacheFiguresTest {
    private static final Path PYTHON_TRACE = Path.of("/work/shared/data/traces/python-startup-3runs.trace");
    private static final double BYPASS = 0.25;

    private static Trace pythonTrace() throws IOException {
        assumeTrue(Files.isReadable(PYTHON_TRACE), "the shared trace " + PYTHON_TRACE + " is not on this machine");
        return Trace.read(PYTHON_TRACE);
    }

    @Test
    void landlordHitsAtLeastAsOftenAsLruAtEveryCacheSizeOnThePythonTrace() throws IOException {
        Trace trace = pythonTrace();
        long distinct = CacheSimulator.distinctBytes(trace);
        int sizes = 0;
        for (long size = 1 << 20; ; size = Math.min(size * 2, distinct)) {
            double lru = CacheSimulator.replay(trace, Policies.require("lru"), size, BYPASS, null).hitRate();
            for (PolicyKind kind : Policies.all()) {
                if (kind.name().startsWith("landlord")) {
                    double landlord = CacheSimulator.replay(trace, kind, size, BYPASS, null).hitRate();
                    assertTrue(landlord >= lru, kind.name() + " at " + size + " bytes: " + landlord + " < LRU " + lru);
                }
            }
            sizes++;
            if (size == distinct) {
                break;
            }
        }
        assertEquals(7, sizes, "1, 2, 4 .. 32 MiB and the distinct bytes");
    }

    /**
     * On the synthetic trace (repeats at the start of each run, common files smaller than a run's own, as in
     * 002 §4.4's trace) Landlord hits at least as often as LRU at every cache size, and strictly more often while
     * the cache cannot hold everything loaded between two repeats.
     */
    @Test
    void onWidelySpacedRepeatsLandlordHitsAtLeastAsOftenAsLruAtEveryCacheSize() {
        Trace trace = SyntheticTraces.widelySpacedRepeats();
        long distinct = CacheSimulator.distinctBytes(trace);
        int wins = 0;
        for (long size = 1 << 20; ; size = Math.min(size * 2, distinct)) {
            double lru = CacheSimulator.replay(trace, Policies.require("lru"), size, BYPASS, null).hitRate();
            for (PolicyKind kind : Policies.all()) {
                if (kind.name().startsWith("landlord")) {
                    double landlord = CacheSimulator.replay(trace, kind, size, BYPASS, null).hitRate();
                    assertTrue(landlord >= lru, kind.name() + " at " + size + " bytes: " + landlord + " < LRU " + lru);
                    wins += landlord > lru ? 1 : 0;
                }
            }
            if (size == distinct) {
                break;
            }
        }
        assertTrue(wins >= 7 * 4, "Landlord must win outright below the reuse distance (1 .. 64 MiB): " + wins);
    }

    /**
     * The adversarial variant (shared files as large as the others): Landlord wins below the reuse distance and,
     * once the cache holds a whole run, loses a little to LRU (it evicts the largest files first, shared ones
     * among them, having charged no rent before its first eviction). Reported as found, not hidden.
     */
    @Test
    void withSharedFilesAsLargeAsTheOthersLandlordLosesLittleAboveTheReuseDistance() {
        Trace trace = SyntheticTraces.widelySpacedRepeatsEqualSizes();
        long distinct = CacheSimulator.distinctBytes(trace);
        for (long size = 1 << 20; ; size = Math.min(size * 2, distinct)) {
            double lru = CacheSimulator.replay(trace, Policies.require("lru"), size, BYPASS, null).hitRate();
            double landlord = CacheSimulator.replay(trace, Policies.require("landlord-cached"), size, BYPASS, null).hitRate();
            if (size <= 128L << 20) {
                assertTrue(landlord > lru, "at " + size + " bytes: Landlord " + landlord + " <= LRU " + lru);
            } else {
                assertTrue(landlord >= lru - 0.01, "at " + size + " bytes: Landlord " + landlord + ", LRU " + lru);
            }
            if (size == distinct) {
                assertEquals(lru, landlord, "everything fits: only compulsory misses");
                break;
            }
        }
    }

    @Test
    void theSyntheticTraceIsDeterministic() {
        assertEquals(SyntheticTraces.widelySpacedRepeats().runs(), SyntheticTraces.widelySpacedRepeats().runs());
    }

    @Test
    void allocatorWasteStaysUnderFifteenPercentOverAReplayThatEvicts() throws IOException {
        AllocatorReplay.Result r = AllocatorReplay.replay(pythonTrace(), FileCacheConfig.of(16 << 20));
        assertTrue(r.evictions() > 100, "the cache size must force eviction: " + r);
        assertTrue(r.peakWaste() <= 0.15, "waste at peak live bytes: " + r);
        assertTrue(r.peakWaste() > 0, "4 KiB alignment always rounds some file up: " + r);
    }
}
