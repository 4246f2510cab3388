package org.hpio.archive;

import org.hpio.archive.cache.FileCache;
import org.hpio.archive.cache.FileCacheConfig;
import org.hpio.internal.sys.Libzstd;
import org.hpio.testing.DirectIo;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * One contract over every path that loads an archive's files (issue 18): {@link Archive#load} with each
 * {@link LoadOptions.Inflation} (by the blocking whole read of small entries and by the asynchronous block
 * pipeline), with O_DIRECT, through a {@link FileCache}, {@link Archive#loadInto}, {@link Archive#stream},
 * {@link Archive#openStream}, the look-ahead {@link ArchiveLoader} and a {@link MountTable}. Every path gives
 * the same bytes for good archives (Deflate, stored, Zstandard where libzstd is); refuses each hostile archive's
 * damaged entry with an {@link ArchiveFormatException} naming the archive, the entry and what is wrong where,
 * while the archive's other entries still load right; and over the fuzz corpus (ArchiveOpenFuzzTest's seeds)
 * gives what {@link Archive#openStream} reads, or fails with an IOException naming the archive where it cannot.
 * No path may throw anything else.
 */
class LoadPathContractTest {
    @TempDir
    Path dir;

    /** What one path made of one file: its bytes, or the IOException it failed with. */
    record Outcome(byte[] bytes, IOException failure) {
    }

    /** A way of loading files: each of {@code names} of {@code zip}, in order, to its outcome. */
    enum LoadPath {
        LOAD_WHOLE_READ(options().withInflation(LoadOptions.Inflation.WHOLE)),
        LOAD_WHOLE_READ_JDK(options().withInflation(LoadOptions.Inflation.WHOLE_JDK)),
        LOAD_INFLATE_WHOLE(options().withWholeReadBytes(0)),
        LOAD_INFLATE_WHOLE_JDK(options().withWholeReadBytes(0).withInflation(LoadOptions.Inflation.WHOLE_JDK)),
        LOAD_INFLATE_PER_BLOCK(options().withWholeReadBytes(0).withInflation(LoadOptions.Inflation.BLOCKS)),
        LOAD_DIRECT(options().withDirect(true)),
        LOAD_INTO(options()),
        FILE_CACHE(options()),
        STREAM(options()),
        OPEN_STREAM(options()),
        LOOK_AHEAD_LOADER(options()),
        MOUNT_TABLE(options());

        final LoadOptions options;

        LoadPath(LoadOptions options) {
            this.options = options;
        }

        /** Small blocks, so that the test files span many of them. */
        private static LoadOptions options() {
            return LoadOptions.defaults().withBlockSize(LoadOptions.MIN_BLOCK_SIZE);
        }

        Map<String, Outcome> load(Path zip, List<String> names) throws IOException {
            Map<String, Outcome> out = new LinkedHashMap<>();
            switch (this) {
                case LOOK_AHEAD_LOADER -> loadAhead(zip, names, out);
                case MOUNT_TABLE -> {
                    try (MountTable table = new MountTable(options).mountArchive(zip)) {
                        for (String name : names) {
                            out.put(name, outcome(() -> bytesOf(table.load(name))));
                        }
                    }
                }
                case FILE_CACHE -> {
                    try (FileCache cache = new FileCache(FileCacheConfig.of(16 << 20));
                         Archive a = Archive.open(zip, options.withFileCache(cache))) {
                        for (String name : names) {
                            out.put(name, outcome(() -> bytesOf(a.load(name))));
                        }
                    }
                }
                default -> {
                    try (Archive a = Archive.open(zip, options)) {
                        for (String name : names) {
                            out.put(name, outcome(() -> loadOne(a, name)));
                        }
                    }
                }
            }
            return out;
        }

        private byte[] loadOne(Archive a, String name) throws IOException {
            return switch (this) {
                case LOAD_INTO -> loadInto(a, name);
                case STREAM -> stream(a, name);
                case OPEN_STREAM -> {
                    try (InputStream in = a.openStream(a.entry(name).orElseThrow())) {
                        yield in.readAllBytes();
                    }
                }
                default -> bytesOf(a.load(name));
            };
        }

        private void loadAhead(Path zip, List<String> names, Map<String, Outcome> out) throws IOException {
            try (Archive a = Archive.open(zip, options);
                 ArchiveLoader loader = a.loader(names, LookAhead.defaults())) {
                for (String name : names) {
                    out.put(name, outcome(() -> bytesOf(loader.next())));
                }
            }
        }

        private static byte[] loadInto(Archive a, String name) throws IOException {
            ArchiveEntry entry = a.entry(name).orElseThrow();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment to = arena.allocate(Math.max(1, entry.uncompressedSize()))
                        .asSlice(0, entry.uncompressedSize());
                a.loadInto(entry, to);
                return to.toArray(ValueLayout.JAVA_BYTE);
            }
        }

        private static byte[] stream(Archive a, String name) throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            a.stream(name, chunk -> {
                byte[] b = new byte[chunk.remaining()];
                chunk.get(b);
                out.write(b);
            });
            return out.toByteArray();
        }

        private static byte[] bytesOf(LoadedFile f) {
            try (f) {
                return f.segment().toArray(ValueLayout.JAVA_BYTE);
            }
        }
    }

    private interface Read {
        byte[] bytes() throws IOException;
    }

    /** The bytes, or the IOException; anything else thrown fails the test, as the contract says. */
    private static Outcome outcome(Read read) {
        try {
            return new Outcome(read.bytes(), null);
        } catch (IOException e) {
            return new Outcome(null, e);
        }
    }

    /** The outcomes of {@code path} over {@code names}; skips O_DIRECT where the file system refuses it. */
    private static Map<String, Outcome> load(LoadPath path, Path zip, List<String> names) throws IOException {
        if (path == LoadPath.LOAD_DIRECT) {
            DirectIo.assumeSupported(zip);
        }
        return path.load(zip, names);
    }

    // ---- good archives ----

    @ParameterizedTest
    @EnumSource(LoadPath.class)
    void everyPathGivesTheBytesOfEveryFile(LoadPath path) throws IOException {
        Map<String, byte[]> files = ArchiveLoadTest.files();
        List<Path> archives = new ArrayList<>(List.of(TestTrees.zip(dir, "deflate.zip", files, 0.0),
                TestTrees.zip(dir, "stored.zip", files, 1.0)));
        if (Libzstd.available()) {
            Path tree = dir.resolve("tree-deflate.zip");
            Path zstd = dir.resolve("zstd.zip");
            new ArchiveBuilder(tree).zstdLevel(3).addAll(files.keySet()).write(zstd);
            archives.add(zstd);
        }
        for (Path zip : archives) {
            Map<String, Outcome> outcomes = load(path, zip, List.copyOf(files.keySet()));
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                Outcome o = outcomes.get(f.getKey());
                assertNull(o.failure(), () -> path + ", " + zip.getFileName() + ": " + f.getKey() + ": " + o.failure());
                assertArrayEquals(f.getValue(), o.bytes(), path + ", " + zip.getFileName() + ": " + f.getKey());
            }
        }
    }

    // ---- hostile archives ----

    /**
     * One lie in HostileArchiveTest's small archive: {@code entry} is damaged by {@code damage}, and every path's
     * refusal says {@code says} besides the archive and the entry.
     */
    record Hostile(String name, String entry, Consumer<HostileArchiveTest.Zip> damage, String... says) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Where the data of the entry with central header {@code central} starts in {@code z}. */
    private static int dataStart(HostileArchiveTest.Zip z, int central) {
        ByteBuffer b = ByteBuffer.wrap(z.bytes()).order(ByteOrder.LITTLE_ENDIAN);
        int local = b.getInt(central + 42);
        return local + ZipFormat.LOCAL_HEADER_SIZE + Short.toUnsignedInt(b.getShort(local + 26))
                + Short.toUnsignedInt(b.getShort(local + 28));
    }

    private static void flipInData(HostileArchiveTest.Zip z, int central) {
        ByteBuffer b = ByteBuffer.wrap(z.bytes()).order(ByteOrder.LITTLE_ENDIAN);
        int at = dataStart(z, central) + b.getInt(central + 20) / 2;
        z.bytes()[at] ^= 0x04;
    }

    static List<Hostile> hostiles() {
        String one = "aa/one.txt";
        String two = "aa/two.bin";
        return List.of(
                new Hostile("uncompressed size one too large", one, z -> z.putInt(z.headers()[0] + 24, 40_001),
                        "local header at offset 0", "the directory says 40001"),
                new Hostile("uncompressed size one too small", one, z -> z.putInt(z.headers()[0] + 24, 39_999),
                        "local header at offset 0", "more than its size of 39999"),
                new Hostile("a huge claimed size", one, z -> z.putInt(z.headers()[0] + 24, 0xffff_fff0L),
                        "local header at offset 0", "claims 4294967280 bytes", "more than Deflate can expand"),
                new Hostile("a stored entry whose sizes differ", two, z -> z.putInt(z.headers()[1] + 24, 5_001),
                        "local header at offset", "5001"),
                new Hostile("a CRC-32 that lies", one, z -> z.putInt(z.headers()[0] + 16,
                        ByteBuffer.wrap(z.bytes()).order(ByteOrder.LITTLE_ENDIAN)
                                .getInt(z.headers()[0] + 16) ^ 1), "local header at offset 0", "has CRC-32"),
                new Hostile("damaged Deflate data", one, z -> flipInData(z, z.headers()[0]),
                        "local header at offset 0"),
                new Hostile("damaged stored data", two, z -> flipInData(z, z.headers()[1]),
                        "local header at offset", "has CRC-32"),
                new Hostile("a local header without its signature", one, z -> z.bytes()[0] ^= 1,
                        "no local header of entry aa/one.txt at offset 0"),
                new Hostile("a local name that differs from the directory", one,
                        z -> z.bytes()[ZipFormat.LOCAL_HEADER_SIZE] = 'b', "names 'ba/one.txt'"),
                new Hostile("a local extra field that runs past the next entry", one, z -> z.putShort(28, 0xffff),
                        "data of entry aa/one.txt at offset", "runs past offset"));
    }

    static Stream<Arguments> pathsAndHostiles() {
        return Arrays.stream(LoadPath.values()).flatMap(p -> hostiles().stream().map(h -> Arguments.of(p, h)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("pathsAndHostiles")
    void everyPathRefusesTheDamagedEntryAndLoadsTheOthers(LoadPath path, Hostile hostile) throws IOException {
        Map<String, byte[]> files = HostileArchiveTest.files();
        TestTrees.write(dir.resolve("tree"), files);
        Path good = dir.resolve("good.zip");
        new ArchiveBuilder(dir.resolve("tree")).addAll(files.keySet()).write(good);
        HostileArchiveTest.Zip z = HostileArchiveTest.Zip.of(Files.readAllBytes(good));
        hostile.damage().accept(z);
        Path bad = dir.resolve("bad.zip");
        Files.write(bad, z.bytes());

        Map<String, Outcome> outcomes = load(path, bad, List.copyOf(files.keySet()));
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            Outcome o = outcomes.get(f.getKey());
            String what = path + ", " + hostile + ": " + f.getKey();
            if (!f.getKey().equals(hostile.entry())) {
                assertNull(o.failure(), () -> what + ": " + o.failure());
                assertArrayEquals(f.getValue(), o.bytes(), what);
                continue;
            }
            assertNotNull(o.failure(), what + " was not refused");
            assertInstanceOf(ArchiveFormatException.class, o.failure(), what);
            String message = o.failure().getMessage();
            assertTrue(message.contains(bad.toString()), what + ": '" + message + "' should name the archive");
            assertTrue(message.contains("entry " + hostile.entry()), what + ": '" + message + "' should name it");
            for (String part : hostile.says()) {
                assertTrue(message.contains(part), what + ": '" + message + "' should say '" + part + "'");
            }
        }
    }

    // ---- the fuzz corpus ----

    /** ArchiveOpenFuzzTest's seeds, each as a file of this test's directory. */
    private List<Path> fuzzSeeds() throws IOException, URISyntaxException {
        Path seeds = Path.of(LoadPathContractTest.class.getResource(
                "fuzz/ArchiveOpenFuzzTestInputs/openingAnyBytesAsAnArchiveFailsCleanlyOrReadsEveryEntry").toURI());
        List<Path> copies = new ArrayList<>();
        try (Stream<Path> files = Files.list(seeds)) {
            for (Path seed : files.sorted().toList()) {
                copies.add(Files.copy(seed, dir.resolve("seed-" + seed.getFileName() + ".zip")));
            }
        }
        assumeTrue(!copies.isEmpty(), "no fuzz seeds found under " + seeds);
        return copies;
    }

    /** The names of {@code zip}'s files, or null when it does not open (opening is no load path). */
    private static List<String> filesOf(Path zip) {
        try (Archive a = Archive.open(zip)) {
            return a.entries().stream().filter(e -> !e.isDirectory()).map(ArchiveEntry::name).distinct().toList();
        } catch (IOException notAnArchive) {
            return null;
        }
    }

    @ParameterizedTest
    @EnumSource(LoadPath.class)
    void everyPathAgreesWithTheStreamOverTheFuzzCorpus(LoadPath path) throws Exception {
        for (Path seed : fuzzSeeds()) {
            List<String> names = filesOf(seed);
            if (names == null || names.isEmpty()) {
                continue;
            }
            Map<String, Outcome> reference = LoadPath.OPEN_STREAM.load(seed, names);
            Map<String, Outcome> outcomes = load(path, seed, names);
            for (String name : names) {
                Outcome o = outcomes.get(name);
                Outcome r = reference.get(name);
                String what = path + ", " + seed.getFileName() + ": " + name;
                if (o.failure() != null) {
                    assertTrue(o.failure().getMessage().contains(seed.toString()),
                            what + ": '" + o.failure().getMessage() + "' should name the archive");
                }
                if (r.failure() == null) {
                    assertNull(o.failure(), () -> what + ": openStream reads it, this path says " + o.failure());
                    assertArrayEquals(r.bytes(), o.bytes(), what + " disagrees with openStream");
                }
            }
        }
    }
}
