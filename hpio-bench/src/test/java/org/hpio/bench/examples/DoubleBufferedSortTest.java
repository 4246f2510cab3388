package org.hpio.bench.examples;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** Figure 5's sort: every chunk of the output is the sorted chunk of the input, for odd and even chunk counts. */
class DoubleBufferedSortTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"4096, 10", "4096, 11", "1000, 3", "512, 2", "512, 1", "64, 0", "100, 37"})
    void everyChunkIsSorted(int chunk, int chunks) throws IOException {
        int extra = 17;
        long[] data = new Random(chunk * 31L + chunks).longs((long) chunk * chunks + extra).toArray();
        Path in = dir.resolve("in");
        Path out = dir.resolve("out");
        try (DataOutputStream o = new DataOutputStream(Files.newOutputStream(in))) {
            for (long v : data) {
                o.writeLong(v);
            }
        }
        DoubleBufferedSort.sortChunks(in, out, chunk);
        long[] sorted = new long[data.length];
        ByteBuffer.wrap(Files.readAllBytes(out)).asLongBuffer().get(sorted);
        long[] expected = data.clone();
        for (int c = 0; c < chunks; c++) {
            Arrays.sort(expected, c * chunk, (c + 1) * chunk);
        }
        Arrays.sort(expected, chunks * chunk, expected.length);
        assertArrayEquals(expected, sorted);
    }
}
