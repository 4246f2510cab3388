package org.hpio.bench.suite;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What the user asked of a bench run: sizes as typed and as shown. */
class BenchOptionsTest {
    @Test
    void sizesParseAndFormat() {
        assertEquals(256L << 20, BenchOptions.parseSize("256m"));
        assertEquals(1L << 30, BenchOptions.parseSize("1GiB"));
        assertEquals(4096, BenchOptions.parseSize("4096"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parseSize("lots"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parseSize("0"));
        assertEquals("256 MiB", BenchOptions.formatSize(256L << 20));
    }
}
