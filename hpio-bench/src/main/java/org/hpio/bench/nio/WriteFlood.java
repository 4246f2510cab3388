package org.hpio.bench.nio;

import com.sun.management.GarbageCollectionNotificationInfo;

import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.DSYNC;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;

/**
 * 003's experiment ("Blowing up memory"), run in a small heap: {@code writes} writes of {@code writeBytes} each,
 * every one from a fresh heap array, submitted through {@link AsynchronousFileChannel} without waiting, handlers
 * on a single-thread executor as in the article; DSYNC, so that each write waits for the device while
 * submitting only allocates. The JDK's channel keeps every pending write's array on the heap (its executor's
 * queue holds them), so the heap fills until OutOfMemoryError; the submitter then stops. hpio's copies each
 * write off-heap within the engine's staging budget, and the submitting thread waits at that bound.
 *
 * <p>Measured: writes submitted and acknowledged, whether OutOfMemoryError came, the most writes pending at
 * once (submitted, handler not yet run), the most heap live after a collection (from the collector's own
 * notifications), the most heap in use when sampled. Then every acknowledged write is read back through
 * {@link RandomAccessFile} (the JDK alone, whoever's provider is installed) and compared byte for byte.
 */
final class WriteFlood {
    private WriteFlood() {
    }

    static void run(Path file, int writes, int writeBytes, Map<String, Object> result) throws Exception {
        HeapWatch heap = HeapWatch.start();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        boolean[] acknowledged = new boolean[writes];
        AtomicInteger completed = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CompletionHandler<Integer, Integer> handler = new CompletionHandler<>() {
            @Override
            public void completed(Integer n, Integer i) {
                if (n == writeBytes) {
                    acknowledged[i] = true;
                } else {
                    failure.compareAndSet(null, new IOException("write " + i + " moved " + n + " bytes of " + writeBytes));
                }
                completed.incrementAndGet();
            }

            @Override
            public void failed(Throwable e, Integer i) {
                failure.compareAndSet(null, e);
                completed.incrementAndGet();
            }
        };
        int submitted = 0;
        int peakPending = 0;
        boolean outOfMemory = false;
        long start = System.nanoTime();
        AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, Set.of(WRITE, CREATE, TRUNCATE_EXISTING, DSYNC),
                executor);
        result.put("channel", ch.getClass().getName());
        try {
            for (int i = 0; i < writes; i++) {
                byte[] data = new byte[writeBytes];   // where the JDK's row runs out of heap
                fill(data, i);
                ch.write(ByteBuffer.wrap(data), (long) i * writeBytes, i, handler);
                submitted++;
                peakPending = Math.max(peakPending, submitted - completed.get());
            }
        } catch (OutOfMemoryError e) {
            outOfMemory = true;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (completed.get() < submitted && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        long elapsed = System.nanoTime() - start;
        if (completed.get() < submitted) {
            throw new IOException((submitted - completed.get()) + " of " + submitted + " writes never completed");
        }
        ch.close();
        executor.shutdown();
        if (failure.get() != null) {
            throw new IOException("a write failed: " + failure.get(), failure.get());
        }
        long checked = verify(file, acknowledged, writeBytes);
        int acks = 0;
        for (boolean a : acknowledged) {
            acks += a ? 1 : 0;
        }
        result.put("writes", writes);
        result.put("write-bytes", writeBytes);
        result.put("submitted", submitted);
        result.put("acknowledged", acks);
        result.put("out-of-memory", outOfMemory);
        result.put("peak-pending", peakPending);
        result.put("peak-live-heap", heap.peakLive());
        result.put("peak-heap-used", heap.peakUsed());
        result.put("max-heap", Runtime.getRuntime().maxMemory());
        result.put("checked-bytes", checked);
        result.put("seconds", elapsed / 1e9);
    }

    /** Write {@code i}'s bytes: every 8-byte word says which write and where. */
    private static void fill(byte[] data, int i) {
        ByteBuffer b = ByteBuffer.wrap(data);
        for (int at = 0; at + 8 <= data.length; at += 8) {
            b.putLong(at, word(i, at));
        }
    }

    private static long word(int i, int at) {
        return ((long) i << 40) ^ at ^ 0x5DEE_CE66_DL;
    }

    /** Reads back every acknowledged write with the JDK alone and compares each word; the bytes checked. */
    private static long verify(Path file, boolean[] acknowledged, int writeBytes) throws IOException {
        long checked = 0;
        byte[] back = new byte[writeBytes];
        ByteBuffer b = ByteBuffer.wrap(back);
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            for (int i = 0; i < acknowledged.length; i++) {
                if (!acknowledged[i]) {
                    continue;
                }
                in.seek((long) i * writeBytes);
                in.readFully(back);
                for (int at = 0; at + 8 <= writeBytes; at += 8) {
                    if (b.getLong(at) != word(i, at)) {
                        throw new IOException("acknowledged write " + i + " does not hold its bytes at offset " + at);
                    }
                }
                checked += writeBytes;
            }
        }
        return checked;
    }

    /**
     * The heap's peaks: live after each collection (the collector's notifications, summed over the heap's
     * pools), and in use, sampled every millisecond by a daemon thread.
     */
    private static final class HeapWatch {
        private final AtomicLong peakLive = new AtomicLong();
        private final AtomicLong peakUsed = new AtomicLong();
        private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());

        static HeapWatch start() {
            HeapWatch w = new HeapWatch();
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                ((NotificationEmitter) gc).addNotificationListener((n, h) -> {
                    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                        GarbageCollectionNotificationInfo info =
                                GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                        long live = 0;
                        for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                            if (w.heapPools.contains(e.getKey())) {
                                live += e.getValue().getUsed();
                            }
                        }
                        w.peakLive.accumulateAndGet(live, Math::max);
                    }
                }, null, null);
            }
            Thread.ofPlatform().daemon().name("nio-heap-sampler").start(() -> {
                var memory = ManagementFactory.getMemoryMXBean();
                while (true) {
                    try {
                        w.peakUsed.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                        Thread.sleep(1);
                    } catch (InterruptedException | OutOfMemoryError e) {
                        // an OutOfMemoryError here is the experiment's, seen by the submitter too
                    }
                }
            });
            return w;
        }

        long peakLive() {
            return peakLive.get();
        }

        long peakUsed() {
            return peakUsed.get();
        }
    }
}
