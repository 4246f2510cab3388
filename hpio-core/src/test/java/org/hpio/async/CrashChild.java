package org.hpio.async;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** Runs a {@link CrashWriter} in a child JVM and kills it with SIGKILL after a while; collects what it printed. */
final class CrashChild {
    private CrashChild() {
    }

    /** What the child printed (stdout lines) and whether it was killed (false: it finished or failed first). */
    record Run(List<String> output, boolean killed, int exitCode, String stderr) {
    }

    /**
     * Starts {@code CrashWriter dir seed max maxPause} with {@code -Dhpio.engine=engine}, prefixed by {@code wrapper}
     * (e.g. eatmydata; empty for none), waits until it started writing, lets it run {@code runMillis} and kills it.
     */
    static Run run(List<String> wrapper, String engine, Path dir, long seed, int max, int maxPause, long runMillis)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(List.of(java, "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Xmx128m", "-Dhpio.engine=" + engine, "-cp", System.getProperty("java.class.path"),
                CrashWriter.class.getName(), dir.toString(), Long.toString(seed), Integer.toString(max),
                Integer.toString(maxPause)));
        Process child = new ProcessBuilder(command).start();
        child.getOutputStream().close();
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(child.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return e.toString();
            }
        }, Thread::startVirtualThread);
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
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!output.contains("started") && child.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        boolean killed = false;
        if (!child.waitFor(runMillis, TimeUnit.MILLISECONDS)) {
            child.destroyForcibly();   // SIGKILL
            killed = true;
        }
        if (!child.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the killed child did not end");
        }
        reader.join();
        return new Run(List.copyOf(output), killed, child.exitValue(), stderr.join());
    }
}
