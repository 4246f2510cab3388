package org.hpio.archive;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link ArchiveLoader}s' decode workers: daemon platform threads ({@code hpio-loader-N}) kept
 * {@value #IDLE_SECONDS} s after a loader is done with them, so that a loader opened after another takes a waiting
 * thread instead of starting one. Starting a thread costs its creator a wait for the new thread's first time
 * slice: measured on 2 vCPUs (Intel Xeon) at the start of a cold trace replay, while the loader's first reads
 * were completing, 0.1 ms usually but 4 to 13 ms in 2 of 16 replays, on the path to the caller's first file.
 */
final class LoaderWorkers {
    static final int IDLE_SECONDS = 30;

    private static final AtomicInteger NUMBER = new AtomicInteger();
    private static final ThreadPoolExecutor POOL = new ThreadPoolExecutor(0, Integer.MAX_VALUE, IDLE_SECONDS,
            TimeUnit.SECONDS, new SynchronousQueue<>(), work -> Thread.ofPlatform().daemon()
            .name("hpio-loader-" + NUMBER.getAndIncrement()).unstarted(work));

    /** The workers of one loader's loop; {@link #awaitUninterruptibly()} returns once every one has returned. */
    static final class Crew {
        private final int workers;
        private final CountDownLatch running;

        private Crew(int workers) {
            this.workers = workers;
            this.running = new CountDownLatch(workers);
        }

        /**
         * Runs {@code loop} on the crew's threads, once. A worker that cannot be started (no thread to be had) is
         * counted as returned and the error thrown, for the caller to close the loader, which makes the started
         * ones return.
         */
        void start(Runnable loop) {
            for (int i = 0; i < workers; i++) {
                try {
                    POOL.execute(() -> {
                        try {
                            loop.run();
                        } finally {
                            running.countDown();
                        }
                    });
                } catch (RuntimeException | Error e) {
                    for (int j = i; j < workers; j++) {
                        running.countDown();
                    }
                    throw e;
                }
            }
        }

        /** Waits until every worker has left the loop, whatever interrupts (the interrupt status is kept). */
        void awaitUninterruptibly() {
            boolean interrupted = false;
            while (running.getCount() > 0) {
                try {
                    running.await();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private LoaderWorkers() {
    }

    /** A crew of {@code workers} threads of the pool, not started yet. */
    static Crew crew(int workers) {
        return new Crew(workers);
    }
}
