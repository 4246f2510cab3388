package org.hpio.archive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Process crashes while building archives: a child JVM rebuilding an archive in a loop ({@link ArchiveCrashWriter})
 * is killed with SIGKILL at random points, many times. Under the final name there is never a half archive:
 * either nothing (before the first build) or a whole one that opens, whose every entry reads back with its CRC
 * and holds one round's content, a round at least as new as the last one the child reported built.
 */
class ArchiveCrashTest {
    private static final int KILLS = 10;

    @TempDir
    Path dir;

    @Test
    void aKilledBuilderNeverLeavesAHalfArchiveUnderTheFinalName() throws Exception {
        Random random = new Random(9);
        int whole = 0;
        for (int k = 0; k < KILLS; k++) {
            Path tree = Files.createDirectories(dir.resolve("tree" + k));
            Path target = dir.resolve("out" + k + ".zip");
            List<String> output = runAndKill(tree, target, 150 + random.nextInt(1200));
            int lastBuilt = output.stream().filter(l -> l.startsWith("built ")).mapToInt(l -> Integer.parseInt(l.substring(6)))
                    .max().orElse(-1);
            if (!Files.exists(target)) {
                assertEquals(-1, lastBuilt, "an archive reported built is missing after kill " + k);
                continue;
            }
            int round = checkWhole(target);
            assertTrue(round >= lastBuilt && round <= lastBuilt + 1,
                    "kill " + k + ": the archive holds round " + round + " but round " + lastBuilt + " was reported built");
            whole++;
            try (Stream<Path> left = Files.list(dir)) {
                System.out.println("kill " + k + ": round " + round + " whole; temporary files left: "
                        + left.filter(p -> p.getFileName().toString().endsWith(".tmp")).count());
            }
        }
        assertTrue(whole > 0, "no kill came after a finished build: the test checked nothing");
        // The reliability report's row (format of hpio-core's FaultTable; ./hpio test prints it).
        Path report = Path.of("target/reliability/faults.txt");
        Files.createDirectories(report.getParent());
        Files.writeString(report, "| archive build crash, SIGKILL x" + KILLS + " (whole archives checked) | " + whole
                + " | " + KILLS + " | 0 | 0 |\n");
    }

    /** Opens the archive, reads every entry (CRC checked), and returns the round whose content it holds. */
    private static int checkWhole(Path target) throws IOException {
        try (Archive archive = Archive.open(target)) {
            ArchiveEntry roundEntry = archive.entry("round.txt").orElseThrow(() -> new AssertionError("no round.txt"));
            int round = Integer.parseInt(new String(read(archive, roundEntry), StandardCharsets.UTF_8));
            assertEquals(ArchiveCrashWriter.FILES + 1, archive.entries().size());
            for (int i = 0; i < ArchiveCrashWriter.FILES; i++) {
                ArchiveEntry e = archive.entry(ArchiveCrashWriter.name(i)).orElseThrow();
                assertTrue(Arrays.equals(ArchiveCrashWriter.content(i, round), read(archive, e)),
                        ArchiveCrashWriter.name(i) + " does not hold round " + round + "'s content");
            }
            return round;
        }
    }

    private static byte[] read(Archive archive, ArchiveEntry entry) throws IOException {
        try (InputStream in = archive.openStream(entry)) {
            return in.readAllBytes();
        }
    }

    private static List<String> runAndKill(Path tree, Path target, long millis) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                ArchiveCrashWriter.class.getName(), tree.toString(), target.toString())))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<String> output = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    output.add(line);
                }
            } catch (IOException e) {
                output.add("reader: " + e);
            }
        }, Thread::startVirtualThread);
        if (!child.waitFor(millis, TimeUnit.MILLISECONDS)) {
            child.destroyForcibly();
        }
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the killed child did not end");
        reader.join();
        return output;
    }
}
