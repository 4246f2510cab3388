package org.hpio.nio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

/**
 * {@code ManyVirtualReaders DIR jdk|hpio THREADS READS}: THREADS virtual threads each do READS random 4 KiB
 * O_DIRECT reads through one FileChannel (the JDK's, or hpio's), then the JVM's peak count of platform
 * threads, sampled from /proc/self/status every millisecond, above the count before the readers started is
 * printed ({@code extraThreads=N}): a reader that pins its carrier makes the scheduler add carriers.
 */
public final class ManyVirtualReaders {
    private static final int BLOCK = 4096;
    private static final long SIZE = 16L << 20;

    private ManyVirtualReaders() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]).resolve("readers.bin");
        int threads = Integer.parseInt(args[2]);
        int reads = Integer.parseInt(args[3]);
        try (FileChannel out = FileChannel.open(file, CREATE, WRITE)) {
            out.write(ByteBuffer.allocate((int) SIZE), 0);
        }
        AtomicInteger peak = new AtomicInteger();
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peak.accumulateAndGet(osThreads(), Math::max);
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        OpenOption direct = args[1].equals("hpio") ? HpioOpenOption.DIRECT : jdkDirect();
        FileChannel opened;
        try {
            opened = args[1].equals("hpio") ? HpioChannels.open(file, READ, direct) : FileChannel.open(file, READ, direct);
        } catch (IOException e) {
            System.out.println("direct=refused " + e);   // a file system without O_DIRECT (tmpfs)
            return;
        }
        try (FileChannel ch = opened) {
            System.out.println("channel=" + ch.getClass().getName());
            ch.read(ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK).limit(BLOCK), 0);   // engine started
            int before = osThreads();
            List<Thread> all = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                all.add(Thread.ofVirtual().start(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    ByteBuffer buffer = ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK).limit(BLOCK).slice();
                    try {
                        for (int i = 0; i < reads; i++) {
                            if (ch.read(buffer.clear(), random.nextLong(SIZE / BLOCK) * BLOCK) != BLOCK) {
                                throw new AssertionError("short read");
                            }
                        }
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                }));
            }
            for (Thread t : all) {
                t.join();
            }
            sampler.interrupt();
            sampler.join();
            System.out.println("extraThreads=" + (Math.max(peak.get(), osThreads()) - before));
        }
    }

    /** The process's OS threads now (the Threads: line of /proc/self/status). */
    private static int osThreads() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Threads:")) {
                    return Integer.parseInt(line.substring(8).strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return -1;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static OpenOption jdkDirect() throws ClassNotFoundException {
        return (OpenOption) Enum.valueOf((Class) Class.forName("com.sun.nio.file.ExtendedOpenOption"), "DIRECT");
    }
}
