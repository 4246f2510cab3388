package org.hpio.bench.nio;

import com.sun.nio.file.ExtendedOpenOption;
import org.hpio.bench.engine.EngineBaseline;
import org.hpio.bench.engine.LatencyHistogram;
import org.hpio.bench.measure.JitQuiet;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static java.nio.file.StandardOpenOption.READ;

/**
 * 4 KiB random O_DIRECT reads through {@link AsynchronousFileChannel} at a queue depth, as code written for it
 * does: opened without an executor (the default pool runs the handlers), {@code depth} chains each of whose
 * handlers checks its block and starts the chain's next read. Latency from just before {@code read} to the
 * handler; CPU time of the whole process over the timed run.
 */
final class AfcReads {
    private static final int BLOCK = EngineBaseline.BLOCK;

    private AfcReads() {
    }

    static void run(Path file, int depth, double seconds, double warmupSeconds, Map<String, Object> result)
            throws Exception {
        long blocks = Files.size(file) / BLOCK;
        try (ThreadPeak threads = ThreadPeak.start();
             AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            result.put("channel", ch.getClass().getName());
            new Chains(ch, depth, blocks, 1).run((long) (warmupSeconds * 1e9)).check("warm-up");
            long extra = JitQuiet.warmUntilQuiet(warmupSeconds,
                    nanos -> new Chains(ch, depth, blocks, 2).run(nanos).check("warm-up"));
            long cpu = NioRow.cpuNanos();
            long jit = JitQuiet.compilerCpuNanos();
            Chains timed = new Chains(ch, depth, blocks, 42).run((long) (seconds * 1e9));
            cpu = NioRow.cpuNanos() - cpu;
            jit = JitQuiet.compilerCpuNanos() - jit;
            timed.check("timed run");
            LatencyHistogram latencies = new LatencyHistogram();
            for (LatencyHistogram h : timed.latencies) {
                latencies.add(h);
            }
            long ios = timed.ios.get();
            result.put("ios", ios);
            result.put("seconds", timed.elapsedNanos / 1e9);
            result.put("iops", ios / (timed.elapsedNanos / 1e9));
            result.put("cpu-per-io", cpu / 1e3 / ios);
            result.put("jit-cpu-per-io", jit / 1e3 / ios);
            result.put("extra-warmup-seconds", extra / 1e9);
            result.put("p50", latencies.quantile(0.5) / 1e3);
            result.put("p99", latencies.quantile(0.99) / 1e3);
            result.put("peak-os-threads", threads.peak());
        }
    }

    /** {@code depth} chains of reads until a deadline; each slot's buffer, offsets and latencies its own. */
    private static final class Chains {
        private final AsynchronousFileChannel ch;
        private final int depth;
        private final long blocks;
        private final long seed;
        final LatencyHistogram[] latencies;
        final AtomicLong ios = new AtomicLong();
        final AtomicLong wrong = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final CountDownLatch drained;
        private long deadline;
        long elapsedNanos;

        Chains(AsynchronousFileChannel ch, int depth, long blocks, long seed) {
            this.ch = ch;
            this.depth = depth;
            this.blocks = blocks;
            this.seed = seed;
            this.latencies = new LatencyHistogram[depth];
            this.drained = new CountDownLatch(depth);
        }

        Chains run(long nanos) throws InterruptedException {
            long start = System.nanoTime();
            deadline = start + nanos;
            for (int slot = 0; slot < depth; slot++) {
                latencies[slot] = new LatencyHistogram();
                new Slot(slot, new SplittableRandom(seed * 1_000_003 + slot)).next();
            }
            if (!drained.await(nanos / 1_000_000 + 60_000, TimeUnit.MILLISECONDS)) {
                failure.compareAndSet(null, new IOException(drained.getCount() + " of " + depth
                        + " read chains made no progress for 60 s"));
            }
            elapsedNanos = System.nanoTime() - start;
            return this;
        }

        void check(String what) throws IOException {
            if (failure.get() != null) {
                throw new IOException(what + ": " + failure.get(), failure.get());
            }
            if (wrong.get() > 0) {
                throw new IOException(what + ": " + wrong.get() + " of " + ios.get() + " reads did not hold their block");
            }
            if (ios.get() == 0) {
                throw new IOException(what + ": no read completed");
            }
        }

        /** One chain: a 4 KiB-aligned direct buffer, the offsets of its own random stream. */
        private final class Slot implements CompletionHandler<Integer, Long> {
            private final int slot;
            private final SplittableRandom random;
            private final ByteBuffer buffer = ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK).limit(BLOCK).slice();
            private final MemorySegment segment = MemorySegment.ofBuffer(buffer);
            private long submitted;

            Slot(int slot, SplittableRandom random) {
                this.slot = slot;
                this.random = random;
            }

            void next() {
                long position = random.nextLong(blocks) * BLOCK;
                EngineBaseline.poison(segment);
                submitted = System.nanoTime();
                try {
                    ch.read(buffer.clear(), position, position, this);
                } catch (RuntimeException e) {
                    failed(e, position);
                }
            }

            @Override
            public void completed(Integer n, Long position) {
                long now = System.nanoTime();
                latencies[slot].record(now - submitted);
                ios.incrementAndGet();
                if (n != BLOCK || EngineBaseline.wrongBlocks(segment, position) != 0) {
                    wrong.incrementAndGet();
                }
                if (now < deadline && failure.get() == null) {
                    next();
                } else {
                    drained.countDown();
                }
            }

            @Override
            public void failed(Throwable e, Long position) {
                failure.compareAndSet(null, e);
                drained.countDown();
            }
        }
    }
}
