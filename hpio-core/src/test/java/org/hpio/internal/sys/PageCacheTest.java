package org.hpio.internal.sys;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** cachestat through {@link PageCache}: a dropped file's pages are not cached, a read file's are. */
class PageCacheTest {
    private static final int BYTES = 256 << 10;
    private static final int POSIX_FADV_RANDOM = 1;
    @TempDir
    Path dir;

    @Test
    void answersWhetherARangeIsCached() throws IOException {
        Path file = dir.resolve("data");
        byte[] data = new byte[BYTES];
        new Random(7).nextBytes(data);
        Files.write(file, data);
        dropFromPageCache(file);
        try (PageCache probe = PageCache.of(file)) {
            long cold = probe.cachedPages(0, BYTES);
            assumeTrue(PageCache.supported() && cold >= 0, "this kernel has no cachestat (Linux 6.5)");
            assertEquals(0, cold, "no page of a file written, synced and dropped is cached");
            assertFalse(probe.holds(0, BYTES));
            assertFalse(probe.holds(8192, 4096));

            Files.readAllBytes(file);
            assertEquals(BYTES / 4096, probe.cachedPages(0, BYTES), "every page of a file just read is cached");
            assertTrue(probe.holds(0, BYTES));
            assertTrue(probe.holds(100, 5000), "an unaligned range counts the pages it touches");
            assertFalse(probe.holds(0, 0), "an empty range holds nothing to read");
        }
    }

    @Test
    void aRangeHalfCachedIsNotHeld() throws IOException {
        Path file = dir.resolve("half");
        Files.write(file, new byte[BYTES]);
        dropFromPageCache(file);
        try (PageCache probe = PageCache.of(file); NativeFile f = NativeFile.open(file, Syscalls.O_RDONLY)) {
            assumeTrue(probe.cachedPages(0, BYTES) == 0, "cachestat missing, or the pages could not be dropped");
            f.advise(POSIX_FADV_RANDOM); // no read-ahead: only the pages read get cached
            f.read(MemorySegment.ofArray(new byte[BYTES / 2]), 0);
            assertTrue(probe.holds(0, BYTES / 2));
            assertFalse(probe.holds(0, BYTES), "the second half is still on the device only");
        }
    }

    /** Writes back and drops {@code file}'s pages (fsync, then POSIX_FADV_DONTNEED). */
    static void dropFromPageCache(Path file) throws IOException {
        try (NativeFile f = NativeFile.open(file, Syscalls.O_RDONLY)) {
            f.force(false);
            f.advise(Syscalls.POSIX_FADV_DONTNEED);
        }
    }
}
