package org.hpio.bench.engine;

import java.util.SplittableRandom;

/**
 * What one configuration does: random or sequential, reads or writes, the transfer size, and whether the file
 * is opened with O_DIRECT (bypassing the page cache) or buffered.
 *
 * @param key       the name part and {@code --configs} key: random, seq-read, seq-write, warm
 * @param blockSize bytes per I/O, a multiple of 4 KiB
 * @param fileSize  bytes of the file, a multiple of {@code blockSize}
 */
record Workload(String key, Kind kind, int blockSize, long fileSize, boolean direct) {
    enum Kind { RANDOM_READ, SEQUENTIAL_READ, SEQUENTIAL_WRITE }

    static final String RANDOM = "random";
    static final String SEQ_READ = "seq-read";
    static final String SEQ_WRITE = "seq-write";
    static final String WARM = "warm";

    Workload {
        if (blockSize % BlockPattern.BLOCK != 0 || fileSize < blockSize || fileSize % blockSize != 0) {
            throw new IllegalArgumentException("block " + blockSize + " does not divide the file of " + fileSize + " bytes");
        }
    }

    static Workload random(long fileSize) {
        return new Workload(RANDOM, Kind.RANDOM_READ, BlockPattern.BLOCK, fileSize, true);
    }

    static Workload sequentialRead(long fileSize) {
        return new Workload(SEQ_READ, Kind.SEQUENTIAL_READ, 1 << 20, fileSize, true);
    }

    static Workload sequentialWrite(long fileSize) {
        return new Workload(SEQ_WRITE, Kind.SEQUENTIAL_WRITE, 1 << 20, fileSize, true);
    }

    static Workload warm(long fileSize) {
        return new Workload(WARM, Kind.RANDOM_READ, BlockPattern.BLOCK, fileSize, false);
    }

    boolean writes() {
        return kind == Kind.SEQUENTIAL_WRITE;
    }

    /** The configuration name: {@code uring-qd32}, {@code uring-seq-read-qd8}, {@code threads-warm-qd1}. */
    String configuration(String mechanism, int queueDepth) {
        String middle = key.equals(RANDOM) ? "" : "-" + key;
        return mechanism + middle + "-qd" + queueDepth;
    }

    Offsets offsets(long seed) {
        return new Offsets(this, seed);
    }

    /** The file offsets of one run, in submission order. One thread. */
    static final class Offsets {
        private final Workload workload;
        private final SplittableRandom random;
        private long next;
        private boolean wrapped;

        private Offsets(Workload workload, long seed) {
            this.workload = workload;
            this.random = new SplittableRandom(seed);
        }

        long next() {
            long blocks = workload.fileSize / workload.blockSize;
            if (workload.kind == Kind.RANDOM_READ) {
                return random.nextLong(blocks) * workload.blockSize;
            }
            long position = next;
            next += workload.blockSize;
            if (next == workload.fileSize) {
                next = 0;
                wrapped = true;
            }
            return position;
        }

        /** The bytes from offset 0 that sequential I/O has covered so far. */
        long extent() {
            return wrapped ? workload.fileSize : next;
        }
    }
}
