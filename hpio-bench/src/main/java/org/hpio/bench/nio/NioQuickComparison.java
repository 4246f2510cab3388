package org.hpio.bench.nio;

import org.hpio.nio.HpioChannels;

import com.sun.nio.file.ExtendedOpenOption;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

/**
 * A rough, by-hand comparison (not a test, not the benchmark suite): 4 KiB random O_DIRECT reads through
 * AsynchronousFileChannel at QD 1 and 32, and through FileChannel from N virtual threads, on the JDK's channels
 * and on hpio's. IOPS, process CPU per I/O, peak platform threads. {@code NioQuickComparison DIR [seconds]
 * [threads] [only]}: {@code only} runs just the rows whose name contains it (peak threads are the JVM's, so
 * compare them from separate runs: a JDK row leaves its carrier threads behind).
 */
public final class NioQuickComparison {
    private static final int BLOCK = 4096;
    private static final long FILE = 256L << 20;
    private static String only = "";

    private NioQuickComparison() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]).resolve("nio-quick.bin");
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : 3;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
        only = args.length > 3 ? args[3] : "";
        try (FileChannel out = FileChannel.open(file, CREATE, WRITE)) {
            ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
            for (long at = 0; at < FILE; at += chunk.capacity()) {
                out.write(chunk.clear(), at);
            }
        }
        try {
            for (int qd : new int[] {1, 32}) {
                afc("jdk-afc-qd" + qd, AsynchronousFileChannel.open(file, READ, ExtendedOpenOption.DIRECT), qd, seconds);
                afc("hpio-afc-qd" + qd, HpioChannels.openAsynchronous(file, Set.of(READ, ExtendedOpenOption.DIRECT), null),
                        qd, seconds);
            }
            futures("jdk-afc-future-qd1", AsynchronousFileChannel.open(file, READ, ExtendedOpenOption.DIRECT), seconds);
            futures("hpio-afc-future-qd1", HpioChannels.openAsynchronous(file, READ, ExtendedOpenOption.DIRECT), seconds);
            fileChannel("jdk-fc-vt" + threads, FileChannel.open(file, READ, ExtendedOpenOption.DIRECT), threads, seconds);
            fileChannel("hpio-fc-vt" + threads, HpioChannels.open(file, READ, ExtendedOpenOption.DIRECT), threads, seconds);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static ByteBuffer aligned() {
        return ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK).limit(BLOCK).slice();
    }

    private static long randomBlock(SplittableRandom random) {
        return random.nextLong(FILE / BLOCK) * BLOCK;
    }

    private static void afc(String name, AsynchronousFileChannel ch, int depth, long seconds) throws Exception {
        if (!name.contains(only)) {
            ch.close();
            return;
        }
        LongAdder done = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch drained = new CountDownLatch(depth);
        long cpu0 = cpu();
        long t0 = System.nanoTime();
        for (int slot = 0; slot < depth; slot++) {
            SplittableRandom random = new SplittableRandom(slot);
            ByteBuffer buffer = aligned();
            ch.read(buffer, randomBlock(random), null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer n, Object a) {
                    done.increment();
                    if (stop.get()) {
                        drained.countDown();
                        return;
                    }
                    ch.read(buffer.clear(), randomBlock(random), null, this);
                }

                @Override
                public void failed(Throwable e, Object a) {
                    e.printStackTrace();
                    drained.countDown();
                }
            });
        }
        Thread.sleep(seconds * 1000);
        stop.set(true);
        drained.await();
        report(name, done.sum(), System.nanoTime() - t0, cpu() - cpu0, -1);
        ch.close();
    }

    /** One platform thread: read, then wait on the Future, again and again. */
    private static void futures(String name, AsynchronousFileChannel ch, long seconds) throws Exception {
        if (!name.contains(only)) {
            ch.close();
            return;
        }
        SplittableRandom random = new SplittableRandom(1);
        ByteBuffer buffer = aligned();
        long ios = 0;
        long cpu0 = cpu();
        long t0 = System.nanoTime();
        long end = t0 + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            ch.read(buffer.clear(), randomBlock(random)).get();
            ios++;
        }
        report(name, ios, System.nanoTime() - t0, cpu() - cpu0, -1);
        ch.close();
    }

    private static void fileChannel(String name, FileChannel ch, int threads, long seconds) throws Exception {
        if (!name.contains(only)) {
            ch.close();
            return;
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        mx.resetPeakThreadCount();
        LongAdder done = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> all = new ArrayList<>();
        long cpu0 = cpu();
        long t0 = System.nanoTime();
        for (int i = 0; i < threads; i++) {
            int seed = i;
            all.add(Thread.ofVirtual().start(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                ByteBuffer buffer = aligned();
                try {
                    while (!stop.get()) {
                        ch.read(buffer.clear(), randomBlock(random));
                        done.increment();
                    }
                } catch (Exception e) {
                    e.printStackTrace();
                }
            }));
        }
        Thread.sleep(seconds * 1000);
        stop.set(true);
        for (Thread t : all) {
            t.join();
        }
        report(name, done.sum(), System.nanoTime() - t0, cpu() - cpu0, mx.getPeakThreadCount());
        ch.close();
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static void report(String name, long ios, long nanos, long cpuNanos, int peakThreads) {
        System.out.printf("%-16s %10.0f IOPS  %8.2f us CPU/IO%s%n", name, ios * 1e9 / nanos, cpuNanos / 1e3 / ios,
                peakThreads < 0 ? "" : "  peak platform threads " + peakThreads);
    }
}
