package org.hpio.archive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Writes trees of files for archive tests. */
final class TestTrees {
    private TestTrees() {
    }

    /** Writes each (relative path, content) under {@code root}, creating directories. */
    static void write(Path root, Map<String, byte[]> files) throws IOException {
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            Path file = root.resolve(f.getKey());
            Files.createDirectories(file.getParent());
            Files.write(file, f.getValue());
        }
    }

    /** {@code size} bytes of text that Deflate shrinks well. */
    static byte[] text(int size, int seed) {
        byte[] b = new byte[size];
        String words = "the quick brown fox jumps over the lazy dog " + seed + " ";
        for (int i = 0; i < size; i++) {
            b[i] = (byte) words.charAt(i % words.length());
        }
        return b;
    }

    /** {@code size} bytes that Deflate cannot shrink. */
    static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new java.util.Random(seed).nextBytes(b);
        return b;
    }
}
