package org.hpio.async;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** 003's OutOfMemoryError cannot happen: 100 files of 15 MB written without waiting, under -Xmx256m. */
class WriteFloodTest {
    @TempDir
    Path dir;

    @Test
    void aHundredFifteenMegabyteWritesWithoutWaitingFitInASmallHeap() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(List.of(java, "-Xmx256m", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), WriteFlood.class.getName(), dir.toString(), "100", "15"))
                .redirectErrorStream(true).start();
        assertTrue(child.waitFor(10, TimeUnit.MINUTES), "the child did not finish");
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, child.exitValue(), output);
        long peakKb = Long.parseLong(output.lines().reduce((a, b) -> b).orElseThrow());
        // 1.5 GB went through; the heap is 256 MB and staging is bounded at 64 MiB.
        assertTrue(peakKb < 1_000_000, "peak resident memory " + peakKb + " kB: staging memory was not bounded");
    }
}
