package org.hpio.archive;

import org.hpio.internal.sys.NativeAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ArchiveLoader}: the same bytes as {@link Archive#load} in list order (repeats, out of archive order,
 * neighbours read together, entries larger than a read, windows smaller than a file, 0 to 3 workers, stored and
 * Deflate, every inflation), a CRC mismatch or a missing file failing only its own position with an error naming
 * it, cancelling by closing early, and delivered files outliving the loader.
 */
class ArchiveLoaderTest {
    @TempDir
    Path dir;

    private Path build(Map<String, byte[]> files, String name, double minSavings) throws IOException {
        return TestTrees.zip(dir, name, files, minSavings);
    }

    /** Archive order, then a second pass backwards, then a repeat of one file: every kind of neighbour. */
    private static List<String> order(Map<String, byte[]> files) {
        List<String> paths = new ArrayList<>(files.keySet());
        List<String> back = new ArrayList<>(files.keySet());
        Collections.reverse(back);
        paths.addAll(back);
        paths.add("a/text.txt");
        paths.add("a/text.txt");
        return paths;
    }

    private static List<LookAhead> lookAheads() {
        return List.of(LookAhead.defaults(),
                LookAhead.defaults().withWorkers(0),
                LookAhead.defaults().withWorkers(3),
                new LookAhead(1, 64 << 10, 32 << 10, 1),        // one file at a time, reads of one block
                new LookAhead(3, 64 << 10, 64 << 10, 2),        // a window smaller than the big files
                new LookAhead(4096, 1L << 30, 16 << 20, 1),     // everything at once
                LookAhead.defaults().withReuse(false),
                new LookAhead(2, 64 << 10, 32 << 10, 0));       // reuse with almost no memory to keep files in
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, 1.0})
    void deliversWhatLoadDeliversInListOrder(double minSavings) throws IOException {
        Map<String, byte[]> files = ArchiveLoadTest.files();
        Path zip = build(files, "z.zip", minSavings);
        List<String> paths = order(files);
        List<LoadOptions> optionsList = new ArrayList<>();
        for (LoadOptions.Inflation inflation : LoadOptions.Inflation.values()) {
            optionsList.add(LoadOptions.defaults().withInflation(inflation));
        }
        if (NativeAccess.available()) {   // else O_DIRECT cannot be had at all
            optionsList.add(LoadOptions.defaults().withDirect(true)); // O_DIRECT: aligned runs, trimmed to the entries
        }
        for (LoadOptions options : optionsList) {
            try (Archive archive = Archive.open(zip, options)) {
                if (minSavings < 1.0) {
                    assertEquals(ZipFormat.DEFLATED, archive.entry("a/text.txt").orElseThrow().method());
                } else {
                    assertEquals(ZipFormat.STORED, archive.entry("a/text.txt").orElseThrow().method());
                }
                for (LookAhead ahead : lookAheads()) {
                    int live = ReadRun.LIVE.get();
                    List<LoadedFile> kept = new ArrayList<>();
                    try (ArchiveLoader loader = archive.loader(paths, ahead)) {
                        for (int i = 0; i < paths.size(); i++) {
                            assertTrue(loader.hasNext());
                            assertEquals(i, loader.position());
                            LoadedFile f = loader.next();
                            assertEquals(paths.get(i), f.name());
                            assertArrayEquals(files.get(paths.get(i)), f.toByteArray(), paths.get(i) + " " + ahead);
                            assertTrue(f.segment().isReadOnly());
                            if (i % 3 == 0) {
                                kept.add(f); // closed after the loader: a delivered file outlives it
                            } else {
                                f.close();
                            }
                        }
                        assertFalse(loader.hasNext());
                        assertThrows(NoSuchElementException.class, loader::next);
                        assertEquals(paths.size(), loader.stats().loads());
                    }
                    for (LoadedFile f : kept) {
                        assertArrayEquals(files.get(f.name()), f.toByteArray());
                        f.close();
                    }
                    assertEquals(live, ReadRun.LIVE.get(), "every read's memory is freed once its files are closed");
                }
            }
        }
    }

    /** The damaged file once, and in a second pass over the files (a repeat of a failed load fails too). */
    @ParameterizedTest
    @ValueSource(doubles = {0.0, 1.0})
    void aCrcMismatchFailsOnlyItsPositionsNamingTheEntry(double minSavings) throws IOException {
        Map<String, byte[]> files = ArchiveLoadTest.files();
        Path zip = build(files, "bad.zip", minSavings);
        TestTrees.damage(zip, "many/f3.txt");
        for (int passes = 1; passes <= 2; passes++) {
            List<String> paths = new ArrayList<>();
            for (int pass = 0; pass < passes; pass++) {
                paths.addAll(files.keySet());
            }
            for (LookAhead ahead : lookAheads()) {
                try (Archive archive = Archive.open(zip); ArchiveLoader loader = archive.loader(paths, ahead)) {
                    for (String p : paths) {
                        if (p.equals("many/f3.txt")) {
                            ArchiveFormatException x = assertThrows(ArchiveFormatException.class, loader::next);
                            assertTrue(x.getMessage().contains("entry many/f3.txt"), x.getMessage());
                            assertTrue(x.getMessage().contains(zip.toString()), x.getMessage());
                        } else {
                            try (LoadedFile f = loader.next()) {
                                assertArrayEquals(files.get(p), f.toByteArray(), p + " " + ahead);
                            }
                        }
                    }
                    assertFalse(loader.hasNext());
                }
            }
        }
    }

    /** Three passes over the files: with reuse, the second and third read nothing while memory allows. */
    @ParameterizedTest
    @ValueSource(doubles = {0.0, 1.0})
    void aRepeatedFileIsReadOnceWhileMemoryAllowsAndAgainWhenItDoesNot(double minSavings) throws IOException {
        Map<String, byte[]> files = ArchiveLoadTest.files();
        Path zip = build(files, "rep.zip", minSavings);
        List<String> once = new ArrayList<>(files.keySet());
        List<String> thrice = new ArrayList<>();
        for (int pass = 0; pass < 3; pass++) {
            thrice.addAll(once);
        }
        for (boolean direct : NativeAccess.available() ? new boolean[]{false, true}
                : new boolean[]{false}) {
            try (Archive archive = Archive.open(zip, LoadOptions.defaults().withDirect(direct))) {
                checkReadsOfRepeats(archive, once, thrice);
            }
        }
    }

    private static void checkReadsOfRepeats(Archive archive, List<String> once, List<String> thrice) throws IOException {
        long distinct = bytesRead(archive, once, LookAhead.defaults());
        assertEquals(distinct, bytesRead(archive, thrice, LookAhead.defaults()),
                "with room for every file, repeats read nothing");
        assertTrue(bytesRead(archive, thrice, LookAhead.defaults().withReuse(false)) >= 3 * distinct - 3 * 4096,
                "without reuse, every pass reads");
        long tight = bytesRead(archive, thrice, new LookAhead(4096, 64 << 10, 32 << 10, 1));
        assertTrue(tight > distinct, "64 KiB cannot keep the files: some are read again (" + tight + " vs "
                + distinct + ")");
    }

    private static long bytesRead(Archive archive, List<String> paths, LookAhead ahead) throws IOException {
        int live = ReadRun.LIVE.get();
        try (ArchiveLoader loader = archive.loader(paths, ahead)) {
            List<LoadedFile> open = new ArrayList<>();
            while (loader.hasNext()) {
                LoadedFile f = loader.next();
                if (loader.position() % 5 == 0) {
                    open.add(f); // some stay open while their file is reused
                } else {
                    f.close();
                }
            }
            assertEquals(paths.size(), loader.stats().loads());
            open.forEach(LoadedFile::close);
            long read = loader.stats().bytesRead();
            loader.close();
            assertEquals(live, ReadRun.LIVE.get(), "every read's memory is freed: " + ahead);
            return read;
        }
    }

    @Test
    void aMissingFileFailsOnlyItsPosition() throws IOException {
        Map<String, byte[]> files = ArchiveLoadTest.files();
        Path zip = build(files, "z.zip", 0.0);
        List<String> paths = List.of("a/text.txt", "no/such/file", "../escape", "a/", "b/small.txt");
        try (Archive archive = Archive.open(zip); ArchiveLoader loader = archive.loader(paths, LookAhead.defaults())) {
            try (LoadedFile f = loader.next()) {
                assertArrayEquals(files.get("a/text.txt"), f.toByteArray());
            }
            NoSuchFileException x = assertThrows(NoSuchFileException.class, loader::next);
            assertTrue(x.getMessage().contains("no/such/file"), x.getMessage());
            assertThrows(NoSuchFileException.class, loader::next);
            assertThrows(NoSuchFileException.class, loader::next);
            try (LoadedFile f = loader.next()) {
                assertArrayEquals(files.get("b/small.txt"), f.toByteArray());
            }
        }
    }

    @Test
    void closingEarlyCancelsAndStopsTheWorkers() throws IOException {
        Map<String, byte[]> files = TestTrees.texts(200, 5_000, 101);
        Path zip = build(files, "many.zip", 0.0);
        List<String> paths = new ArrayList<>(files.keySet());
        try (Archive archive = Archive.open(zip)) {
            for (int stopAt : new int[]{0, 1, 7, 150}) {
                ArchiveLoader loader = archive.loader(paths, LookAhead.defaults().withWorkers(2).withFiles(32));
                LoadedFile kept = null;
                for (int i = 0; i < stopAt; i++) {
                    LoadedFile f = loader.next();
                    if (kept == null) {
                        kept = f;
                    } else {
                        f.close();
                    }
                }
                loader.close();
                loader.close(); // idempotent
                assertThrows(IllegalStateException.class, loader::next);
                assertTrue(Thread.getAllStackTraces().keySet().stream()
                        .noneMatch(t -> t.getName().startsWith("hpio-loader-") && t.isAlive()
                                && t.getStackTrace().length > 0 && isOurs(t)), "a worker outlived close");
                if (kept != null) {
                    assertArrayEquals(files.get("f0"), kept.toByteArray());
                    kept.close();
                }
            }
            try (LoadedFile f = archive.load("f199")) { // the archive is unaffected
                assertArrayEquals(files.get("f199"), f.toByteArray());
            }
        }
    }

    /**
     * The first refill admits one read's worth (the caller's first file is read before the rest is planned);
     * without workers the caller's next call goes on with the batch, with one a worker plans the rest while the
     * caller has not asked for anything yet. Stats count reads started.
     */
    @Test
    void theFirstFileIsReadFirstAndTheRestOfTheWindowFollows() throws Exception {
        Map<String, byte[]> files = TestTrees.texts(64, 20_000, 37);
        Path zip = build(files, "parts.zip", 0.0);
        List<String> paths = new ArrayList<>(files.keySet());
        LookAhead ahead = new LookAhead(1024, 64 << 20, 64 << 10, 0);
        try (Archive archive = Archive.open(zip)) {
            assertEquals(ZipFormat.DEFLATED, archive.entry("f0").orElseThrow().method());
            long span = archive.entry("f63").orElseThrow().localHeaderOffset();
            try (ArchiveLoader loader = archive.loader(paths, ahead)) {
                assertEquals(1, loader.stats().reads(), "the constructor started the first part's one read");
                assertDeliversAll(loader, paths, files);
                assertTrue(loader.stats().bytesRead() >= span, "every file was read: " + loader.stats());
            }
            try (ArchiveLoader loader = archive.loader(paths, ahead.withWorkers(1))) {
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (loader.stats().bytesRead() < span && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                assertTrue(loader.stats().bytesRead() >= span, "the worker planned and started every read while "
                        + "the caller asked for nothing: " + loader.stats());
                assertDeliversAll(loader, paths, files);
            }
        }
    }

    private static void assertDeliversAll(ArchiveLoader loader, List<String> paths, Map<String, byte[]> files)
            throws IOException {
        for (String path : paths) {
            try (LoadedFile f = loader.next()) {
                assertEquals(path, f.name());
                assertArrayEquals(files.get(path), f.toByteArray(), path);
            }
        }
        assertFalse(loader.hasNext());
    }

    private static boolean isOurs(Thread t) {
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().equals(ArchiveLoader.class.getName())) {
                return true;
            }
        }
        return false;
    }

    @Test
    void readsOffloadTheirCopiesOnlyWhereTheLoadersThreadsLeaveACoreIdle() {
        int cores = Runtime.getRuntime().availableProcessors();
        LookAhead fills = new LookAhead(64, 1 << 20, 1 << 20, Math.min(64, cores - 1));
        assertFalse(ArchiveLoader.offloadsCopies(fills), "caller and " + fills.workers() + " workers on " + cores);
        assertFalse(ArchiveLoader.offloadsCopies(fills.withWorkers(64)));
        assertEquals(cores > 1, ArchiveLoader.offloadsCopies(fills.withWorkers(0)));
    }

    @Test
    void lookAheadChecksItsFields() {
        assertThrows(IllegalArgumentException.class, () -> new LookAhead(0, 1 << 20, 1 << 20, 1));
        assertThrows(IllegalArgumentException.class, () -> new LookAhead(8, 1024, 1 << 20, 1));
        assertThrows(IllegalArgumentException.class, () -> new LookAhead(8, 1 << 20, 3 << 10, 1));
        assertThrows(IllegalArgumentException.class, () -> new LookAhead(8, 1 << 20, 1 << 20, -1));
        LookAhead d = LookAhead.defaults();
        assertTrue(d.workers() >= 0 && d.workers() <= 3);
    }

    @Test
    void aReadSizeBelowTheBlockSizeIsRefused() throws IOException {
        Map<String, byte[]> files = ArchiveLoadTest.files();
        Path zip = build(files, "z.zip", 0.0);
        try (Archive archive = Archive.open(zip, LoadOptions.defaults().withBlockSize(64 << 10))) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                    () -> archive.loader(List.of("a/text.txt"), LookAhead.defaults().withReadBytes(32 << 10)));
            assertTrue(x.getMessage().contains("block size"), x.getMessage());
        }
    }
}
