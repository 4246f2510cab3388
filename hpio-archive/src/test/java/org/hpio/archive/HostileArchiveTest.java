package org.hpio.archive;

import org.hpio.archive.cache.FileCache;
import org.hpio.archive.cache.FileCacheConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hand-made hostile archives, one per kind of lie: each is refused with a clear message that says what and
 * where, before any allocation the archive's size does not justify.
 */
class HostileArchiveTest {
    @TempDir
    Path dir;

    /** A small archive, its bytes, and where its records are. */
    record Zip(byte[] bytes, int directory, int[] headers) {
        static Zip of(byte[] bytes) {
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            int end = bytes.length - ZipFormat.END_SIZE;
            int directory = b.getInt(end + 16);
            int count = Short.toUnsignedInt(b.getShort(end + 10));
            int[] headers = new int[count];
            for (int i = 0, p = directory; i < count; i++) {
                headers[i] = p;
                p += ZipFormat.CENTRAL_HEADER_SIZE + Short.toUnsignedInt(b.getShort(p + 28))
                        + Short.toUnsignedInt(b.getShort(p + 30)) + Short.toUnsignedInt(b.getShort(p + 32));
            }
            return new Zip(bytes, directory, headers);
        }

        int end() {
            return bytes.length - ZipFormat.END_SIZE;
        }

        Zip putInt(int at, long value) {
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(at, (int) value);
            return this;
        }

        Zip putShort(int at, int value) {
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putShort(at, (short) value);
            return this;
        }
    }

    static Map<String, byte[]> files() {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("aa/one.txt", TestTrees.text(40_000, 1));
        files.put("aa/two.bin", TestTrees.random(5_000, 2));
        files.put("three.txt", TestTrees.text(3_000, 3));
        return files;
    }

    private Zip build() throws IOException {
        TestTrees.write(dir.resolve("tree"), files());
        Path zip = dir.resolve("good.zip");
        new ArchiveBuilder(dir.resolve("tree")).addAll(files().keySet()).write(zip);
        return Zip.of(Files.readAllBytes(zip));
    }

    private String openFails(Zip zip) throws IOException {
        Path file = dir.resolve("bad.zip");
        Files.write(file, zip.bytes());
        return assertThrows(ArchiveFormatException.class, () -> Archive.open(file).close()).getMessage();
    }

    /**
     * The message of the failed load of {@code name}, the same from the blocking whole read of a small entry,
     * from the asynchronous block pipeline, and into a file cache.
     */
    private String loadFails(Zip zip, String name) throws IOException {
        Path file = dir.resolve("bad.zip");
        Files.write(file, zip.bytes());
        String whole = loadFails(file, name, LoadOptions.defaults());
        assertEquals(whole, loadFails(file, name, LoadOptions.defaults().withWholeReadBytes(0)), "block pipeline");
        assertEquals(whole, loadFails(file, name, LoadOptions.defaults().withInflation(LoadOptions.Inflation.BLOCKS)
                .withWholeReadBytes(0)), "per-block inflation");
        try (FileCache cache = new FileCache(
                FileCacheConfig.of(1 << 20))) {
            assertEquals(whole, loadFails(file, name, LoadOptions.defaults().withFileCache(cache)), "file cache");
        }
        return whole;
    }

    private static String loadFails(Path file, String name, LoadOptions options) throws IOException {
        try (Archive archive = Archive.open(file, options)) {
            return assertThrows(ArchiveFormatException.class, () -> archive.load(name).close()).getMessage();
        }
    }

    private static void assertSays(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "'" + message + "' should say '" + part + "'");
        }
    }

    @Test
    void aLocalHeaderOffsetOutsideTheFile() throws IOException {
        Zip z = build();
        assertSays(openFails(z.putInt(z.headers()[1] + 42, 0x7fff_0000L)), "bad.zip", "entry aa/two.bin",
                "offset 2147418112", "outside the entry data");
    }

    @Test
    void twoEntriesSharingOneLocalHeaderOverlap() throws IOException {
        Zip z = build();
        ByteBuffer b = ByteBuffer.wrap(z.bytes()).order(ByteOrder.LITTLE_ENDIAN);
        assertSays(openFails(z.putInt(z.headers()[2] + 42, b.getInt(z.headers()[1] + 42))), "overlaps");
    }

    @Test
    void aCompressedSizeRunningIntoTheNextEntry() throws IOException {
        Zip z = build();
        assertSays(openFails(z.putInt(z.headers()[0] + 20, 2_000)), "entry aa/one.txt", "overlaps");
    }

    @Test
    void anUncompressedSizeThatLies() throws IOException {
        Zip z = build();
        assertSays(loadFails(z.putInt(z.headers()[0] + 24, 40_001), "aa/one.txt"), "entry aa/one.txt",
                "the directory says 40001");
        Zip small = build();
        assertSays(loadFails(small.putInt(small.headers()[0] + 24, 39_999), "aa/one.txt"), "entry aa/one.txt",
                "more than its size of 39999");
    }

    @Test
    void aHugeClaimedSizeIsRefusedBeforeAllocating() throws IOException {
        Zip z = build();
        assertSays(loadFails(z.putInt(z.headers()[0] + 24, 0xffff_fff0L), "aa/one.txt"), "entry aa/one.txt",
                "claims 4294967280 bytes", "more than Deflate can expand");
    }

    @Test
    void theLookAheadLoaderRefusesLyingSizesForTheirPositionOnly() throws IOException {
        Zip z = build();
        z.putInt(z.headers()[0] + 24, 0xffff_fff0L);   // aa/one.txt claims 4 GiB
        Path file = dir.resolve("bad.zip");
        Files.write(file, z.bytes());
        try (Archive archive = Archive.open(file);
             ArchiveLoader loader = archive.loader(List.of("aa/one.txt", "three.txt"), LookAhead.defaults())) {
            assertSays(assertThrows(ArchiveFormatException.class, loader::next).getMessage(), "entry aa/one.txt",
                    "claims 4294967280 bytes");
            try (LoadedFile three = loader.next()) {
                assertArrayEquals(files().get("three.txt"), three.segment().toArray(ValueLayout.JAVA_BYTE));
            }
        }
    }

    @Test
    void aStoredEntryWhoseSizesDiffer() throws IOException {
        Zip z = build();
        assertSays(loadFails(z.putInt(z.headers()[1] + 24, 5_001), "aa/two.bin"), "entry aa/two.bin",
                "is stored but says 5001 bytes in 5000");
    }

    @Test
    void aHugeEntryCount() throws IOException {
        Zip z = build();
        assertSays(openFails(z.putShort(z.end() + 10, 0xffff).putShort(z.end() + 8, 0xffff)),
                "central directory of 65535 entries", "does not fit");
    }

    @Test
    void aDirectoryOffsetBeyondTheFile() throws IOException {
        Zip z = build();
        assertSays(openFails(z.putInt(z.end() + 16, 0x7000_0000L)), "central directory", "does not fit");
    }

    @Test
    void pathsWithDotDotOrAbsolute() throws IOException {
        Zip z = build();
        String bytes = new String(z.bytes(), StandardCharsets.ISO_8859_1).replace("aa/one.txt", "../one.txt");
        assertSays(openFails(Zip.of(bytes.getBytes(StandardCharsets.ISO_8859_1))), "unsafe name '../one.txt'",
                "leaves the archive root");
        Zip abs = build();
        String slash = new String(abs.bytes(), StandardCharsets.ISO_8859_1).replace("aa/one.txt", "/a/one.txt");
        assertSays(openFails(Zip.of(slash.getBytes(StandardCharsets.ISO_8859_1))), "an absolute path");
    }

    @Test
    void aLocalNameThatDiffersFromTheDirectory() throws IOException {
        Zip z = build();
        byte[] b = z.bytes();
        b[ZipFormat.LOCAL_HEADER_SIZE] = 'b'; // first local header's name: "aa/one.txt" -> "ba/one.txt"
        assertSays(loadFails(z, "aa/one.txt"), "local header of entry aa/one.txt names 'ba/one.txt'");
    }

    @Test
    void anArchiveCutShort() throws IOException {
        Zip z = build();
        byte[] cut = Arrays.copyOf(z.bytes(), z.directory() + 20);
        assertSays(openFails(new Zip(cut, 0, new int[0])), "no end of central directory record");
    }

    /** {@code zip} with {@code inserted} put just before its end of central directory record. */
    private static Zip insertBeforeEnd(Zip zip, byte[] inserted) {
        byte[] b = new byte[zip.bytes().length + inserted.length];
        System.arraycopy(zip.bytes(), 0, b, 0, zip.end());
        System.arraycopy(inserted, 0, b, zip.end(), inserted.length);
        System.arraycopy(zip.bytes(), zip.end(), b, zip.end() + inserted.length, ZipFormat.END_SIZE);
        return new Zip(b, zip.directory(), zip.headers());
    }

    @Test
    void aZip64LocatorThatDoesNotCheckOutIsRefusedWhenTheEndRecordNeedsZip64() throws IOException {
        byte[] locator = ZipFormat.littleEndian(ZipFormat.ZIP64_LOCATOR_SIZE).putInt(ZipFormat.ZIP64_LOCATOR)
                .putInt(0).putLong(0).putInt(1).array();
        Zip z = insertBeforeEnd(build(), locator);
        assertSays(openFails(z.putShort(z.end() + 10, 0xffff).putShort(z.end() + 8, 0xffff)),
                "bad.zip", "no Zip64 end of central directory record at offset 0 where the locator points");
    }

    @Test
    void aZip64LocatorThatDoesNotCheckOutIsOtherBytesWhenTheEndRecordNeedsNone() throws IOException {
        byte[] locator = ZipFormat.littleEndian(ZipFormat.ZIP64_LOCATOR_SIZE).putInt(ZipFormat.ZIP64_LOCATOR)
                .putInt(0).putLong(0).putInt(1).array();
        Path file = dir.resolve("odd.zip");
        Files.write(file, insertBeforeEnd(build(), locator).bytes());
        try (Archive archive = Archive.open(file); LoadedFile three = archive.load("three.txt")) {
            assertArrayEquals(files().get("three.txt"), three.segment().toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void aTrailerAfterAnEndRecordThatDoesNotCheckOutIsRefused() throws IOException {
        Zip z = build();
        z.putInt(z.end() + 16, 0x7000_0000L);
        byte[] trailed = Arrays.copyOf(z.bytes(), z.bytes().length + 100);
        assertSays(openFails(new Zip(trailed, z.directory(), z.headers())), "bad.zip", "central directory",
                "at offset 1879048192", "does not fit");
    }

    @Test
    void anEndRecordWhoseDirectoryHasNoCentralHeaderIsRefused() throws IOException {
        Zip z = build();
        assertSays(openFails(z.putInt(z.end() + 16, z.directory() - 4)), "bad.zip",
                "central directory entry 0 at offset " + (z.directory() - 4), "no central header signature");
    }

    @Test
    void aFakeEndRecordInTheCommentLosesToTheOneThatChecksOut() throws IOException {
        Zip z = build();
        byte[] fake = Arrays.copyOfRange(z.bytes(), z.end(), z.end() + ZipFormat.END_SIZE);
        ByteBuffer.wrap(fake).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 0x7000_0000).putShort(20, (short) 0);
        byte[] b = Arrays.copyOf(z.bytes(), z.bytes().length + fake.length);
        System.arraycopy(fake, 0, b, z.bytes().length, fake.length);
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(z.end() + 20, (short) fake.length);
        Path file = dir.resolve("comment.zip");
        Files.write(file, b);
        try (Archive archive = Archive.open(file)) {
            assertEquals(List.of(), archive.verifyAll());
            assertEquals(List.of(), archive.warnings());
        }
    }

    /**
     * An end record counting fewer entries than the directory holds (an archive of more than 65,535 entries
     * written without Zip64 stores the count modulo 65,536): every header within the directory's size is read,
     * as java.util.zip, Python's zipfile and Info-ZIP read them (session 29: hpio read only the count).
     */
    @Test
    void anEndRecordCountingTooFewEntriesStillGivesEveryEntry() throws Exception {
        Zip z = build();
        z.putShort(z.end() + 8, 1).putShort(z.end() + 10, 1);
        Path file = dir.resolve("undercounted.zip");
        Files.write(file, z.bytes());
        try (ZipFile jdk = new ZipFile(file.toFile()); Archive archive = Archive.open(file)) {
            assertEquals(3, jdk.size());
            assertEquals(3, archive.entries().size());
            try (LoadedFile f = archive.load("three.txt")) {
                assertArrayEquals(files().get("three.txt"), f.toByteArray());
            }
        }
    }
}
