package org.hpio.bench.nio;

import com.sun.nio.file.ExtendedOpenOption;
import org.hpio.bench.engine.EngineBaseline;
import org.hpio.bench.engine.LatencyHistogram;
import org.hpio.bench.measure.BlockQueue;
import org.hpio.bench.measure.JitQuiet;
import org.hpio.bench.measure.Stats;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

import static java.nio.file.StandardOpenOption.READ;

/**
 * {@code threads} virtual threads, each reading 4 KiB blocks into an aligned direct buffer (or 64 KiB blocks
 * into a heap buffer: {@link Buffers}) at random offsets of one O_DIRECT
 * {@link FileChannel} (positional reads), every block checked: first for the warm-up, then the timed run,
 * then they stop. IOPS and CPU time over the timed run: a read counts when it completes inside it, whenever it
 * started (a fair queue of 10,000 readers keeps each read about 100 ms in flight; counting only the reads both
 * started and completed inside a 1.5 s run left out its first 100 ms, 6-7% of the row, while the JDK's few
 * active readers, 2.5 ms a read, lost 0.2%: the device's own count, {@link BlockQueue}, showed the gap); the
 * latency of each read completed in the timed run (around the call); the process's peak count of OS threads
 * over its whole life (the JDK's channel pins a carrier in each read, so the scheduler adds carriers, up to
 * 256 by default); and the block layer's account of the file's device over the timed run ({@link BlockQueue}:
 * the reads it took, its time per read and its mean depth); and how the
 * timed run's reads were shared among the threads (reads per thread, p10, p50 and p90): the rate alone does not
 * say whether every thread was served. The JDK's scheduler keeps a carrier on the thread whose read it just
 * finished, and the others wait for a carrier; hpio's channel admits waiting readers in order.
 */
final class VirtualThreadReads {
    private static final int BLOCK = EngineBaseline.BLOCK;

    /** What each thread reads into. */
    enum Buffers {
        /** A 4 KiB direct buffer, aligned for O_DIRECT: the kernel reads into it. */
        DIRECT_4K(BLOCK, false),
        /**
         * A 64 KiB heap buffer ({@code ByteBuffer.allocate}): the JDK reads through a temporary direct buffer of
         * its carrier, hpio through staging memory from its budget.
         */
        HEAP_64K(NioSettings.HEAP_BLOCK, true);

        final int block;
        final boolean heap;

        Buffers(int block, boolean heap) {
            this.block = block;
            this.heap = heap;
        }

        ByteBuffer allocate() {
            return heap ? ByteBuffer.allocate(block)
                    : ByteBuffer.allocateDirect(2 * block).alignedSlice(block).limit(block).slice();
        }
    }
    /** Latencies go to one of these, by thread, each under its own lock (a histogram per thread is 30 KiB). */
    private static final int STRIPES = 16;

    private VirtualThreadReads() {
    }

    static void run(Path file, int threads, double seconds, double warmupSeconds, Buffers buffers,
                    Map<String, Object> result) throws Exception {
        int block = buffers.block;
        long blocks = Files.size(file) / block;
        LongAdder ios = new LongAdder();
        LongAdder wrong = new LongAdder();
        long[] perReader = new long[threads];   // each reader writes its own; read after every reader is joined
        AtomicReference<Throwable> failure = new AtomicReference<>();
        LatencyHistogram[] latencies = new LatencyHistogram[STRIPES];
        ReentrantLock[] locks = new ReentrantLock[STRIPES];
        for (int i = 0; i < STRIPES; i++) {
            latencies[i] = new LatencyHistogram();
            locks[i] = new ReentrantLock();
        }
        try (ThreadPeak peak = ThreadPeak.start();
             FileChannel ch = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            result.put("channel", ch.getClass().getName());
            List<Thread> readers = new ArrayList<>(threads);
            for (int t = 0; t < threads; t++) {
                int reader = t;
                int stripe = t % STRIPES;
                SplittableRandom random = new SplittableRandom(42L * 1_000_003 + t);
                readers.add(Thread.ofVirtual().unstarted(() -> {
                    ByteBuffer buffer = buffers.allocate();
                    MemorySegment segment = MemorySegment.ofBuffer(buffer);
                    try {
                        while (Phase.get() != 2 && failure.get() == null) {
                            long position = random.nextLong(blocks) * block;
                            EngineBaseline.poison(segment);
                            long begin = System.nanoTime();
                            int n = ch.read(buffer.clear(), position);
                            long took = System.nanoTime() - begin;
                            if (n != block || EngineBaseline.wrongBlocks(segment, position) != 0) {
                                wrong.increment();
                            }
                            if (Phase.get() == 1) {   // completed inside the timed run, whenever it started
                                ios.increment();
                                perReader[reader]++;
                                locks[stripe].lock();
                                try {
                                    latencies[stripe].record(took);
                                } finally {
                                    locks[stripe].unlock();
                                }
                            }
                        }
                    } catch (IOException | RuntimeException e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            readers.forEach(Thread::start);
            Thread.sleep(Math.round(warmupSeconds * 1000));
            long extra = JitQuiet.warmUntilQuiet(warmupSeconds, nanos -> Thread.sleep(nanos / 1_000_000));
            Optional<BlockQueue> device = BlockQueue.of(file);
            long cpu = NioRow.cpuNanos();
            long jit = JitQuiet.compilerCpuNanos();
            // The device's counters right around the phase changes: the JIT's count reads a file per thread,
            // slowly beside the JDK's 256 busy carriers, while the stopped readers leave the device idle (the
            // device's rate came out 5% under the JDK's row); the two snapshots cost the CPU figure little.
            BlockQueue.Snapshot before = device.map(BlockQueue::snapshotOrNull).orElse(null);
            long start = System.nanoTime();
            Phase.set(1);
            Thread.sleep(Math.round(seconds * 1000));
            Phase.set(2);
            long elapsed = System.nanoTime() - start;
            BlockQueue.Snapshot after = before == null ? null : device.get().snapshotOrNull();
            cpu = NioRow.cpuNanos() - cpu;
            jit = JitQuiet.compilerCpuNanos() - jit;
            if (before != null) {
                before.putFigures(after, result);
            }
            for (Thread r : readers) {
                r.join();
            }
            long counted = ios.sum();   // after the joins: a read seen done in the timed run counts, however late
            result.put("kernel-submission-threads", ThreadPeak.named("iou-sqp"));   // they live as long as the ring
            if (failure.get() != null) {
                throw new IOException("a reader failed: " + failure.get(), failure.get());
            }
            if (wrong.sum() > 0) {
                throw new IOException(wrong.sum() + " reads did not hold their block");
            }
            if (counted == 0) {
                throw new IOException("no read completed in the timed run");
            }
            LatencyHistogram all = merged(latencies);
            result.put("threads", threads);
            result.put("ios", counted);
            result.put("seconds", elapsed / 1e9);
            result.put("iops", counted / (elapsed / 1e9));
            result.put("cpu-per-io", cpu / 1e3 / counted);
            result.put("jit-cpu-per-io", jit / 1e3 / counted);
            result.put("extra-warmup-seconds", extra / 1e9);
            result.put("p50", all.quantile(0.5) / 1e3);
            result.put("p99", all.quantile(0.99) / 1e3);
            result.put("peak-os-threads", peak.peak());
            putSharing(perReader, result);
        }
    }

    private static LatencyHistogram merged(LatencyHistogram[] stripes) {
        LatencyHistogram all = new LatencyHistogram();
        for (LatencyHistogram h : stripes) {
            all.add(h);
        }
        return all;
    }

    /** How the timed run's reads were shared among the threads: reads per thread, p10, p50 and p90. */
    private static void putSharing(long[] perReader, Map<String, Object> result) {
        for (int q : new int[] {10, 50, 90}) {
            result.put("reader-reads-p" + q, Stats.quantile(perReader, q / 100.0));
        }
    }

    /** The run's phase, one volatile for every reader. */
    private static final class Phase {
        private static volatile int value;

        static int get() {
            return value;
        }

        static void set(int phase) {
            value = phase;
        }
    }
}
