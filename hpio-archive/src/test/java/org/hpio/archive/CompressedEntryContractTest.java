package org.hpio.archive;

import org.hpio.archive.cache.FileCache;
import org.hpio.archive.cache.FileCacheConfig;
import org.hpio.internal.sys.Libzstd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * One contract for stored, Deflate and Zstandard entries (issue 20): every way of reading an entry (the blocking
 * whole read, the block pipeline inflating whole or per block, a file cache, {@code loadInto}, {@code stream},
 * {@code openStream}, the look-ahead loader) gives the same bytes, and a damaged entry the same error.
 */
class CompressedEntryContractTest {
    @TempDir
    Path dir;

    /** A small entry (one blocking read), a large one (the block pipeline), and one stored (random bytes). */
    static Map<String, byte[]> files() {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("small.txt", TestTrees.text(30_000, 1));
        files.put("large/text.txt", large());
        files.put("noise.bin", TestTrees.random(200_000, 3));
        return files;
    }

    /** About 2 MB, compressed to about 700 KB: text with random stretches, so that it spans many blocks. */
    private static byte[] large() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < 30; i++) {
            out.writeBytes(TestTrees.text(50_000, i));
            out.writeBytes(TestTrees.random(20_000, i));
        }
        return out.toByteArray();
    }

    private Path build(String method) throws IOException {
        if (method.equals("zstd")) {
            assumeTrue(Libzstd.available(), "libzstd missing (install Debian's libzstd1): "
                    + Libzstd.unavailableReason());
        }
        TestTrees.write(dir.resolve("tree"), files());
        ArchiveBuilder b = new ArchiveBuilder(dir.resolve("tree")).addAll(files().keySet());
        Path zip = dir.resolve(method + ".zip");
        (method.equals("zstd") ? b.zstdLevel(3) : b).write(zip);
        return zip;
    }

    /** Each way of reading {@code name}, by what it is called, giving the bytes or the message of the failure. */
    static Map<String, String> everyWay(Path zip, String name) throws IOException {
        Map<String, String> results = new LinkedHashMap<>();
        Map<String, LoadOptions> loads = new LinkedHashMap<>();
        loads.put("load: whole read", LoadOptions.defaults());
        loads.put("load: block pipeline", LoadOptions.defaults().withWholeReadBytes(0));
        loads.put("load: per-block", LoadOptions.defaults().withWholeReadBytes(0)
                .withInflation(LoadOptions.Inflation.BLOCKS));
        loads.put("load: whole read, Inflater", LoadOptions.defaults().withInflation(LoadOptions.Inflation.BLOCKS));
        for (Map.Entry<String, LoadOptions> load : loads.entrySet()) {
            try (Archive a = Archive.open(zip, load.getValue())) {
                results.put(load.getKey(), outcome(() -> {
                    try (LoadedFile f = a.load(name)) {
                        return f.segment().toArray(ValueLayout.JAVA_BYTE);
                    }
                }));
            }
        }
        try (FileCache cache = new FileCache(FileCacheConfig.of(16 << 20));
             Archive a = Archive.open(zip, LoadOptions.defaults().withFileCache(cache))) {
            results.put("file cache", outcome(() -> {
                try (LoadedFile f = a.load(name)) {
                    return f.segment().toArray(ValueLayout.JAVA_BYTE);
                }
            }));
        }
        try (Archive a = Archive.open(zip)) {
            ArchiveEntry entry = a.entry(name).orElseThrow();
            results.put("loadInto", outcome(() -> {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment to = arena.allocate(Math.max(1, entry.uncompressedSize()))
                            .asSlice(0, entry.uncompressedSize());
                    a.loadInto(entry, to);
                    return to.toArray(ValueLayout.JAVA_BYTE);
                }
            }));
            results.put("stream", outcome(() -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                a.stream(name, chunk -> {
                    byte[] b = new byte[chunk.remaining()];
                    chunk.get(b);
                    out.write(b);
                });
                return out.toByteArray();
            }));
            results.put("openStream", outcome(() -> {
                try (InputStream in = a.openStream(entry)) {
                    return in.readAllBytes();
                }
            }));
            // reads of 64 KiB: a large Zstandard entry is decoded as its pieces arrive (ArrivingZstd)
            Map<String, LookAhead> aheads = Map.of("look-ahead loader", LookAhead.defaults(),
                    "look-ahead loader, reads of 64 KiB", LookAhead.defaults().withReadBytes(64 << 10));
            aheads.forEach((way, ahead) -> results.put(way, outcome(() -> {
                try (ArchiveLoader loader = a.loader(List.of(name), ahead); LoadedFile f = loader.next()) {
                    return f.segment().toArray(ValueLayout.JAVA_BYTE);
                }
            })));
        }
        return results;
    }

    private interface Read {
        byte[] bytes() throws IOException;
    }

    /** The bytes as hex of their hash and length, or "error: " and the message. */
    private static String outcome(Read read) {
        try {
            byte[] b = read.bytes();
            return "bytes: " + b.length + " " + Arrays.hashCode(b);
        } catch (IOException e) {
            return "error: " + e.getMessage();
        }
    }

    static String expected(byte[] b) {
        return "bytes: " + b.length + " " + Arrays.hashCode(b);
    }

    @ParameterizedTest
    @ValueSource(strings = {"deflate", "zstd"})
    void everyPathGivesTheSameBytes(String method) throws IOException {
        Path zip = build(method);
        try (Archive a = Archive.open(zip)) {
            assertEquals(method.equals("zstd") ? ArchiveEntry.ZSTD : ArchiveEntry.DEFLATED,
                    a.entry("large/text.txt").orElseThrow().method());
            assertEquals(ArchiveEntry.STORED, a.entry("noise.bin").orElseThrow().method());
            if (method.equals("zstd")) {
                assertEquals(Libzstd.stableOutputSupported(),
                        ArrivingZstd.applies(a.entry("large/text.txt").orElseThrow(), 64 << 10),
                        "the loader's 64 KiB reads decode the large entry as it arrives where libzstd allows");
            }
        }
        for (Map.Entry<String, byte[]> file : files().entrySet()) {
            Map<String, String> results = everyWay(zip, file.getKey());
            results.forEach((way, result) -> assertEquals(expected(file.getValue()), result,
                    method + ", " + way + ": " + file.getKey()));
        }
    }

    /** The zstd archive with entry {@code name}'s compressed data changed by {@code damage}. */
    private Path damaged(String name, BiConsumer<ByteBuffer, long[]> damage) throws IOException {
        Path zip = build("zstd");
        long[] where;
        try (Archive a = Archive.open(zip)) {
            ArchiveEntry e = a.entry(name).orElseThrow();
            ByteBuffer local = ByteBuffer.wrap(Files.readAllBytes(zip)).order(ByteOrder.LITTLE_ENDIAN);
            long data = e.localHeaderOffset() + ZipFormat.LOCAL_HEADER_SIZE
                    + Short.toUnsignedInt(local.getShort((int) e.localHeaderOffset() + 26))
                    + Short.toUnsignedInt(local.getShort((int) e.localHeaderOffset() + 28));
            where = new long[]{data, e.compressedSize()};
            damage.accept(local, where);
            Path bad = dir.resolve("bad.zip");
            Files.write(bad, local.array());
            return bad;
        }
    }

    /** Asserts every way fails with the same message, which says {@code says}; returns it. */
    static String assertSameErrorEveryWay(Path zip, String name, String... says) throws IOException {
        Map<String, String> results = everyWay(zip, name);
        String first = results.values().iterator().next();
        assertTrue(first.startsWith("error: "), first);
        for (String part : says) {
            assertTrue(first.contains(part), first + " should say " + part);
        }
        results.forEach((way, result) -> assertEquals(first, result, way));
        return first;
    }

    /** Damage at the frame's start (its header and first block header) or in the middle of its data. */
    @ParameterizedTest
    @ValueSource(strings = {"small.txt:start", "small.txt:middle", "large/text.txt:start", "large/text.txt:middle",
            "large/text.txt:end"})
    void aCorruptedZstandardEntryFailsTheSameEveryWay(String nameAndWhere) throws IOException {
        String name = nameAndWhere.substring(0, nameAndWhere.indexOf(':'));
        String where = nameAndWhere.substring(name.length() + 1);
        Path zip = damaged(name, (b, at) -> {
            int from = (int) switch (where) {
                case "start" -> at[0] + 4;
                case "middle" -> at[0] + at[1] / 2;
                default -> at[0] + at[1] - 40;
            };
            for (int i = 0; i < 32; i++) {
                b.put(from + i, (byte) ~b.get(from + i));
            }
        });
        // libzstd finds damage to the frame's structure; damage to literal bytes only the CRC-32 can
        String error = assertSameErrorEveryWay(zip, name, "bad.zip", "entry " + name);
        String says = switch (nameAndWhere) {
            case "large/text.txt:end" -> "CRC-32";
            case "large/text.txt:middle" -> error.contains("CRC-32") ? "CRC-32" : "bad Zstandard data";
            default -> "bad Zstandard data";
        };
        assertTrue(error.contains(says), error);
    }

    @Test
    void aZstandardEntryWhoseCrcLiesFailsTheSameEveryWay() throws IOException {
        Path zip = build("zstd");
        byte[] b = Files.readAllBytes(zip);
        try (Archive a = Archive.open(zip)) {
            HostileArchiveTest.Zip z = HostileArchiveTest.Zip.of(b);
            z.putInt(z.headers()[1] + 16, a.entry("large/text.txt").orElseThrow().crc() ^ 1);
        }
        Path bad = dir.resolve("bad.zip");
        Files.write(bad, b);
        assertSameErrorEveryWay(bad, "large/text.txt", "entry large/text.txt (local header at offset", "has CRC-32");
    }

    /**
     * The central directory's uncompressed size of the large entry (and its local header's) one byte short of
     * the frame's, or one byte over: the frame overruns its destination, or ends before filling it.
     */
    @ParameterizedTest
    @ValueSource(ints = {-1, 1})
    void aLargeZstandardEntryWhoseSizeIsOffByOneFailsTheSameEveryWay(int delta) throws IOException {
        Path zip = build("zstd");
        byte[] b = Files.readAllBytes(zip);
        try (Archive a = Archive.open(zip)) {
            HostileArchiveTest.Zip z = HostileArchiveTest.Zip.of(b);
            long size = a.entry("large/text.txt").orElseThrow().uncompressedSize();
            z.putInt(z.headers()[1] + 24, size + delta);
        }
        Path bad = dir.resolve("bad.zip");
        Files.write(bad, b);
        assertSameErrorEveryWay(bad, "large/text.txt", "entry large/text.txt");
    }

    @Test
    void aZstandardEntryWhoseSizeLiesIsRefusedBeforeAllocating() throws IOException {
        Path zip = build("zstd");
        byte[] b = Files.readAllBytes(zip);
        HostileArchiveTest.Zip z = HostileArchiveTest.Zip.of(b);
        z.putInt(z.headers()[0] + 24, 0xffff_fff0L);
        Path bad = dir.resolve("bad.zip");
        Files.write(bad, b);
        assertSameErrorEveryWay(bad, "small.txt", "claims 4294967280 bytes", "more than Zstandard can expand");
    }
}
