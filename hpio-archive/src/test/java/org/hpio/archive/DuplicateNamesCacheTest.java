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

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Found by review (session 29): two entries of one name (an archive may hold them) shared one file-cache key, so a
 * load of the second by its record, after a load of the first, got the first's bytes from the cache.
 */
class DuplicateNamesCacheTest {
    @TempDir
    Path dir;

    @Test
    void twoEntriesOfOneNameAreCachedApart() throws Exception {
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
        try (FileCache cache = new FileCache(FileCacheConfig.of(1 << 20));
             Archive archive = Archive.open(dup, LoadOptions.defaults().withFileCache(cache))) {
            assertEquals("a", archive.entries().get(1).name());
            try (LoadedFile first = archive.load("a")) {
                assertEquals("AAAAA", new String(first.toByteArray(), StandardCharsets.US_ASCII));
            }
            try (LoadedFile other = archive.load(archive.entries().get(1))) {
                assertEquals("BBBBB", new String(other.toByteArray(), StandardCharsets.US_ASCII));
            }
        }
    }
}
