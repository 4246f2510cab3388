package org.hpio.archive;

import org.hpio.testing.DirectIo;
import org.hpio.archive.cache.FileCache;
import org.hpio.archive.cache.FileCacheConfig;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.PageCache;
import org.hpio.internal.sys.Syscalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link Archive#load}: the block pipeline (Deflate and stored, every block size and queue depth, O_DIRECT),
 * on archives that Info-ZIP, Python and java.util.zip write; CRC checks; the block cache; streaming; the file
 * cache.
 */
class ArchiveLoadTest {
    @TempDir
    Path dir;

    /** Files that cross block boundaries at every block size tested, and an empty one. */
    static Map<String, byte[]> files() {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("a/text.txt", TestTrees.text(300_001, 1));
        files.put("a/noise.bin", TestTrees.random(70_000, 2));
        files.put("b/small.txt", TestTrees.text(17, 3));
        files.put("b/empty", new byte[0]);
        files.put("c/mixed.bin", mixed(200_000, 4));
        for (int i = 0; i < 20; i++) {
            files.put("many/f" + i + ".txt", TestTrees.text(1_000 + 997 * i, 10 + i));
        }
        return files;
    }

    /** Half text, half noise: Deflate shrinks it somewhat. */
    static byte[] mixed(int size, int seed) {
        byte[] b = TestTrees.text(size, seed);
        byte[] noise = TestTrees.random(size / 2, seed);
        System.arraycopy(noise, 0, b, size / 4, noise.length);
        return b;
    }

    static void assertLoadsAll(Path zip, Map<String, byte[]> files, LoadOptions options) throws IOException {
        try (Archive archive = Archive.open(zip, options)) {
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                try (LoadedFile loaded = archive.load(f.getKey())) {
                    assertArrayEquals(f.getValue(), loaded.toByteArray(), f.getKey() + " with " + options);
                }
            }
            assertEquals(files.size(), archive.stats().loads());
        }
    }

    private Path build(Map<String, byte[]> files, String name, double minSavings) throws IOException {
        TestTrees.write(dir.resolve("tree"), files);
        Path zip = dir.resolve(name);
        new ArchiveBuilder(dir.resolve("tree")).minDeflateSavings(minSavings).addAll(files.keySet()).write(zip);
        return zip;
    }

    @Test
    void loadsEveryFileAtEveryBlockSizeAndQueueDepth() throws IOException {
        Map<String, byte[]> files = files();
        Path deflated = build(files, "deflate.zip", 0.0);
        Path stored = build(files, "stored.zip", 1.0);
        for (int blockSize : new int[]{4 << 10, 32 << 10, 128 << 10}) {
            for (int depth : new int[]{1, 4, 32}) {
                for (int cache : new int[]{0, 16}) {
                    for (int wholeRead : new int[]{0, LoadOptions.DEFAULT_WHOLE_READ_BYTES}) {
                        LoadOptions o = LoadOptions.defaults().withBlockSize(blockSize).withQueueDepth(depth)
                                .withBlockCacheBlocks(cache).withWholeReadBytes(wholeRead);
                        assertLoadsAll(deflated, files, o);
                        assertLoadsAll(stored, files, o);
                    }
                }
            }
        }
    }

    @Test
    void loadsWithODirect() throws IOException {
        Map<String, byte[]> files = files();
        Path deflated = build(files, "deflate.zip", 0.0);
        Path stored = build(files, "stored.zip", 1.0);
        DirectIo.assumeSupported(deflated);
        for (int blockSize : new int[]{4 << 10, 32 << 10}) {
            LoadOptions o = LoadOptions.defaults().withDirect(true).withBlockSize(blockSize);
            assertLoadsAll(deflated, files, o);
            assertLoadsAll(stored, files, o);
        }
    }

    /**
     * O_DIRECT reads of ranges already in the page cache go through it (cachestat): the same bytes, and only the
     * cold archive's reads bypass the cache.
     */
    @Test
    void directLoadsCopyCachedRangesFromThePageCache() throws IOException {
        Map<String, byte[]> files = files();
        Path stored = build(files, "stored.zip", 1.0);
        DirectIo.assumeSupported(stored);
        LoadOptions o = LoadOptions.defaults().withDirect(true);
        dropFromPageCache(stored);
        try (Archive archive = Archive.open(stored, o)) {
            assumeTrue(PageCache.supported(), "this kernel has no cachestat (Linux 6.5)");
            long before = archive.io().cachedReads();
            try (LoadedFile loaded = archive.load("a/text.txt")) {
                assertArrayEquals(files.get("a/text.txt"), loaded.toByteArray());
            }
            assertEquals(before, archive.io().cachedReads(), "a cold entry is read directly");
        }
        Files.readAllBytes(stored); // now every page is cached
        try (Archive archive = Archive.open(stored, o)) {
            long before = archive.io().cachedReads();
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                try (LoadedFile loaded = archive.load(f.getKey())) {
                    assertArrayEquals(f.getValue(), loaded.toByteArray(), f.getKey());
                }
            }
            assertTrue(archive.io().cachedReads() > before, "a warm archive's aligned reads come from the page cache");
        }
    }

    private static void dropFromPageCache(Path file) throws IOException {
        try (NativeFile f = NativeFile.open(file, Syscalls.O_RDONLY)) {
            f.force(false);
            f.advise(Syscalls.POSIX_FADV_DONTNEED);
        }
    }

    @Test
    void readsWhatInfoZipPythonAndTheJdkWrite() throws Exception {
        Map<String, byte[]> files = files();
        TestTrees.write(dir.resolve("tree"), files);
        List<Path> archives = new ArrayList<>();
        archives.add(jdkZip(files, dir.resolve("jdk.zip")));
        if (Tools.installed("zip")) {
            for (String level : List.of("-0", "-6")) {
                Path zip = dir.resolve("zip" + level + ".zip");
                assertEquals(0, Tools.run(dir.resolve("tree"), List.of("zip", "-r", "-q", level, zip.toString(), "."))
                        .exitCode());
                archives.add(zip);
            }
            Path piped = dir.resolve("piped.zip");
            assertEquals(0, Tools.run(dir.resolve("tree"), List.of("sh", "-c", "zip -q -r - . | cat > " + piped))
                    .exitCode());
            archives.add(piped);
        }
        if (Tools.installed("python3")) {
            for (String method : List.of("ZIP_STORED", "ZIP_DEFLATED")) {
                archives.add(pythonZip(method, true, dir.resolve("py-" + method + ".zip")));
            }
        }
        for (Path zip : archives) {
            assertLoadsAll(zip, files, LoadOptions.defaults());
            assertLoadsAll(zip, files, LoadOptions.defaults().withWholeReadBytes(0));
            assertLoadsAll(zip, files, LoadOptions.defaults().withBlockSize(4096).withQueueDepth(1));
        }
    }

    /** java.util.zip: Deflate entries with data descriptors, stored ones with sizes up front. */
    static Path jdkZip(Map<String, byte[]> files, Path target) throws IOException {
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(target))) {
            int i = 0;
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                ZipEntry e = new ZipEntry(f.getKey());
                if (i++ % 3 == 0) {
                    e.setMethod(ZipEntry.STORED);
                    e.setSize(f.getValue().length);
                    CRC32 crc = new CRC32();
                    crc.update(f.getValue());
                    e.setCrc(crc.getValue());
                }
                z.putNextEntry(e);
                z.write(f.getValue());
                z.closeEntry();
            }
        }
        return target;
    }

    /** Python's zipfile, Zip64 extra fields on every entry when {@code zip64}. */
    Path pythonZip(String method, boolean zip64, Path target) throws Exception {
        String script = "import zipfile,os,sys\n"
                + "with zipfile.ZipFile(sys.argv[1], 'w', zipfile." + method + ") as z:\n"
                + "  for d, _, fs in sorted(os.walk('.')):\n"
                + "    for f in sorted(fs):\n"
                + "      p = os.path.relpath(os.path.join(d, f))\n"
                + "      with open(p, 'rb') as src, z.open(p, 'w', force_zip64=" + (zip64 ? "True" : "False")
                + ") as dst: dst.write(src.read())\n";
        Tools.Result r = Tools.run(dir.resolve("tree"), List.of("python3", "-c", script, target.toString()));
        assertEquals(0, r.exitCode(), r.output());
        return target;
    }

    @Test
    void otherMethodsAreAClearError() throws Exception {
        Tools.assumeInstalled("python3", "python3");
        TestTrees.write(dir.resolve("tree"), Map.of("x.txt", TestTrees.text(5000, 1)));
        Path zip = dir.resolve("lzma.zip");
        Tools.Result r = Tools.run(dir.resolve("tree"), List.of("python3", "-c",
                "import zipfile,sys\nzipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_LZMA).write('x.txt')", zip.toString()));
        assertEquals(0, r.exitCode(), r.output());
        try (Archive archive = Archive.open(zip)) {
            IOException e = assertThrows(ArchiveFormatException.class, () -> archive.load("x.txt"));
            assertTrue(e.getMessage().endsWith("entry x.txt (local header at offset 0) uses lzma (method 14), which hpio "
                    + "does not read (it reads stored, Deflate, Zstandard and bzip2 entries)"), e.getMessage());
            assertThrows(ArchiveFormatException.class, () -> archive.stream("x.txt", c -> { }));
        }
    }

    @Test
    void aCorruptByteIsAnErrorNamingTheEntryAndNothingIsReturned() throws IOException {
        Map<String, byte[]> files = files();
        for (double savings : new double[]{0.0, 1.0}) {
            Path zip = build(files, "z" + savings + ".zip", savings);
            long at;
            try (Archive archive = Archive.open(zip)) {
                ArchiveEntry e = archive.entry("a/text.txt").orElseThrow();
                at = archive.dataOffset(e) + e.compressedSize() / 2;
            }
            byte[] bytes = Files.readAllBytes(zip);
            bytes[(int) at] ^= 0x10;
            Files.write(zip, bytes);
            try (Archive archive = Archive.open(zip)) {
                IOException e = assertThrows(ArchiveFormatException.class, () -> archive.load("a/text.txt"));
                assertTrue(e.getMessage().contains("entry a/text.txt"), e.getMessage());
                IOException s = assertThrows(ArchiveFormatException.class,
                        () -> archive.stream("a/text.txt", c -> { }));
                assertTrue(s.getMessage().contains("entry a/text.txt"), s.getMessage());
                try (LoadedFile other = archive.load("a/noise.bin")) {
                    assertArrayEquals(files.get("a/noise.bin"), other.toByteArray());
                }
            }
        }
    }

    @Test
    void theBlockCacheAbsorbsTheBlockNeighboursShare() throws IOException {
        Map<String, byte[]> files = TestTrees.texts(40, 9_000, 311);
        Path zip = build(files, "small.zip", 0.0);
        LoadStats with = loadInOrder(zip, files, 16);
        LoadStats without = loadInOrder(zip, files, 0);
        assertTrue(with.blockCacheHits() > 0, with.toString());
        assertEquals(0, without.blockCacheHits());
        assertTrue(with.bytesRead() < without.bytesRead(), with + " vs " + without);
        assertEquals(without.reads() - with.reads(), with.blockCacheHits(), "each hit saves one read");
        assertTrue(with.seeks() < without.seeks(), with + " vs " + without);
    }

    private static LoadStats loadInOrder(Path zip, Map<String, byte[]> files, int cacheBlocks) throws IOException {
        // the block cache serves the block pipeline (whole-buffer reads of neighbours do not overlap), which
        // these small entries take only when the blocking whole read is off
        try (Archive archive = Archive.open(zip, LoadOptions.defaults().withBlockSize(4096).withWholeReadBytes(0)
                .withBlockCacheBlocks(cacheBlocks).withInflation(LoadOptions.Inflation.BLOCKS))) {
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                try (LoadedFile loaded = archive.load(f.getKey())) {
                    assertArrayEquals(f.getValue(), loaded.toByteArray());
                }
            }
            return archive.stats();
        }
    }

    @Test
    void aLoadedFileIsAReadOnlyViewFreedOnClose() throws IOException {
        Map<String, byte[]> files = files();
        Path zip = build(files, "z.zip", 0.0);
        try (Archive archive = Archive.open(zip)) {
            LoadedFile f = archive.load("./a/text.txt");
            assertEquals(300_001, f.size());
            assertTrue(f.segment().isReadOnly());
            ByteBuffer b = f.buffer();
            assertThrows(ReadOnlyBufferException.class, () -> b.put(0, (byte) 1));
            assertEquals(files.get("a/text.txt")[1234], f.segment().get(ValueLayout.JAVA_BYTE, 1234));
            f.close();
            assertThrows(IllegalStateException.class, () -> f.segment().get(ValueLayout.JAVA_BYTE, 0));
            f.close();
        }
    }

    @Test
    void lookupsFindEveryNameAndRefuseOthers() throws IOException {
        Map<String, byte[]> files = files();
        Path zip = build(files, "z.zip", 0.0);
        try (Archive archive = Archive.open(zip)) {
            for (String name : files.keySet()) {
                assertTrue(archive.contains(name), name);
                assertEquals(name, archive.entry(name).orElseThrow().name());
            }
            assertFalse(archive.contains("a/missing"));
            assertThrows(NoSuchFileException.class, () -> archive.load("a/missing"));
            assertThrows(NoSuchFileException.class, () -> archive.load("../a/text.txt"));
            assertThrows(NoSuchFileException.class, () -> archive.load("/a/text.txt"));
        }
    }

    @Test
    void opensSeventyThousandEntriesWithZip64AndFindsEachByName() throws IOException {
        Path zip = dir.resolve("many.zip");
        int count = 70_000;
        try (ZipOutputStream z = new ZipOutputStream(new BufferedOutputStream(Files.newOutputStream(zip)))) {
            z.setLevel(1);
            for (int i = 0; i < count; i++) {
                z.putNextEntry(new ZipEntry("dir" + i % 100 + "/file-" + i + ".txt"));
                z.write(("content of " + i).getBytes());
                z.closeEntry();
            }
        }
        try (Archive archive = Archive.open(zip)) {
            assertEquals(count, archive.size());
            for (int i = 0; i < count; i += 997) {
                try (LoadedFile f = archive.load("dir" + i % 100 + "/file-" + i + ".txt")) {
                    assertEquals("content of " + i, new String(f.toByteArray()));
                }
            }
        }
    }

    @Test
    void nonAsciiNamesAreFoundUnderTheirDecodedName() throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("grüße/ünïcode.txt", TestTrees.text(100, 1));
        files.put("日本/語.txt", TestTrees.text(200, 2));
        Path zip = jdkZip(files, dir.resolve("u.zip"));
        assertLoadsAll(zip, files, LoadOptions.defaults());
    }

    @Test
    void streamsALargeFileInChunksWithBoundedMemory() throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("big.bin", mixed(5_000_000, 9));
        for (double savings : new double[]{0.0, 1.0}) {
            Path zip = build(files, "big" + savings + ".zip", savings);
            try (Archive archive = Archive.open(zip)) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                int[] chunks = {0};
                archive.stream("big.bin", chunk -> {
                    assertTrue(chunk.isReadOnly());
                    assertTrue(chunk.remaining() <= 256 << 10);
                    byte[] b = new byte[chunk.remaining()];
                    chunk.get(b);
                    out.write(b);
                    chunks[0]++;
                });
                assertArrayEquals(files.get("big.bin"), out.toByteArray());
                assertTrue(chunks[0] >= 5_000_000 / (256 << 10), "chunks: " + chunks[0]);
            }
        }
    }

    @Test
    void aFileCacheServesRepeatedLoads() throws IOException {
        Map<String, byte[]> files = files();
        Path zip = build(files, "z.zip", 0.0);
        try (FileCache cache = new FileCache(FileCacheConfig.of(8 << 20));
             Archive archive = Archive.open(zip, LoadOptions.defaults().withFileCache(cache))) {
            for (int round = 0; round < 2; round++) {
                try (LoadedFile f = archive.load("c/mixed.bin")) {
                    assertArrayEquals(files.get("c/mixed.bin"), f.toByteArray());
                }
            }
            assertEquals(1, cache.stats().hits());
            assertEquals(1, cache.stats().misses());
        }
    }

    @Test
    void loadIntoFillsTheCallersMemory() throws IOException {
        Map<String, byte[]> files = files();
        Path zip = build(files, "z.zip", 1.0);
        try (Archive archive = Archive.open(zip); var arena = Arena.ofConfined()) {
            ArchiveEntry e = archive.entry("a/noise.bin").orElseThrow();
            var memory = arena.allocate(e.uncompressedSize());
            archive.loadInto(e, memory);
            assertArrayEquals(files.get("a/noise.bin"), memory.toArray(ValueLayout.JAVA_BYTE));
            assertThrows(IllegalArgumentException.class, () -> archive.loadInto(e, arena.allocate(3)));
        }
    }

    static OutputStream sink() {
        return OutputStream.nullOutputStream();
    }
}
