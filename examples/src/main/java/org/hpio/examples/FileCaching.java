package org.hpio.examples;

import org.hpio.archive.cache.FileCache;
import org.hpio.archive.cache.FileCacheConfig;
import org.hpio.archive.cache.FileCacheStats;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** The README's whole-file cache (org.hpio.archive.cache): a miss reads the file in, the next get is a hit. */
public final class FileCaching {
    private FileCaching() {
    }

    public static void main(String[] args) throws IOException {
        Path grass = Scratch.directory("cache").resolve("textures/grass.dds");
        byte[] contents = "DDS grass texture".repeat(1000).getBytes(StandardCharsets.US_ASCII);
        Files.createDirectories(grass.getParent());
        Files.write(grass, contents);
        byte[] copy = null;
        FileCacheStats stats;
        // README: cache
        try (FileCache cache = new FileCache(FileCacheConfig.of(64L << 20))) {   // 64 MiB, landlord-cached, 4 KiB aligned
            for (int round = 0; round < 2; round++) {
                MemorySegment data = cache.get(grass);                            // a hit, or one read into the cache
                try {
                    copy = data.toArray(ValueLayout.JAVA_BYTE);                   // read-only; do not keep it
                } finally {
                    cache.release(data);                                          // exactly once (the extant list checks)
                }
            }
            stats = cache.stats();
        }
        // README: end
        Check.that(Arrays.equals(contents, copy), "the cached bytes are the file's");
        Check.that(stats.misses() == 1 && stats.hits() == 1, "one miss, then one hit: " + stats);
        System.out.println("FileCaching: " + contents.length + " bytes, " + stats.misses() + " miss, " + stats.hits() + " hit");
    }
}
