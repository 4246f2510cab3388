package org.hpio.async;

import org.hpio.reliability.FaultTable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Load: a million asynchronous requests over 8 threads and 64 files, with random cancels and timeouts, in a
 * child JVM with a 128 MiB heap ({@link StressRun}). Nothing fails unexpectedly, nothing leaks (descriptors,
 * staging memory, threads, requests in flight), and memory stays bounded (peak resident set).
 */
class StressTest {
    private static final long REQUESTS = 1_000_000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"uring"})
    void aMillionRequestsWithCancelsAndTimeoutsInASmallHeapLeakNothing(String engine) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(List.of(java, "-Xmx128m", "--enable-native-access=ALL-UNNAMED",
                "-Dhpio.engine=" + engine, "-cp", System.getProperty("java.class.path"), StressRun.class.getName(),
                dir.toString(), Long.toString(REQUESTS), "8", "64")).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(5, TimeUnit.MINUTES), "the stress child did not finish");
        assertEquals(0, child.exitValue(), output);
        Map<String, Long> figures = new HashMap<>();
        for (String word : output.lines().filter(l -> l.startsWith("engine=")).findFirst().orElseThrow().split(" ")) {
            String[] kv = word.split("=");
            if (!kv[0].equals("engine")) {
                figures.put(kv[0], Long.parseLong(kv[1]));
            }
        }
        System.out.println("stress: " + output.strip());
        FaultTable.add(new FaultTable.Row("stress: 8 threads, 64 files, cancels + timeouts (" + engine + ")",
                figures.get("requests"), figures.get("cancels") + figures.get("timeouts"), 0, figures.get("leaks")));
        assertTrue(figures.get("requests") >= REQUESTS, output);
        assertEquals(0, figures.get("errors"), output);
        assertEquals(0, figures.get("leaks"), output);
        assertTrue(figures.get("cancels") > 0, "no request was cancelled: " + output);
        assertTrue(figures.get("timeouts") > 0, "no wait timed out: " + output);
        assertTrue(figures.get("peakRssKb") < 600_000, "memory was not bounded: " + output);
    }
}
