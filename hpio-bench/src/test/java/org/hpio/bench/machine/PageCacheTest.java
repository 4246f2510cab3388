package org.hpio.bench.machine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Cold and warm as the benchmarks make them, checked with fincore (skipped where the machine lacks it). */
class PageCacheTest {
    @TempDir
    Path dir;

    private Path warmFile() throws Exception {
        Path f = dir.resolve("f.bin");
        Files.write(f, new byte[4 << 20]);
        PageCache.warm(f);
        OptionalDouble before = PageCache.residentShare(f);
        assumeTrue(before.isPresent(), "fincore (util-linux) is not installed");
        assertTrue(before.getAsDouble() > 0.9, "a file just read is resident: " + before);
        return f;
    }

    @Test
    void droppingAFileLeavesNoneOfItResident() throws Exception {
        Path f = warmFile();
        PageCache.drop(f);
        assertEquals(0.0, PageCache.residentShare(f).orElseThrow(), 0.01);
    }

    @Test
    void droppingEverythingLeavesNoneOfAFileResidentWhereRootMay() throws Exception {
        assumeTrue(PageCache.canDropEverything(), "needs root (a writable /proc/sys/vm/drop_caches)");
        Path f = warmFile();
        assertTrue(PageCache.dropEverything());
        assertEquals(0.0, PageCache.residentShare(f).orElseThrow(), 0.01);
    }
}
