package org.hpio.archive;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

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

    /**
     * Writes {@code files} under {@code dir/tree-NAME} and packs them, in the map's order, into {@code dir/NAME},
     * with Deflate where it saves {@code minSavings} (1.0: every entry stored).
     */
    static Path zip(Path dir, String name, Map<String, byte[]> files, double minSavings) throws IOException {
        Path tree = dir.resolve("tree-" + name);
        write(tree, files);
        Path zip = dir.resolve(name);
        new ArchiveBuilder(tree).minDeflateSavings(minSavings).addAll(files.keySet()).write(zip);
        return zip;
    }

    /** Flips one bit in the middle of {@code entry}'s data in {@code zip} (its CRC-32 no longer matches). */
    static void damage(Path zip, String entry) throws IOException {
        long at;
        try (Archive archive = Archive.open(zip)) {
            ArchiveEntry e = archive.entry(entry).orElseThrow();
            at = archive.dataOffset(e) + e.compressedSize() / 2;
        }
        byte[] bytes = Files.readAllBytes(zip);
        bytes[(int) at] ^= 0x04;
        Files.write(zip, bytes);
    }

    /** Cuts {@code zip} short {@code keep} bytes into {@code entry}'s data (an open archive's loads then fail there). */
    static void cutInside(Path zip, String entry, long keep) throws IOException {
        long at;
        try (Archive archive = Archive.open(zip)) {
            at = archive.dataOffset(archive.entry(entry).orElseThrow()) + keep;
        }
        try (FileChannel ch = FileChannel.open(zip,
                StandardOpenOption.WRITE)) {
            ch.truncate(at);
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

    /** {@code count} text files in order, "f0" on, file {@code i} of {@code baseBytes + i * stepBytes} bytes. */
    static Map<String, byte[]> texts(int count, int baseBytes, int stepBytes) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            files.put("f" + i, text(baseBytes + stepBytes * i, i));
        }
        return files;
    }

    /** {@code size} bytes that Deflate cannot shrink. */
    static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }
}
