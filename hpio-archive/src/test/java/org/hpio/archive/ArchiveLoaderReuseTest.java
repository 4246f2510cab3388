package org.hpio.archive;

import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;
import org.hpio.testing.NativeCalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ArchiveLoader}'s reuse of repeated files: the memory bound holds when files exceed half of it, a kept
 * file is dropped only to admit one that then fits, a reused position is named as a read one, a repeat of a
 * file whose first load was interrupted loads by itself, and a long list of few files keeps the window bounded.
 */
class ArchiveLoaderReuseTest {
    @TempDir
    Path dir;

    private static long field(Object o, String name) throws Exception {
        return ((Number) ArchiveLoaderStressTest.field(o, name)).longValue();
    }



    /** Every file costs more than bytes/2: the Belady eviction never runs, and kept memory grows with the list. */
    @Test
    void keptMemoryStaysWithinBytesWhenFilesExceedHalfOfIt() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (int i = 0; i < 20; i++) {
            files.put("big/f" + i, TestTrees.random(40_000, 100 + i)); // stored: cost ~40 KB > 32 KiB = bytes/2
        }
        Path zip = TestTrees.zip(dir, "big.zip", files, 1.0);
        List<String> paths = new ArrayList<>(files.keySet());
        paths.addAll(files.keySet()); // every file twice
        LookAhead ahead = new LookAhead(4, 64 << 10, 64 << 10, 1);
        long peak = 0;
        int live = ReadRun.LIVE.get();
        int peakLive = 0;
        try (Archive archive = Archive.open(zip); ArchiveLoader loader = archive.loader(paths, ahead)) {
            while (loader.hasNext()) {
                try (LoadedFile f = loader.next()) {
                    assertArrayEquals(files.get(f.name()), f.toByteArray());
                }
                peak = Math.max(peak, field(ArchiveLoaderStressTest.field(loader, "book"), "keptBytes") + field(loader, "windowBytes"));
                peakLive = Math.max(peakLive, ReadRun.LIVE.get() - live);
            }
        }
        assertTrue(peak <= 2 * ahead.bytes(), "kept + window peaked at " + peak + " with bytes " + ahead.bytes()
                + " (" + peakLive + " runs alive at once)");
    }


    /**
     * C (20 KB) is kept; A (90 KB) is pinned by its repeat in the window; F (40 KB) cannot be admitted next to
     * A, yet C is evicted for it anyway, and then F is admitted (after A is dropped) where C would still fit.
     */
    @Test
    void aKeptFileIsNotDroppedForAFileThatIsNotAdmittedAnyway() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("A", TestTrees.random(95_000, 1));
        files.put("F", TestTrees.random(40_000, 2));
        files.put("C", TestTrees.random(20_000, 3));
        Path zip = TestTrees.zip(dir, "b.zip", files, 1.0);
        List<String> paths = List.of("C", "A", "A", "F", "C");
        try (Archive archive = Archive.open(zip);
             ArchiveLoader loader = archive.loader(paths, new LookAhead(1024, 128 << 10, 32 << 10, 0))) {
            while (loader.hasNext()) {
                try (LoadedFile f = loader.next()) {
                    assertArrayEquals(files.get(f.name()), f.toByteArray());
                }
            }
            long read = loader.stats().bytesRead();
            assertTrue(read < 155_000 + 10_000, "C was read twice: " + read + " bytes for 155 KB of files");
        }
    }


    @Test
    void aReusedPositionIsNamedAsAReadOne() throws Exception {
        Map<String, byte[]> files = ArchiveLoadTest.files();
        Path zip = TestTrees.zip(dir, "n.zip", files, 0.05);
        List<String> paths = List.of("./a/text.txt", "./a/text.txt");
        for (boolean reuse : new boolean[] {false, true}) {
            List<String> names = new ArrayList<>();
            try (Archive archive = Archive.open(zip);
                 ArchiveLoader loader = archive.loader(paths, LookAhead.defaults().withReuse(reuse))) {
                while (loader.hasNext()) {
                    try (LoadedFile f = loader.next()) {
                        names.add(f.name());
                    }
                }
            }
            assertEquals(List.of("a/text.txt", "a/text.txt"), names, "reuse " + reuse);
        }
    }


    @Test
    void anInterruptOfOnePositionDoesNotFailItsRepeat() throws Exception {
        NativeCalls.assumeOn("O_DIRECT");
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("big", TestTrees.random(48 << 20, 1));
        Path zip = TestTrees.zip(dir, "i.zip", files, 1.0);
        // Out of the page cache (the builder forced it, so its pages are clean): the O_DIRECT reads go to the
        // device and are still in flight when next() looks; from the cache they could be done first, and an
        // interrupt is only seen by a wait that waits.
        try (NativeFile f = NativeFile.open(zip, Syscalls.O_RDONLY)) {
            f.advise(Syscalls.POSIX_FADV_DONTNEED);
        }
        int live = ReadRun.LIVE.get();
        try (Archive archive = Archive.open(zip, LoadOptions.defaults().withDirect(true));
             ArchiveLoader loader = archive.loader(List.of("big", "big"), new LookAhead(16, 256L << 20, 1 << 20, 0, true))) {
            Thread.currentThread().interrupt();
            Exception first = assertThrows(Exception.class, loader::next);
            Thread.interrupted();
            assertInstanceOf(InterruptedIOException.class, first);
            try (LoadedFile f = loader.next()) {  // not interrupted now: should load
                assertArrayEquals(files.get("big"), f.toByteArray());
            }
        } finally {
            Thread.interrupted();
        }
        assertEquals(live, ReadRun.LIVE.get());
    }


    @Test
    void aLongListOfFewFilesKeepsTheWindowBounded() throws Exception {
        Map<String, byte[]> files = ArchiveLoadTest.files();
        Path zip = TestTrees.zip(dir, "l.zip", files, 0.05);
        List<String> names = new ArrayList<>(files.keySet());
        for (int n : new int[] {20_000}) {
            Random r = new Random(1);
            List<String> paths = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                paths.add(names.get(r.nextInt(names.size())));
            }
            for (LookAhead ahead : List.of(LookAhead.defaults().withWorkers(3), LookAhead.defaults().withWorkers(3).withBytes(1 << 20))) {
                int maxWindow = 0;
                try (Archive archive = Archive.open(zip); ArchiveLoader loader = archive.loader(paths, ahead)) {
                    while (loader.hasNext()) {
                        loader.next().close();
                        maxWindow = Math.max(maxWindow, ((Collection<?>) ArchiveLoaderStressTest.field(loader, "window")).size());
                    }
                    assertTrue(maxWindow <= ArchiveLoader.SLOTS_PER_FILE * ahead.files(), "window of " + maxWindow);
                }
            }
        }
    }

    /**
     * A read of neighbours together that fails (here: the file was cut short under the loader, inside the last
     * neighbour) fails only the entry whose bytes are missing: the others load by themselves.
     */
    @Test
    void aFailedReadOfNeighboursFailsOnlyTheEntryWhoseBytesAreMissing() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("big", TestTrees.random(200_000, 1));
        files.put("b", TestTrees.random(20_000, 2));
        files.put("c", TestTrees.random(20_000, 3));
        Path zip = TestTrees.zip(dir, "cut.zip", files, 1.0);
        int live = ReadRun.LIVE.get();
        try (Archive archive = Archive.open(zip);
             ArchiveLoader loader = archive.loader(List.of("big", "b", "c"), new LookAhead(2, 64 << 10, 64 << 10, 0))) {
            TestTrees.cutInside(zip, "c", 100); // b whole, c cut; only "big" was admitted so far
            try (LoadedFile f = loader.next()) {
                assertArrayEquals(files.get("big"), f.toByteArray());
            }
            try (LoadedFile f = loader.next()) { // read together with c, and that read came up short
                assertArrayEquals(files.get("b"), f.toByteArray());
            }
            IOException e = assertThrows(IOException.class, loader::next);
            assertTrue(e.getMessage().contains(zip + ": entry c: "), e.getMessage());
            assertEquals(2, loader.stats().loads());
        }
        assertEquals(live, ReadRun.LIVE.get());
    }
}
