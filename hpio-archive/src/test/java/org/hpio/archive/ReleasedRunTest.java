package org.hpio.archive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Found by review (session 29): a load that gave up (interrupted while its run's reads were still queued behind
 * others) released the run, whose memory went back to the pool, and its queued reads started later, into memory
 * another load then had. A released run's queued pieces are now dropped, never started.
 */
class ReleasedRunTest {
    @TempDir
    Path dir;

    @Test
    void theQueuedReadsOfAReleasedRunNeverStart() throws Exception {
        Path file = dir.resolve("f.bin");
        Files.write(file, new byte[1 << 20]);
        try (BlockIo io = BlockIo.open(file, LoadOptions.defaults(), false)) {
            int live = ReadRun.LIVE.get();
            ReadRun run = new ReadRun(0, 1 << 20, 0, 64 << 10, 1, io, "f.bin");
            ReentrantLock lock = new ReentrantLock();
            ReadQueue reads = new ReadQueue(io, lock);
            lock.lock();
            try {
                reads.add(run);
            } finally {
                lock.unlock();
            }
            run.release();   // the load gave up before any of its reads started
            lock.lock();
            try {
                reads.start();
            } finally {
                lock.unlock();
            }
            for (ReadRun.Piece p : run.pieces()) {
                assertFalse(p.isStarted(), "a read into memory that went back to the pool");
            }
            assertEquals(live, ReadRun.LIVE.get());
            reads.settleAndClear();
        }
    }
}
