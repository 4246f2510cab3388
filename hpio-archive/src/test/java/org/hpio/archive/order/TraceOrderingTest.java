package org.hpio.archive.order;

import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.archive.simulation.Layout;
import org.hpio.archive.simulation.SeekCounter;
import org.hpio.archive.trace.Trace;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.archive.trace.TraceRun;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.hpio.archive.trace.LetterTraces.letters;
import static org.hpio.archive.trace.LetterTraces.runs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The ordering of 002 §3.3, step by step, on traces small enough to work out by hand. */
class TraceOrderingTest {
    static final FileCacheModel BIG_CACHE = FileCacheModel.lru(1L << 30);

    @Test
    void theFileCacheAbsorbsRepeatsSoThePapersExampleOrdersAbcd() {
        // 002 §4.3 footnote 8: trace ABACAD, optimal ordering ABCD.
        assertEquals(letters("ABCD"), TraceOrdering.order(runs("ABACAD"), letters("ABCD"), BIG_CACHE));
    }

    @Test
    void withoutACacheEveryRepeatMakesAnEdge() {
        // Edges, all seen once, in first-seen order: AB BA AC CA AD DA. AB commits; BA closes a cycle; AC: A
        // already has a successor; CA commits (C A B); AD: A has a successor; DA: A has a predecessor.
        assertEquals(letters("CABD"), TraceOrdering.order(runs("ABACAD"), letters("ABCD"), FileCacheModel.none()));
    }

    @Test
    void edgesOfEqualFrequencyKeepTheOrderOfTheMostRecentRun() {
        // Most recent run (YX) first: Y->X is committed, then X->Y would close a cycle.
        assertEquals(letters("YX"), TraceOrdering.order(runs("XY", "YX"), letters("XY"), BIG_CACHE));
        assertEquals(letters("XY"), TraceOrdering.order(runs("YX", "XY"), letters("XY"), BIG_CACHE));
    }

    @Test
    void aMoreFrequentEdgeWinsOverAMoreRecentOne() {
        assertEquals(letters("XY"), TraceOrdering.order(runs("XY", "XY", "YX"), letters("XY"), BIG_CACHE));
    }

    @Test
    void aLoadTheCacheServesLeavesTheHeadAtTheLastFileRead() {
        // A B A C with a cache: A's second load is served, so the edge is B -> C, not A -> C.
        assertEquals(letters("ABC"), TraceOrdering.order(runs("ABAC"), letters("CBA"), BIG_CACHE));
    }

    @Test
    void theCacheIsSimulatedWithinARunOnly() {
        // Run 2 (most recent) is "BA": with a cache carried over from run 1 it would add no edge at all.
        assertEquals(letters("BA"), TraceOrdering.order(runs("AB", "BA", "BA"), letters("AB"), BIG_CACHE));
    }

    @Test
    void filesTheTraceNeverLoadedFollowInTheCallersOrder() {
        List<String> files = letters("QDPCBA");
        assertEquals(letters("ABCDQP"), TraceOrdering.order(runs("ABCD"), files, BIG_CACHE));
    }

    @Test
    void loadsOfFilesNotToBePlacedAreIgnored() {
        assertEquals(letters("ABC"), TraceOrdering.order(runs("AXBYC"), letters("ABC"), BIG_CACHE));
    }

    @Test
    void chainsComeOutInTheOrderTheTraceReachedThem() {
        // Two chains: C->D (twice) and A->B (once, B->C would join them but C has a predecessor... no: D->A
        // closes no cycle). Trace "CDAB" twice then "AB": most recent run AB first.
        List<String> order = TraceOrdering.order(runs("CD", "CD", "AB"), letters("ABCD"), BIG_CACHE);
        assertEquals(letters("ABCD"), order);
    }

    @Test
    void aFileListedTwiceIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> TraceOrdering.order(runs("A"), List.of("A", "A"), BIG_CACHE));
    }

    @Test
    void anEmptyTraceKeepsTheCallersOrder() {
        assertEquals(letters("CBA"), TraceOrdering.order(new Trace(List.of()), letters("CBA"), BIG_CACHE));
    }

    @Test
    void hundredThousandFilesGiveAPermutationThatReplaysTheLatestRunWithFewSeeks() {
        int fileCount = 100_000;
        List<String> files = new ArrayList<>(fileCount);
        for (int i = 0; i < fileCount; i++) {
            files.add("dir" + (i % 97) + "/file" + i);
        }
        Random random = new Random(42);
        List<TraceRun> runs = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            List<String> shuffled = new ArrayList<>(files);
            Collections.shuffle(shuffled, random);
            List<TraceEvent> events = new ArrayList<>();
            for (int i = 0; i < 80_000; i++) {
                events.add(TraceEvent.load((3 - r) + i * 1e-3, shuffled.get(i), 1000 + i % 5000));
            }
            runs.add(new TraceRun(events));
        }
        Trace trace = new Trace(runs);
        List<String> order = TraceOrdering.order(trace, files, FileCacheModel.lru(64L << 20));
        assertEquals(fileCount, order.size());
        assertEquals(new HashSet<>(files), new HashSet<>(order));
        // The most recent run's edges are committed before any other of equal frequency, so that run reads
        // with few seeks; directory order makes nearly every read a seek.
        Trace latest = new Trace(List.of(runs.getLast()));
        int traceSeeks = SeekCounter.count(latest, Layout.packed(order), FileCacheModel.none()).wholeTrace().seeks();
        int dirSeeks = SeekCounter.count(latest, Layout.packed(files), FileCacheModel.none()).wholeTrace().seeks();
        assertEquals(79_999, dirSeeks + countAdjacent(latest, files));
        assertEquals(true, traceSeeks * 5 < dirSeeks, "trace " + traceSeeks + " vs directory " + dirSeeks);
    }

    private static int countAdjacent(Trace trace, List<String> files) {
        List<TraceEvent> loads = trace.runs().getFirst().loads();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < files.size(); i++) {
            index.put(files.get(i), i);
        }
        int adjacent = 0;
        for (int i = 1; i < loads.size(); i++) {
            if (index.get(loads.get(i).path()) == index.get(loads.get(i - 1).path()) + 1) {
                adjacent++;
            }
        }
        return adjacent;
    }
}
