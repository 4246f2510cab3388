package org.hpio.bench.nio;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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

    /**
     * The process's OS threads now; -1 without /proc. Read with {@code java.io} (which no FileSystemProvider
     * serves), so that on hpio's rows the instrument does not put its own reads in the engine it measures.
     */
    static int now() {
        try (BufferedReader status = new BufferedReader(new FileReader(STATUS.toFile(), StandardCharsets.US_ASCII))) {
            for (String line = status.readLine(); line != null; line = status.readLine()) {
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
        File[] tasks = new File("/proc/self/task").listFiles();
        if (tasks == null) {
            return -1;
        }
        int n = 0;
        for (File task : tasks) {
            try (BufferedReader comm = new BufferedReader(new FileReader(new File(task, "comm"), StandardCharsets.US_ASCII))) {
                String name = comm.readLine();
                if (name != null && name.startsWith(prefix)) {
                    n++;
                }
            } catch (IOException e) {
                // the thread ended meanwhile
            }
        }
        return n;
    }

    @Override
    public void close() {
        stop = true;
        sampler.interrupt();
    }
}
