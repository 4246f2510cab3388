package org.hpio.bench.ranks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A rank's sign of life: a daemon thread rewrites {@code alive.RANK} in the session directory with a new count
 * at every beat while the JVM runs. Others tell a dead rank by a heartbeat that stops changing (as seen on their own clock, so the
 * nodes' clocks need not agree). A failed beat (a file system hiccup) is skipped, not fatal.
 */
final class Heartbeat implements AutoCloseable {
    private final Thread beating;

    private Heartbeat(Thread beating) {
        this.beating = beating;
    }

    static Path file(Path session, int rank) {
        return session.resolve("alive." + rank);
    }

    /**
     * Writes the first beat into {@code alive.RANK} in {@code session}, then goes on beating on a thread. The
     * first beat is written before this returns: a rank that joins and dies at once (or closes before its
     * beating thread got to run, as on a loaded machine) still leaves a heartbeat that stands still, so the others
     * name it after the silence limit instead of waiting for the meeting's timeout.
     */
    static Heartbeat start(Path session, int rank, Duration interval) throws IOException {
        Path file = file(session, rank);
        String life = MarkerFile.nonce();
        MarkerFile.write(file, life + " 0");
        Thread thread = Thread.ofPlatform().daemon().name("hpio-rank-heartbeat").unstarted(() -> {
            for (long beat = 1; !Thread.currentThread().isInterrupted(); beat++) {
                try {
                    MarkerFile.write(file, life + " " + beat);
                } catch (IOException e) {
                    // the next beat tries again; a rank whose beats all fail is taken for dead, as it should be
                }
                try {
                    Thread.sleep(interval);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        thread.start();
        return new Heartbeat(thread);
    }

    /** Stops beating (the file stays, and stands still from now on). */
    @Override
    public void close() throws InterruptedException {
        beating.interrupt();
        beating.join();
    }
}
