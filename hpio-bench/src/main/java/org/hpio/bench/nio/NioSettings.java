package org.hpio.bench.nio;

import org.hpio.bench.suite.BenchOptions;
import org.hpio.internal.io.EngineConfig;

import java.util.List;

/**
 * The nio suite's sizes. Quick (the default of {@code hpio bench}): a 256 MiB file, 1.5 s per row after a
 * 1 s warm-up (JIT included), one round but three interleaved rounds of (c)'s rows, whose IOPS ratio is a target
 * and moves 10-25% between single samples on a shared virtio disk, and of (f)'s first calls, a cold JVM each,
 * whose single samples move 2-5x, 64 flood writes; {@code --full}: 1 GiB, 5 s
 * after 2 s, three interleaved rounds of every read row (the median by IOPS reported), 256 flood writes. {@code --size} sets the file, {@value #SECONDS_PROPERTY}
 * the seconds per row.
 *
 * @param fileSize        the pattern file the reads go to (a multiple of 1 MiB)
 * @param seconds         timed seconds per row
 * @param warmupSeconds   untimed (still checked) seconds before, in the same JVM
 * @param rounds          how many times each read row runs, interleaved; the median by IOPS is reported
 * @param vthreadRounds   the same for (c)'s rows (the virtual threads and their uring reference) and (f)'s, at
 *                        least rounds
 * @param depths          the AsynchronousFileChannel queue depths
 * @param threads         the virtual thread counts of the FileChannel rows
 * @param floodWrites     writes the flood submits (at most: the JDK's runs out of heap first)
 * @param floodWriteBytes bytes per flood write, each a fresh heap array
 * @param floodHeap       the flood JVM's -Xmx
 */
record NioSettings(long fileSize, double seconds, double warmupSeconds, int rounds, int vthreadRounds,
                   List<Integer> depths, List<Integer> threads, int floodWrites, int floodWriteBytes, String floodHeap) {
    static final String SECONDS_PROPERTY = "hpio.bench.nio.seconds";
    /** The queue depth of the targets. */
    static final int TARGET_DEPTH = 32;
    /**
     * The depth of (c)'s reference row: the shared engine's bound on requests in flight, so the most reads hpio's
     * channel can have in the kernel, and the JDK's most blocked carriers (256).
     */
    static final int VTHREADS_REFERENCE_DEPTH = EngineConfig.DEFAULT_MAX_IN_FLIGHT;
    static final int FLOOD_WRITE_BYTES = 4 << 20;
    /** The size of the small files whose {@code Files.readAllBytes} the {@code small} rows time. */
    static final int SMALL_FILE_BYTES = 1024;
    /** The first-call rows' pause before the call, standing for the rest of a program's start-up. */
    static final int FIRST_CALL_PAUSE_MILLIS = 250;
    static final String FLOOD_HEAP = "64m";
    /** The block the heap rows read: 64 KiB, so that their threads' reads want more than the staging budget. */
    static final int HEAP_BLOCK = 64 << 10;
    /**
     * The heap rows' virtual threads: 2,000 reads of {@link #HEAP_BLOCK} want 125 MiB of staging, twice one
     * engine's budget (EngineConfig.DEFAULT_MAX_STAGING_BYTES): on one ring half of them wait for it, on two
     * (IoEngines.sharedRings, two cores) they about fit.
     */
    static final int HEAP_THREADS = 2000;

    NioSettings {
        depths = List.copyOf(depths);
        threads = List.copyOf(threads);
        if (fileSize < (1 << 20) || fileSize % (1 << 20) != 0) {
            throw new IllegalArgumentException("the nio suite's file must be a positive multiple of 1 MiB: " + fileSize);
        }
        if (!(seconds > 0) || !(warmupSeconds >= 0) || rounds < 1 || vthreadRounds < rounds) {
            throw new IllegalArgumentException("durations must be positive, rounds at least 1 and (c)'s at least as many");
        }
    }

    static NioSettings of(BenchOptions options) {
        boolean quick = options.quick();
        long size = options.sizeOr(1L << 30, 256L << 20) / (1 << 20) * (1 << 20);
        double seconds = Double.parseDouble(System.getProperty(SECONDS_PROPERTY, quick ? "1.5" : "5"));
        return new NioSettings(size, seconds, quick ? 1 : 2, quick ? 1 : 3, 3, List.of(1, 4, TARGET_DEPTH),
                List.of(1000, 10_000), quick ? 64 : 256, FLOOD_WRITE_BYTES, FLOOD_HEAP);
    }

    /** The flood's bound on hpio's side: the engine's staging budget (64 MiB) in writes of this size. */
    int stagedWrites() {
        return (int) (EngineConfig.DEFAULT_MAX_STAGING_BYTES / floodWriteBytes);
    }

    /** -Xmx in bytes. */
    long floodHeapBytes() {
        return BenchOptions.parseSize(floodHeap);
    }
}
