package org.hpio.bench.sort;

import org.hpio.bench.suite.BenchOptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --sizes, --chunks, --full and --memory: defaults, parsing, and errors that say what was wrong. */
class SortSettingsTest {
    private static SortSettings parse(Map<String, String> given) {
        return SortSettings.from(new BenchOptions(Optional.empty(), List.of(1), 1, BenchOptions.CacheMode.WARM,
                Path.of("work"), List.of(), given));
    }

    private static String error(Map<String, String> given) {
        return assertThrows(IllegalArgumentException.class, () -> parse(given)).getMessage();
    }

    @Test
    void defaultsAreThePapers() {
        SortSettings s = parse(Map.of());
        assertEquals(List.of(1L << 20, 16L << 20, 64L << 20, 256L << 20), s.sizes());
        assertEquals(List.of(32L << 10, 512L << 10), s.chunks());
        assertFalse(s.full());
        assertEquals(64L << 20, s.memory());
        assertEquals(16L << 20, s.unbufferedMax());
    }

    @Test
    void aQuickRunStopsAt16MiB() {
        SortSettings s = parse(Map.of("quick", "true"));
        assertEquals(List.of(1L << 20, 16L << 20), s.sizes());
        assertEquals(List.of(32L << 10, 512L << 10), s.chunks());
        assertEquals(List.of(2L << 20), parse(Map.of("quick", "true", "sizes", "2m")).sizes());
    }

    @Test
    void listsParseSortedWithoutRepeats() {
        SortSettings s = parse(Map.of("sizes", "16m,1m,1m", "chunks", "4k", "full", "true", "memory", "2m"));
        assertEquals(List.of(1L << 20, 16L << 20), s.sizes());
        assertEquals(List.of(4096L), s.chunks());
        assertTrue(s.full());
        assertEquals(2L << 20, s.memory());
    }

    @Test
    void badValuesNameTheOption() {
        assertTrue(error(Map.of("sizes", "1m,lots")).startsWith("--sizes: not a size"));
        assertTrue(error(Map.of("sizes", "1m,,2m")).contains("empty entry"));
        assertTrue(error(Map.of("chunks", "1001")).contains("--chunks: 1001 bytes is not a whole number of longs"));
        assertTrue(error(Map.of("memory", "0")).startsWith("--memory:"));
        assertTrue(error(Map.of("chunks", "2g")).contains("larger than the largest chunk"));
    }

    @Test
    void fullNeedsAnInputLargerThanTheMemory() {
        String e = error(Map.of("sizes", "1m,16m", "full", "true", "memory", "16m"));
        assertTrue(e.contains("--full needs an input larger than --memory") && e.contains("16 MiB"), e);
        assertTrue(error(Map.of("memory", "1k")).contains("--memory must be at least"));
    }

    @Test
    void labelsAreShort() {
        assertEquals("512k", SortSettings.label(512 << 10));
        assertEquals("64m", SortSettings.label(64L << 20));
        assertEquals("1000b", SortSettings.label(1000));
    }
}
