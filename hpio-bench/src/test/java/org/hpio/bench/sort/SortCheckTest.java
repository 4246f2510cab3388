package org.hpio.bench.sort;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The output checker accepts a right output and names what is wrong in a wrong one. */
class SortCheckTest {
    @TempDir
    Path dir;

    private final long[] input = SortData.random(1000, 7, false);

    private MultisetHash hashOf(long[] values) throws IOException {
        Path file = dir.resolve("input");
        SortData.write(file, values);
        return MultisetHash.of(file);
    }

    private IOException wrong(long[] output, int chunk) throws IOException {
        Path out = dir.resolve("out");
        SortData.write(out, output);
        MultisetHash expected = hashOf(input);
        return assertThrows(IOException.class, () -> SortCheck.verify("test", out, expected, chunk));
    }

    @Test
    void acceptsChunksSortedAndTheWholeFileSorted() throws IOException {
        Path out = dir.resolve("out");
        SortData.write(out, SortData.chunksSorted(input, 100));
        MultisetHash expected = hashOf(input);
        assertDoesNotThrow(() -> SortCheck.verify("test", out, expected, 100));
        SortData.write(out, SortData.chunksSorted(input, input.length));
        assertDoesNotThrow(() -> SortCheck.verify("test", out, expected, Long.MAX_VALUE));
    }

    @Test
    void catchesAnUnsortedChunkAndSaysWhichAndWhere() throws IOException {
        long[] output = SortData.chunksSorted(input, 100);
        long t = output[305];
        output[305] = output[306];
        output[306] = t;
        IOException e = wrong(output, 100);
        assertTrue(e.getMessage().contains("chunk 3") && e.getMessage().contains("long 30"), e.getMessage());
    }

    @Test
    void catchesChunksSortedAcrossTheWrongBoundaries() throws IOException {
        IOException e = wrong(SortData.chunksSorted(input, 50), 100);
        assertTrue(e.getMessage().contains("not sorted"), e.getMessage());
    }

    @Test
    void catchesAChangedValueAndADuplicatedOne() throws IOException {
        long[] changed = SortData.chunksSorted(input, 100);
        changed[99] = Long.MAX_VALUE;   // still sorted: the last of its chunk
        assertTrue(wrong(changed, 100).getMessage().contains("not a permutation"));

        long[] duplicated = SortData.chunksSorted(input, 100);
        duplicated[1] = duplicated[0];  // still sorted, one value lost, one twice
        assertTrue(wrong(duplicated, 100).getMessage().contains("not a permutation"));
    }

    @Test
    void catchesAShortOutput() throws IOException {
        long[] shorter = Arrays.copyOf(SortData.chunksSorted(input, 100), 999);
        assertTrue(wrong(shorter, 100).getMessage().contains("bytes"));
    }

    @Test
    void theHashIgnoresOrderButNotValues() {
        long[] a = {1, 2, 3, -4};
        long[] b = {-4, 3, 2, 1};
        long[] c = {1, 2, 3, -5};
        assertTrue(MultisetHash.of(a, 4).equals(MultisetHash.of(b, 4)));
        assertNotEquals(MultisetHash.of(a, 4), MultisetHash.of(c, 4));
        assertNotEquals(MultisetHash.of(a, 4), MultisetHash.of(a, 3));
    }

    @Test
    void aFileThatIsNotLongsIsAnError() throws IOException {
        Path odd = Files.write(dir.resolve("odd"), new byte[13]);
        assertThrows(IOException.class, () -> MultisetHash.of(odd));
    }
}
