package org.hpio.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two ranks of {@code hpio bench approaches} as real processes (the launcher's variables set by hand, no
 * mpirun needed); rank 1 is killed with SIGKILL once it has joined. Rank 0 must stop soon with an error naming
 * rank 1, not hang.
 */
class KilledRankTest {
    @TempDir
    Path dir;

    @Test
    void aKilledRankIsNamedByTheOtherSoonAfterItsHeartbeatStops() throws Exception {
        Process first = rank(0);
        Process second = rank(1);
        try {
            awaitHeartbeat(dir.resolve("work/approaches/ranks"), "alive.1");
            second.destroyForcibly().waitFor();
            long killed = System.nanoTime();
            assertTrue(first.waitFor(60, TimeUnit.SECONDS), "rank 0 hangs after rank 1 died");
            String output = new String(first.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertNotEquals(0, first.exitValue(), output);
            assertTrue(output.contains("rank 1 stopped: its heartbeat"), output);
            assertTrue(System.nanoTime() - killed < 30_000_000_000L, "found by the heartbeat: " + output);
        } finally {
            first.destroyForcibly();
            second.destroyForcibly();
        }
    }

    private Process rank(int rank) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-Dhpio.ranks.silence=2", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "bench", "approaches",
                "--size", "16m", "--reps", "20", "--configs", "raf,dsb", "--work-dir", dir.resolve("work").toString(),
                "--report", dir.resolve("report").toString()).redirectErrorStream(true);
        builder.environment().put("OMPI_COMM_WORLD_RANK", String.valueOf(rank));
        builder.environment().put("OMPI_COMM_WORLD_SIZE", "2");
        return builder.start();
    }

    /** Waits until {@code name} exists in the session directory under {@code ranks} (the rank has joined). */
    private static void awaitHeartbeat(Path ranks, String name) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (Files.isDirectory(ranks)) {
                try (Stream<Path> sessions = Files.list(ranks)) {
                    List<Path> joined = sessions.filter(s -> Files.exists(s.resolve(name))).toList();
                    if (!joined.isEmpty()) {
                        return;
                    }
                } catch (IOException e) {
                    // the directory changes under us; look again
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no " + name + " under " + ranks + " within 60 s");
    }
}
