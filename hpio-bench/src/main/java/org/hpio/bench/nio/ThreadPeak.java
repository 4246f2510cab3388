package org.hpio.bench.nio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The most OS threads this process had at once: the {@code Threads:} line of /proc/self/status (the number of
 * entries of /proc/self/task: Java threads, the JVM's own, and the kernel's io_uring workers, which are
 * threads of the process too), read every {@value #PERIOD_MILLIS} ms by a daemon thread of its own (counted).
 */
final class ThreadPeak implements AutoCloseable {
    static final int PERIOD_MILLIS = 5;
    private static final Path STATUS = Path.of("/proc/self/status");

    private final Thread sampler;
    private volatile int peak;
    private volatile boolean stop;

    private ThreadPeak() {
        peak = now();
        sampler = Thread.ofPlatform().daemon().name("nio-thread-count").start(this::sample);
    }

    static ThreadPeak start() {
        return new ThreadPeak();
    }

    private void sample() {
        while (!stop) {
            int n = now();
            if (n > peak) {
                peak = n;
            }
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The peak so far, this instant included. */
    int peak() {
        return Math.max(peak, now());
    }

    /** The process's OS threads now; -1 without /proc. */
    static int now() {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("Threads:")) {
                    return Integer.parseInt(line.substring(8).strip());
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /** This process's threads whose name ({@code /proc/self/task/N/comm}) starts with {@code prefix}; -1 without /proc. */
    static int named(String prefix) {
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            return (int) tasks.filter(task -> {
                try {
                    return Files.readString(task.resolve("comm")).startsWith(prefix);
                } catch (IOException e) {
                    return false;   // the thread ended meanwhile
                }
            }).count();
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        stop = true;
        sampler.interrupt();
    }
}
