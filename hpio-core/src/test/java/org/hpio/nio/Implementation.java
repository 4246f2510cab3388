package org.hpio.nio;

import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/**
 * The channels a contract suite runs on: the JDK's own, and hpio's on each engine; HPIO_URING_RINGS: hpio's
 * FileChannel with its calls spread over two io_uring engines, as the shared engines are on a machine with two
 * cores or more ({@link EngineRings}), ordered so that the starting thread's calls go to the second.
 */
enum Implementation {
    JDK, HPIO_URING, HPIO_THREADS, HPIO_URING_RINGS;

    /** Channels of this implementation, and the engine behind them (null for the JDK's). */
    record Running(Opener opener, IoEngine engine, Runnable release) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            release.run();
            if (engine != null) {
                engine.close();
            }
        }
    }

    /** Starts this implementation; an io_uring case is skipped, saying why, where io_uring is refused. */
    Running start(EngineConfig config) throws IOException {
        return switch (this) {
            case JDK -> new Running(Opener.JDK, null, () -> { });
            case HPIO_URING -> {
                IoEngine engine = openUring(config);
                yield new Running(Opener.hpio(() -> engine), engine, () -> { });
            }
            case HPIO_THREADS -> {
                IoEngine engine = IoEngines.openThreads(config);
                yield new Running(Opener.hpio(() -> engine), engine, () -> { });
            }
            case HPIO_URING_RINGS -> startRings(config);
        };
    }

    private static Running startRings(EngineConfig config) throws IOException {
        IoEngine first = openUring(config);
        IoEngine second;
        try {
            second = openUring(config);
        } catch (IOException | RuntimeException e) {
            first.close();
            throw e;
        }
        List<IoEngine> rings = Thread.currentThread().threadId() % 2 == 0 ? List.of(second, first)
                : List.of(first, second);
        return new Running(Opener.hpio(first, rings), first, () -> {
            try {
                second.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /**
     * Channels whose I/O waits at a gate until {@link Running#release} runs: the JDK's AsynchronousFileChannel
     * does its I/O on its executor, so the executor's threads wait; hpio's portable engine's workers wait.
     * Not possible on io_uring (the kernel does not wait for us): that case is skipped.
     */
    Running startHeld(EngineConfig config) throws IOException {
        CountDownLatch gate = new CountDownLatch(1);
        ThreadFactory held = heldAt(gate);
        return switch (this) {
            case JDK -> {
                ExecutorService executor = Executors.newFixedThreadPool(2, held);
                Opener opener = new Opener() {
                    @Override
                    public FileChannel open(Path path, OpenOption... options) throws IOException {
                        return FileChannel.open(path, options);
                    }

                    @Override
                    public AsynchronousFileChannel openAsync(Path path, Set<? extends OpenOption> options,
                                                             ExecutorService ignored) throws IOException {
                        return AsynchronousFileChannel.open(path, options, executor);
                    }
                };
                yield new Running(opener, null, () -> {
                    gate.countDown();
                    executor.shutdown();
                });
            }
            case HPIO_URING, HPIO_URING_RINGS -> {
                Assumptions.abort("io_uring does not wait at a gate: the kernel does the I/O");
                throw new AssertionError();
            }
            case HPIO_THREADS -> {
                IoEngine engine = IoEngines.openThreads(config.withThreads(2), held);
                yield new Running(Opener.hpio(() -> engine), engine, gate::countDown);
            }
        };
    }

    /** Platform threads (daemons) that wait for {@code gate} before they run their task. */
    static ThreadFactory heldAt(CountDownLatch gate) {
        return r -> Thread.ofPlatform().daemon().unstarted(() -> {
            awaitUninterruptibly(gate);
            r.run();
        });
    }

    private static IoEngine openUring(EngineConfig config) throws IOException {
        try {
            return IoEngines.openUring(config);
        } catch (IOException | UnsupportedOperationException e) {
            System.out.println("SKIPPED (io_uring): " + e.getMessage());
            Assumptions.abort("io_uring is not available here: " + e.getMessage());
            throw e;
        }
    }

    /** Waits for {@code gate}, whatever interrupts come meanwhile (a held thread waits for the gate only). */
    static void awaitUninterruptibly(CountDownLatch gate) {
        while (true) {
            try {
                gate.await();
                return;
            } catch (InterruptedException e) {
                // a held worker waits for the gate only
            }
        }
    }
}
