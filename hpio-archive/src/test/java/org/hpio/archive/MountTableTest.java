package org.hpio.archive;

import org.hpio.testing.DirectIo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The mount table: order, override, fall-through, merged listing, loose files through the same engine. */
class MountTableTest {
    @TempDir
    Path dir;

    private Path archive(String name, Map<String, byte[]> files) throws IOException {
        Path root = dir.resolve(name + "-tree");
        TestTrees.write(root, files);
        Path zip = dir.resolve(name + ".zip");
        new ArchiveBuilder(root).addAll(new TreeSet<>(files.keySet())).write(zip);
        return zip;
    }

    private static byte[] load(MountTable table, String path) throws IOException {
        try (LoadedFile f = table.load(path)) {
            return f.toByteArray();
        }
    }

    @Test
    void laterMountsOverrideEarlierOnesAndLookupsFallThrough() throws IOException {
        byte[] base = TestTrees.text(50_000, 1);
        byte[] mod = TestTrees.text(60_000, 2);
        byte[] loose = TestTrees.random(70_000, 3);
        Path data = archive("data", Map.of("art/a.txt", base, "art/b.txt", base, "only-data.txt", base));
        Path mods = archive("mod", Map.of("art/a.txt", mod, "only-mod.txt", mod));
        Path looseDir = dir.resolve("loose");
        TestTrees.write(looseDir, Map.of("art/b.txt", loose, "only-loose.bin", loose));
        try (MountTable table = new MountTable()) {
            table.mountArchive(data).mountArchive(mods).mountDirectory(looseDir);
            assertArrayEquals(mod, load(table, "art/a.txt"), "the mod overrides the data");
            assertArrayEquals(loose, load(table, "art/b.txt"), "the loose file overrides both");
            assertArrayEquals(base, load(table, "only-data.txt"), "falls through to the first mount");
            assertArrayEquals(mod, load(table, "only-mod.txt"));
            assertArrayEquals(loose, load(table, "./only-loose.bin"));
            assertEquals(mods.toString(), table.source("art/a.txt").orElseThrow());
            assertEquals(List.of("art/a.txt", "art/b.txt", "only-data.txt", "only-loose.bin", "only-mod.txt"),
                    List.copyOf(table.list()));
            assertFalse(table.exists("missing"));
            assertThrows(NoSuchFileException.class, () -> table.load("missing"));
            assertEquals(5, table.stats().loads());
        }
    }

    @Test
    void looseFilesLoadWithEveryBlockSizeAndQueueDepth() throws IOException {
        Map<String, byte[]> files = Map.of("x/big.bin", TestTrees.random(1_000_003, 5), "x/tiny", new byte[]{7},
                "x/empty", new byte[0]);
        TestTrees.write(dir.resolve("loose"), files);
        for (LoadOptions o : List.of(LoadOptions.defaults(), LoadOptions.defaults().withWholeReadBytes(0),
                LoadOptions.defaults().withWholeReadBytes(LoadOptions.MAX_WHOLE_READ_BYTES),
                LoadOptions.defaults().withBlockSize(4096).withQueueDepth(1),
                LoadOptions.defaults().withBlockSize(128 << 10).withQueueDepth(32))) {
            try (MountTable table = new MountTable(o).mountDirectory(dir.resolve("loose"))) {
                for (Map.Entry<String, byte[]> f : files.entrySet()) {
                    assertArrayEquals(f.getValue(), load(table, f.getKey()), f.getKey() + " " + o);
                }
                long bigReads = o.wholeReadBytes() >= 1_000_003 ? 1 : 1_000_003 / o.blockSize(); // whole, or blocks
                assertTrue(table.stats().reads() >= bigReads, table.stats().toString());
            }
        }
    }

    @Test
    void looseFilesLoadWithODirect() throws IOException {
        Map<String, byte[]> files = Map.of("big.bin", TestTrees.random(300_001, 5), "aligned.bin",
                TestTrees.random(65536, 6));
        TestTrees.write(dir.resolve("loose"), files);
        DirectIo.assumeSupported(dir.resolve("loose/big.bin"));
        try (MountTable table = new MountTable(LoadOptions.defaults().withDirect(true)).mountDirectory(dir.resolve("loose"))) {
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                assertArrayEquals(f.getValue(), load(table, f.getKey()));
            }
        }
    }

    @Test
    void pathsLeavingTheRootAreRefused() throws IOException {
        Path loose = dir.resolve("loose");
        TestTrees.write(loose, Map.of("in.txt", new byte[]{1}));
        Files.write(dir.resolve("secret.txt"), new byte[]{42});
        Files.createSymbolicLink(loose.resolve("link.txt"), dir.resolve("secret.txt"));
        try (MountTable table = new MountTable().mountDirectory(loose)) {
            assertThrows(NoSuchFileException.class, () -> table.load("../secret.txt"));
            assertThrows(NoSuchFileException.class, () -> table.load("/etc/passwd"));
            NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> table.load("link.txt"));
            assertTrue(e.getMessage().contains("outside the mount"), e.getMessage());
            assertFalse(table.exists("../secret.txt"));
        }
        assertThrows(NoSuchFileException.class, () -> new MountTable().mountDirectory(dir.resolve("nope")));
    }

    @Test
    void linksThatStayInsideTheRootLoadAndDirectoriesFallThrough() throws IOException {
        Path loose = dir.resolve("loose");
        TestTrees.write(loose, Map.of("data/in.txt", new byte[]{1, 2, 3}, "shadow/x", new byte[]{9}));
        Files.createSymbolicLink(loose.resolve("relative.txt"), Path.of("data/in.txt"));
        Files.createSymbolicLink(loose.resolve("absolute.txt"), loose.toRealPath().resolve("data/in.txt"));
        Path lower = dir.resolve("lower");
        TestTrees.write(lower, Map.of("data", new byte[]{5}, "shadow", new byte[]{6}));
        for (LoadOptions o : List.of(LoadOptions.defaults(), LoadOptions.defaults().withWholeReadBytes(0))) {
            try (MountTable table = new MountTable(o).mountDirectory(lower).mountDirectory(loose)) {
                assertArrayEquals(new byte[]{1, 2, 3}, load(table, "relative.txt"));
                assertArrayEquals(new byte[]{1, 2, 3}, load(table, "absolute.txt"));
                assertArrayEquals(new byte[]{5}, load(table, "data"), "a directory above falls through to a file");
                assertArrayEquals(new byte[]{6}, load(table, "./shadow"));
                assertThrows(NoSuchFileException.class, () -> table.load("data/missing"));
                assertThrows(NoSuchFileException.class, () -> table.load("data/in.txt/below"));
            }
        }
    }

    @Test
    void virtualThreadsLoadTheSameBytesThroughTheEngine() throws Exception {
        Path loose = dir.resolve("loose");
        Map<String, byte[]> files = Map.of("a/small", TestTrees.random(3_000, 1), "b/mid", TestTrees.random(70_000, 2));
        TestTrees.write(loose, files);
        Path zip = dir.resolve("z.zip");
        new ArchiveBuilder(loose).addAll(new TreeSet<>(files.keySet())).write(zip);
        try (MountTable table = new MountTable().mountArchive(zip).mountDirectory(loose);
             Archive archive = Archive.open(zip)) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread.ofVirtual().start(() -> {
                try {
                    for (Map.Entry<String, byte[]> f : files.entrySet()) {
                        assertArrayEquals(f.getValue(), load(table, f.getKey()));
                        try (LoadedFile loaded = archive.load(f.getKey())) {
                            assertArrayEquals(f.getValue(), loaded.toByteArray());
                        }
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            }).join();
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertTrue(archive.stats().reads() >= files.size(), archive.stats().toString());
        }
    }

    @Test
    void aLoadedFileRefusesUseAfterClose() throws IOException {
        Path loose = dir.resolve("loose");
        TestTrees.write(loose, Map.of("small", new byte[100], "large", TestTrees.random(600_000, 3)));
        try (MountTable table = new MountTable().mountDirectory(loose)) {
            for (String name : List.of("small", "large")) {
                LoadedFile f = table.load(name);
                f.close();
                assertThrows(IllegalStateException.class, f::segment);
                assertThrows(IllegalStateException.class, f::buffer);
                f.close();
            }
        }
    }
}
