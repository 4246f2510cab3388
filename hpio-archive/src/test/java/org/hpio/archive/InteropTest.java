package org.hpio.archive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Archives from {@link ArchiveBuilder} pass Info-ZIP's {@code unzip -t} and Python's {@code zipfile -t}: empty,
 * one entry, 70,000 entries (past the 16-bit entry count: Zip64 end records), and, opt-in with
 * {@code -Dhpio.test.large=true} since it writes about 9 GiB, one past 4 GiB (Zip64 sizes and offsets).
 */
class InteropTest {
    @TempDir
    Path dir;

    private Path root() throws IOException {
        return Files.createDirectories(dir.resolve("root"));
    }

    private void assertToolsAccept(Path zip, int entries) throws Exception {
        Tools.assumeInstalled("unzip", "unzip");
        Tools.assumeInstalled("python3", "python3");
        Tools.Result unzip = Tools.run(dir, List.of("unzip", "-tqq", zip.toString()));
        String unzipOutput = unzip.output();
        if (entries == 0) {
            // unzip reports an empty archive as a warning (exit 1, "zipfile is empty"); that is all it may say.
            assertTrue(unzip.exitCode() <= 1 && unzipOutput.contains("empty"), unzipOutput);
        } else {
            assertEquals(0, unzip.exitCode(), unzipOutput);
        }
        Tools.Result python = Tools.run(dir, List.of("python3", "-m", "zipfile", "-t", zip.toString()));
        assertEquals(0, python.exitCode(), python.output());
        Tools.Result count = Tools.run(dir, List.of("python3", "-c",
                "import zipfile,sys; print(len(zipfile.ZipFile(sys.argv[1]).infolist()))", zip.toString()));
        assertEquals(String.valueOf(entries), count.output().strip());
        try (ZipFile z = new ZipFile(zip.toFile())) {
            assertEquals(entries, z.size());
        }
        try (Archive archive = Archive.open(zip)) {
            assertEquals(entries, archive.entries().size());
            assertEquals(List.of(), archive.verifyAll());
        }
    }

    @Test
    void anEmptyArchive() throws Exception {
        Path zip = dir.resolve("empty.zip");
        new ArchiveBuilder(root()).write(zip);
        assertEquals(22, Files.size(zip), "just the end of central directory record");
        assertToolsAccept(zip, 0);
    }

    @Test
    void oneEntry() throws Exception {
        Path root = root();
        Files.write(root.resolve("one.txt"), TestTrees.text(1000, 1));
        Path zip = dir.resolve("one.zip");
        new ArchiveBuilder(root).add("one.txt").write(zip);
        assertToolsAccept(zip, 1);
        Tools.Result list = Tools.run(dir, List.of("unzip", "-Z1", zip.toString()));
        assertEquals("one.txt", list.output().strip());
    }

    @Test
    void seventyThousandEntries() throws Exception {
        Path root = root();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 70_000; i++) {
            String name = "d" + (i % 100) + "/f" + i + ".txt";
            if (i < 100) {
                Files.createDirectories(root.resolve(name).getParent());
            }
            Files.writeString(root.resolve(name), "file " + i + " ".repeat(i % 50));
            names.add(name);
        }
        Path zip = dir.resolve("many.zip");
        new ArchiveBuilder(root).addAll(names).write(zip);
        assertToolsAccept(zip, 70_000);
    }

    @Test
    void pastFourGibibytes() throws Exception {
        assumeTrue(Boolean.getBoolean("hpio.test.large"),
                "writes about 9 GiB; run with -Dhpio.test.large=true");
        Path root = root();
        long stored = (4L << 30) + 12_345;           // stored: sizes and the next offset pass 4 GiB
        long deflated = (4L << 30) + 67_890;         // Deflate: uncompressed size past 4 GiB, compressed small
        sparse(root.resolve("big.bin"), stored);
        sparse(root.resolve("zeros.txt"), deflated);
        Files.write(root.resolve("after.txt"), TestTrees.text(5000, 7));
        Path zip = dir.resolve("large.zip");
        new ArchiveBuilder(root).storedExtensions(Set.of("bin")).addAll(List.of("big.bin", "zeros.txt",
                "after.txt")).write(zip);
        assertTrue(Files.size(zip) > stored);
        assertToolsAccept(zip, 3);
        try (Archive archive = Archive.open(zip)) {
            ArchiveEntry big = archive.entry("big.bin").orElseThrow();
            ArchiveEntry zeros = archive.entry("zeros.txt").orElseThrow();
            ArchiveEntry after = archive.entry("after.txt").orElseThrow();
            assertEquals(stored, big.compressedSize());
            assertEquals(deflated, zeros.uncompressedSize());
            assertEquals(ArchiveEntry.DEFLATED, zeros.method());
            assertTrue(after.localHeaderOffset() > 0xFFFFFFFFL);
            assertArrayEquals(TestTrees.text(5000, 7), archive.read(after));
        }
        try (ZipFile z = new ZipFile(zip.toFile())) {
            assertArrayEquals(TestTrees.text(5000, 7), z.getInputStream(z.getEntry("after.txt")).readAllBytes());
        }
    }

    private static void sparse(Path file, long size) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size);
        }
    }
}
