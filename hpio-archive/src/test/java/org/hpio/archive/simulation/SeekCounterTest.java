package org.hpio.archive.simulation;

import org.hpio.archive.cache.policy.Policies;
import org.hpio.archive.trace.Trace;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.archive.trace.TraceRun;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.hpio.archive.trace.LetterTraces.letters;
import static org.hpio.archive.trace.LetterTraces.runs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seek counting of 002 §4.3 and the simulated caches it uses. */
class SeekCounterTest {
    @Test
    void thePapersExampleCombinedTraceHasNoSeeksAndItsPartsHaveSome() {
        // Footnote 8: ABACAD on ABCD; whole trace: the cache absorbs the repeats; sub-sequences AC and AD seek.
        Layout abcd = Layout.packed(letters("ABCD"));
        Trace whole = runs("ABACAD");
        assertEquals(new Seeks(6, 2, 0, 0), SeekCounter.count(whole, abcd, FileCacheModel.lru(100)).wholeTrace());
        SeekCounter.Report parts = SeekCounter.count(runs("AB", "AC", "AD"), abcd, FileCacheModel.lru(100));
        assertEquals(List.of(new Seeks(2, 0, 0, 0), new Seeks(2, 0, 1, 0), new Seeks(2, 0, 1, 0)), parts.runs());
        assertEquals(new Seeks(6, 0, 2, 0), parts.sumOfRuns());
        // Replayed as one sequence (the combined trace), A stays cached: A B (A) C (A) D reads ABCD in order.
        assertEquals(new Seeks(6, 2, 0, 0), parts.wholeTrace());
    }

    @Test
    void withoutACacheEveryRepeatIsARead() {
        Seeks seeks = SeekCounter.count(runs("ABACAD"), Layout.packed(letters("ABCD")), FileCacheModel.none())
                .wholeTrace();
        assertEquals(new Seeks(6, 0, 4, 0), seeks);      // B->A, A->C, C->A, A->D
        assertEquals(6, seeks.reads());
    }

    @Test
    void realOffsetsCountAReadThatStartsWhereTheLastEndedAsNoSeek() {
        Layout layout = Layout.of(Map.of("A", new Layout.Extent(0, 100), "B", new Layout.Extent(100, 130),
                "C", new Layout.Extent(140, 150)));
        assertEquals(1, SeekCounter.count(runs("ABC"), layout, FileCacheModel.none()).wholeTrace().seeks());
    }

    @Test
    void filesNotInTheArchiveAreCountedApart() {
        Seeks seeks = SeekCounter.count(runs("AXB"), Layout.packed(letters("AB")), FileCacheModel.none())
                .wholeTrace();
        assertEquals(new Seeks(3, 0, 0, 1), seeks);
        assertEquals(2, seeks.reads());
    }

    @Test
    void theLruCacheEvictsTheLeastRecentlyLoadedFile() {
        PolicyCache cache = new PolicyCache(10, Policies.require(Policies.LRU).create());
        assertFalse(cache.load("a", 4));
        assertFalse(cache.load("b", 4));
        assertTrue(cache.load("a", 4));          // a is now the most recent
        assertFalse(cache.load("c", 4));         // evicts b
        assertTrue(cache.load("a", 4));
        assertFalse(cache.load("b", 4));         // evicts c
        assertEquals(8, cache.policy().bytes());
        assertFalse(cache.load("huge", 11));     // larger than the cache: read, not kept
        assertFalse(cache.load("huge", 11));
        assertTrue(cache.load("a", 4));
        assertThrows(IllegalArgumentException.class, () -> new PolicyCache(0, Policies.require(Policies.LRU).create()));
        assertThrows(IllegalArgumentException.class, () -> FileCacheModel.lru(-1));
    }

    @Test
    void aZeroSizeCacheIsNoCache() {
        FileCacheSimulation none = FileCacheModel.lru(0).start();
        assertFalse(none.load("a", 0));
        assertFalse(none.load("a", 0));
    }

    @Test
    void freesReachThePolicy() {
        int[] frees = {0};
        FileCacheModel counting = () -> new FileCacheSimulation() {
            @Override
            public boolean load(String path, long size) {
                return false;
            }

            @Override
            public void free(String path, long size) {
                frees[0]++;
            }
        };
        Trace trace = new Trace(List.of(new TraceRun(List.of(TraceEvent.load(0, "A", 1),
                TraceEvent.free(1, "A", 1)))));
        SeekCounter.count(trace, Layout.packed(List.of("A")), counting);
        assertEquals(2, frees[0], "once for the run, once for the whole trace");
    }
}
