package org.hpio.bench.sort;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

/** Test files of big-endian longs, written and read with the JDK's data streams. */
final class SortData {
    private SortData() {
    }

    /** {@code count} random longs (with repeats when {@code few} distinct values are asked for), seeded. */
    static long[] random(int count, long seed, boolean few) {
        Random random = new Random(seed);
        long[] values = new long[count];
        for (int i = 0; i < count; i++) {
            values[i] = few ? random.nextInt(5) - 2 : random.nextLong();
        }
        return values;
    }

    static void write(Path file, long[] values) throws IOException {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
            for (long v : values) {
                out.writeLong(v);
            }
        }
    }

    static long[] read(Path file) throws IOException {
        long[] values = new long[(int) (Files.size(file) / 8)];
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            for (int i = 0; i < values.length; i++) {
                values[i] = in.readLong();
            }
        }
        return values;
    }

    /** {@code values} with each {@code chunk}-long chunk sorted. */
    static long[] chunksSorted(long[] values, int chunk) {
        long[] expected = values.clone();
        for (int from = 0; from < expected.length; from += chunk) {
            Arrays.sort(expected, from, Math.min(expected.length, from + chunk));
        }
        return expected;
    }
}
