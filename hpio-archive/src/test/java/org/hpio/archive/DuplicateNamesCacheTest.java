package org.hpio.archive;

import org.hpio.archive.cache.FileCache;
import org.hpio.archive.cache.FileCacheConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two entries of one name (an archive may hold them). Found by review (session 29): they shared one file-cache
 * key, so a load of the second by its record, after a load of the first, got the first's bytes from the cache.
 * And a load by name takes the last of them, as java.util.zip does (session 30: it took the first).
 */
class DuplicateNamesCacheTest {
    @TempDir
    Path dir;

    @Test
    void twoEntriesOfOneNameAreCachedApart() throws Exception {
        Path dup = archiveWithTwoEntriesNamedA();
        try (FileCache cache = new FileCache(FileCacheConfig.of(1 << 20));
             Archive archive = Archive.open(dup, LoadOptions.defaults().withFileCache(cache))) {
            assertEquals("a", archive.entries().get(1).name());
            try (LoadedFile byName = archive.load("a")) {   // the last of the name, as java.util.zip's getEntry
                assertEquals("BBBBB", new String(byName.toByteArray(), StandardCharsets.US_ASCII));
            }
            try (LoadedFile first = archive.load(archive.entries().get(0))) {
                assertEquals("AAAAA", new String(first.toByteArray(), StandardCharsets.US_ASCII));
            }
            try (LoadedFile second = archive.load(archive.entries().get(1))) {
                assertEquals("BBBBB", new String(second.toByteArray(), StandardCharsets.US_ASCII));
            }
        }
    }

    /** A load by name takes the entry java.util.zip's {@code ZipFile.getEntry} and the Zip file system take: the last. */
    @Test
    void aLoadByNameTakesTheLastOfTheNameAsJavaUtilZipDoes() throws Exception {
        Path dup = archiveWithTwoEntriesNamedA();
        String jdk;
        try (ZipFile zip = new ZipFile(dup.toFile())) {
            jdk = new String(zip.getInputStream(zip.getEntry("a")).readAllBytes(), StandardCharsets.US_ASCII);
        }
        try (Archive archive = Archive.open(dup);
             LoadedFile byName = archive.load("a")) {
            assertEquals(jdk, new String(byName.toByteArray(), StandardCharsets.US_ASCII));
            assertEquals(archive.entries().get(1), archive.entry("a").orElseThrow());
        }
    }

    /** An archive of two entries, "a" (AAAAA) and a second renamed "a" (BBBBB) in both of its headers. */
    private Path archiveWithTwoEntriesNamedA() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("a", "AAAAA".getBytes(StandardCharsets.US_ASCII));
        files.put("b", "BBBBB".getBytes(StandardCharsets.US_ASCII));
        TestTrees.write(dir.resolve("tree"), files);
        Path zip = dir.resolve("dup.zip");
        new ArchiveBuilder(dir.resolve("tree")).addAll(files.keySet()).write(zip);
        byte[] bytes = Files.readAllBytes(zip);
        HostileArchiveTest.Zip z = HostileArchiveTest.Zip.of(bytes);
        int second = z.headers()[1];
        int local = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(second + 42);
        bytes[second + ZipFormat.CENTRAL_HEADER_SIZE] = 'a';   // the second entry's name, in both of its headers
        bytes[local + 30] = 'a';
        Path dup = dir.resolve("renamed.zip");
        Files.write(dup, bytes);
        return dup;
    }
}
