package org.hpio.reliability;

import org.hpio.internal.io.IoEngine;
import org.hpio.internal.mem.StagingBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The reliability suite's leak check: file descriptors (the count in /proc/self/fd), native staging memory
 * (buffers acquired and not released, JVM-wide, and each engine's staging budget), hpio threads (engine
 * workers and completion threads still alive) and requests still in flight in an engine.
 *
 * <pre>{@code
 * Leaks.Snapshot before = Leaks.snapshot();
 * ... open an engine and files, inject faults, close everything ...
 * List<String> leaks = Leaks.since(before, engine);   // empty: nothing leaked
 * }</pre>
 */
public final class Leaks {
    private Leaks() {
    }

    /** What is held before a run: open descriptors, live hpio threads, outstanding staging buffers. */
    public record Snapshot(long fds, Set<Thread> threads, long stagingBuffers) {
    }

    public static Snapshot snapshot() {
        return new Snapshot(openFds(), hpioThreads(), StagingBuffer.outstanding());
    }

    /**
     * What leaked since {@code before}, once everything of the run was closed: waits up to 5 s for pool
     * threads to end and descriptors to settle; each leak is one line saying what and how much.
     * {@code engines}: engines of the run (closed or not) whose requests in flight and staging must be 0.
     */
    public static List<String> since(Snapshot before, IoEngine... engines) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        List<String> leaks = check(before, engines);
        while (!leaks.isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            leaks = check(before, engines);
        }
        return leaks;
    }

    private static List<String> check(Snapshot before, IoEngine... engines) {
        List<String> leaks = new ArrayList<>();
        for (IoEngine engine : engines) {
            if (engine.inFlight() != 0) {
                leaks.add(engine.name() + " engine: " + engine.inFlight() + " requests still in flight");
            }
            if (engine.staging().held() != 0) {
                leaks.add(engine.name() + " engine: " + engine.staging().held() + " staging bytes still held");
            }
        }
        long fds = openFds();
        if (fds > before.fds()) {
            leaks.add((fds - before.fds()) + " file descriptors more than before (" + fds + " open)");
        }
        long staging = StagingBuffer.outstanding();
        if (staging > before.stagingBuffers()) {
            leaks.add((staging - before.stagingBuffers()) + " staging buffers (native memory) not released");
        }
        Set<Thread> threads = hpioThreads();
        threads.removeAll(before.threads());
        if (!threads.isEmpty()) {
            leaks.add(threads.size() + " hpio threads still alive: " + threads.stream().map(Thread::getName).toList());
        }
        return leaks;
    }

    /** Open file descriptors of this process. */
    public static long openFds() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<Thread> hpioThreads() {
        Set<Thread> threads = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().startsWith("hpio-") && !t.getName().equals("hpio-engine-shutdown")) {
                threads.add(t);
            }
        }
        return threads;
    }
}
