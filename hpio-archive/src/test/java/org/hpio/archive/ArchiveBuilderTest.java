package org.hpio.archive;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.LocalDateTime;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ArchiveBuilder}: content, methods, determinism, crash safety and bad input. */
class ArchiveBuilderTest {
    @TempDir
    Path dir;

    private Path tree(Map<String, byte[]> files) throws IOException {
        Path root = dir.resolve("root");
        Files.createDirectories(root);
        TestTrees.write(root, files);
        return root;
    }

    private static Map<String, byte[]> sample() {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("b/text.txt", TestTrees.text(10_000, 1));
        files.put("a/noise.bin", TestTrees.random(5_000, 2));
        files.put("a/picture.PNG", TestTrees.text(5_000, 3));
        files.put("empty", new byte[0]);
        files.put("ü/naïve name.txt", TestTrees.text(100, 4));
        return files;
    }

    @Test
    void entriesComeInTheGivenOrderWithTheRightMethodAndContent() throws IOException {
        Map<String, byte[]> files = sample();
        Path root = tree(files);
        Path zip = dir.resolve("out.zip");
        ArchiveBuilder.Summary summary = new ArchiveBuilder(root).addAll(files.keySet()).write(zip);
        assertEquals(5, summary.entries());
        assertEquals(2, summary.deflated(), "the text files; noise does not shrink, PNG and empty are stored");
        assertEquals(Files.size(zip), summary.archiveBytes());
        try (ZipFile z = new ZipFile(zip.toFile())) {
            List<? extends ZipEntry> entries = Collections.list(z.entries());
            assertEquals(List.copyOf(files.keySet()), entries.stream().map(ZipEntry::getName).toList());
            for (ZipEntry e : entries) {
                assertArrayEquals(files.get(e.getName()), z.getInputStream(e).readAllBytes(), e.getName());
            }
            assertEquals(ZipEntry.DEFLATED, z.getEntry("b/text.txt").getMethod());
            assertEquals(ZipEntry.STORED, z.getEntry("a/noise.bin").getMethod());
            assertEquals(ZipEntry.STORED, z.getEntry("a/picture.PNG").getMethod());
            assertEquals(ZipEntry.STORED, z.getEntry("empty").getMethod());
        }
        try (Archive archive = Archive.open(zip)) {
            assertEquals(List.copyOf(files.keySet()), archive.entries().stream().map(ArchiveEntry::name).toList());
            for (ArchiveEntry e : archive.entries()) {
                assertArrayEquals(files.get(e.name()), archive.read(e), e.name());
            }
            assertEquals(List.of(), archive.verifyAll());
        }
    }

    @Test
    void entriesArePackedEndToEnd() throws IOException {
        Map<String, byte[]> files = sample();
        Path zip = dir.resolve("out.zip");
        new ArchiveBuilder(tree(files)).addAll(files.keySet()).write(zip);
        try (Archive archive = Archive.open(zip)) {
            long end = 0;
            for (ArchiveEntry e : archive.entries()) {
                assertEquals(end, archive.extent(e).start(), e.name());
                end = archive.extent(e).end();
            }
        }
    }

    @Test
    void theThresholdAndTheStoredExtensionsAreConfigurable() throws IOException {
        Map<String, byte[]> files = sample();
        Path zip = dir.resolve("out.zip");
        new ArchiveBuilder(tree(files)).addAll(files.keySet()).minDeflateSavings(1.0).write(zip);
        try (Archive archive = Archive.open(zip)) {
            assertTrue(archive.entries().stream().allMatch(e -> e.method() == ArchiveEntry.STORED),
                    "no file can save 100%");
        }
        new ArchiveBuilder(dir.resolve("root")).addAll(files.keySet()).storedExtensions(Set.of("txt")).write(zip);
        try (ZipFile z = new ZipFile(zip.toFile())) {
            assertEquals(ZipEntry.STORED, z.getEntry("b/text.txt").getMethod());
            assertEquals(ZipEntry.DEFLATED, z.getEntry("a/picture.PNG").getMethod());
        }
    }

    @Test
    void theSameInputGivesTheSameBytes() throws IOException {
        Map<String, byte[]> files = sample();
        Path root = tree(files);
        new ArchiveBuilder(root).addAll(files.keySet()).write(dir.resolve("one.zip"));
        Files.setLastModifiedTime(root.resolve("empty"), FileTime.fromMillis(0));
        new ArchiveBuilder(root).addAll(files.keySet()).write(dir.resolve("two.zip"));
        assertArrayEquals(Files.readAllBytes(dir.resolve("one.zip")), Files.readAllBytes(dir.resolve("two.zip")));
    }

    @Test
    void largeFilesStreamTwiceAndGiveTheSameBytesAsInMemory() throws IOException {
        Map<String, byte[]> files = sample();
        Path root = tree(files);
        new ArchiveBuilder(root).addAll(files.keySet()).write(dir.resolve("memory.zip"));
        new ArchiveBuilder(root).addAll(files.keySet()).inMemoryLimit(0).write(dir.resolve("streamed.zip"));
        assertArrayEquals(Files.readAllBytes(dir.resolve("memory.zip")),
                Files.readAllBytes(dir.resolve("streamed.zip")));
    }

    @Test
    void pathsThatEscapeTheRootOrRepeatAreRefusedAndChangeNothing() throws IOException {
        ArchiveBuilder builder = new ArchiveBuilder(tree(sample())).add("b/text.txt");
        assertMessage(IllegalArgumentException.class, "escapes", () -> builder.add("../outside"));
        assertMessage(IllegalArgumentException.class, "escapes", () -> builder.add("a/../../outside"));
        assertMessage(IllegalArgumentException.class, "relative", () -> builder.add("/etc/passwd"));
        assertMessage(IllegalArgumentException.class, "duplicate path", () -> builder.add("b/./text.txt"));
        assertMessage(IllegalArgumentException.class, "duplicate path",
                () -> builder.addAll(List.of("a/noise.bin", "b/text.txt")));
        assertEquals(List.of("b/text.txt"), builder.entryNames(), "a refused addAll adds nothing");
    }

    @Test
    void aMissingFileFailsTheWriteNamingItAndLeavesNothing() throws IOException {
        Path root = tree(sample());
        Path zip = dir.resolve("out.zip");
        ArchiveBuilder builder = new ArchiveBuilder(root).add("b/text.txt").add("gone.txt");
        IOException e = assertThrows(IOException.class, () -> builder.write(zip));
        assertTrue(e.getMessage().contains("gone.txt") && e.getMessage().contains("no such file"), e.getMessage());
        assertFalse(Files.exists(zip));
        assertOnlyTheTreeIsLeft();
    }

    @Test
    void aFailedWriteKeepsTheOldArchive() throws IOException {
        Path root = tree(sample());
        Path zip = dir.resolve("out.zip");
        new ArchiveBuilder(root).add("b/text.txt").write(zip);
        byte[] before = Files.readAllBytes(zip);
        ArchiveBuilder bad = new ArchiveBuilder(root).add("a");
        IOException e = assertThrows(IOException.class, () -> bad.write(zip));
        assertTrue(e.getMessage().contains("not a regular file"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(zip));
    }

    @Test
    void aSymbolicLinkOutOfTheRootIsRefused() throws IOException {
        Path root = tree(sample());
        Files.writeString(dir.resolve("secret"), "secret");
        Files.createSymbolicLink(root.resolve("link"), dir.resolve("secret"));
        Files.createSymbolicLink(root.resolve("inner-link"), root.resolve("b/text.txt"));
        Path zip = dir.resolve("out.zip");
        IOException e = assertThrows(IOException.class, () -> new ArchiveBuilder(root).add("link").write(zip));
        assertTrue(e.getMessage().contains("outside the archive root"), e.getMessage());
        assertFalse(Files.exists(zip));
        new ArchiveBuilder(root).add("inner-link").write(zip);
        try (Archive archive = Archive.open(zip)) {
            assertArrayEquals(TestTrees.text(10_000, 1), archive.read(archive.entry("inner-link").orElseThrow()));
        }
    }

    @Test
    void anUnreadableFileIsAClearError() throws IOException {
        Path root = tree(sample());
        Path file = root.resolve("b/text.txt");
        Files.setPosixFilePermissions(file, Set.of());
        Assumptions.assumeFalse(Files.isReadable(file),
                "running as root, which reads any file; skipping the permission test");
        IOException e = assertThrows(IOException.class,
                () -> new ArchiveBuilder(root).add("b/text.txt").write(dir.resolve("out.zip")));
        assertTrue(e.getMessage().contains("b/text.txt") && e.getMessage().contains("permission denied"));
    }

    @Test
    void theTimestampIsFixedUnlessSet() throws IOException {
        Map<String, byte[]> files = sample();
        Path root = tree(files);
        Path zip = dir.resolve("out.zip");
        new ArchiveBuilder(root).add("empty").write(zip);
        try (ZipFile z = new ZipFile(zip.toFile())) {
            assertEquals(ArchiveBuilder.DEFAULT_TIMESTAMP, z.getEntry("empty").getTimeLocal());
        }
        LocalDateTime when = LocalDateTime.of(2024, 5, 6, 7, 8, 10);
        new ArchiveBuilder(root).add("empty").timestamp(when).write(zip);
        try (ZipFile z = new ZipFile(zip.toFile())) {
            assertEquals(when, z.getEntry("empty").getTimeLocal());
        }
        assertThrows(IllegalArgumentException.class,
                () -> new ArchiveBuilder(root).timestamp(LocalDateTime.of(1979, 1, 1, 0, 0)));
    }

    private void assertOnlyTheTreeIsLeft() throws IOException {
        try (var listing = Files.list(dir)) {
            assertEquals(List.of(dir.resolve("root")), listing.toList());
        }
    }

    private static void assertMessage(Class<? extends Exception> type, String part,
                                      Executable action) {
        Exception e = assertThrows(type, action);
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
