package org.hpio.bench.archive;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Counts the system calls an action makes, with Debian's {@code strace -f -c} attached to this JVM (every thread,
 * those started later too) for the action's duration only. Linux keeps no per-process count of system calls
 * ({@code /proc/self/io} counts only read and write calls), hence strace; it slows every call down, so a counted
 * action is never a timed one. The JVM's own threads (compiler, GC) add their few calls to the count.
 */
final class StraceCounter {
    /** {@code -Dhpio.bench.archive.strace=false} (in HPIO_JAVA_OPTS) skips the counting: a quicker run. */
    static final String PROPERTY = "hpio.bench.archive.strace";
    private static final long ATTACH_SECONDS = 20;
    private final Path workDir;

    StraceCounter(Path workDir) {
        this.workDir = workDir;
    }

    /** An action to count. */
    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    /** Why there is no counting (turned off, no strace on the PATH), or empty when there is. */
    static Optional<String> unavailable() {
        if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
            return Optional.of("turned off (-D" + PROPERTY + "=false)");
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "strace"))) {
                return Optional.empty();
            }
        }
        return Optional.of("strace is not installed (Debian's package 'strace'; ./hpio bench installs it as root)");
    }

    /** Runs {@code action} under strace and returns its system calls; fails when strace cannot attach. */
    SyscallCount count(Action action) throws Exception {
        Path summary = Files.createTempFile(workDir, "strace-", ".txt");
        Process strace = new ProcessBuilder("strace", "-f", "-c", "-o", summary.toString(), "-p",
                String.valueOf(ProcessHandle.current().pid())).redirectErrorStream(true).start();
        try {
            awaitAttached(strace);
            action.run();
            strace.destroy(); // SIGTERM: strace detaches and writes its summary
            if (!strace.waitFor(ATTACH_SECONDS, TimeUnit.SECONDS)) {
                throw new IOException("strace did not finish within " + ATTACH_SECONDS + " s of SIGTERM");
            }
            SyscallCount counted = SyscallCount.parse(Files.readAllLines(summary, StandardCharsets.UTF_8));
            if (counted.total() == 0) {
                throw new IOException("strace's summary counts no system calls");
            }
            return counted;
        } finally {
            strace.destroyForcibly();
            Files.deleteIfExists(summary);
        }
    }

    /** Waits for strace's "Process N attached" line; its further messages are drained in the background. */
    private static void awaitAttached(Process strace) throws IOException, InterruptedException {
        BufferedReader messages = new BufferedReader(new InputStreamReader(strace.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> attached = CompletableFuture.supplyAsync(() -> firstAttachedLine(messages),
                Thread.ofPlatform().daemon().name("strace-messages")::start);
        try {
            String line = attached.get(ATTACH_SECONDS, TimeUnit.SECONDS);
            if (!line.contains("attached")) {
                throw new IOException("strace could not attach to the JVM: " + line);
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("strace did not attach to the JVM within " + ATTACH_SECONDS + " s", e);
        }
    }

    /** The first line saying strace attached (or, if it never does, all it said); then drains the rest. */
    private static String firstAttachedLine(BufferedReader messages) {
        StringBuilder said = new StringBuilder();
        try {
            for (String line; (line = messages.readLine()) != null; ) {
                if (line.contains("attached")) {
                    Thread.ofPlatform().daemon().name("strace-drain").start(() -> drain(messages));
                    return line;
                }
                said.append(line.strip()).append(' ');
            }
        } catch (IOException e) {
            said.append(e.getMessage());
        }
        return said.isEmpty() ? "strace exited without a word" : said.toString().strip();
    }

    private static void drain(BufferedReader messages) {
        try {
            while (messages.readLine() != null) {
                // strace's "Process N detached" lines
            }
        } catch (IOException e) {
            // strace exited
        }
    }
}
