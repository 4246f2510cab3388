package org.hpio.nio;

import org.hpio.internal.io.EngineConfig;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.nio.file.StandardOpenOption.READ;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Completion handlers of channels opened without an executor: on the JDK's default pool, or on hpio's
 * {@link DefaultHandlerPool}, whose threads wait for the engine's completions themselves. The same promises
 * hold on every implementation (handlers may block; a handler that throws costs nothing else); hpio's run on
 * the pool's threads, never on the engine's own.
 */
class DefaultHandlerPoolTest {
    private static final int SIZE = 1 << 20;

    @TempDir
    Path dir;

    private Path file() throws Exception {
        Path file = dir.resolve("data.bin");
        Files.write(file, FileChannelContract.bytes(0, SIZE));
        return file;
    }

    /** Chains of reads, each handler starting the next read of its chain; every byte checked. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void manyHandlerChainsReadEveryByteRightOnThePoolsThreads(Implementation implementation) throws Exception {
        Path file = file();
        int chains = 32;
        int reads = 200;
        Set<String> threads = ConcurrentHashMap.newKeySet();
        AtomicInteger wrong = new AtomicInteger();
        try (Implementation.Running running = implementation.start(EngineConfig.defaults());
             AsynchronousFileChannel ch = running.opener().openAsync(file, Set.of(READ), null)) {
            CountDownLatch done = new CountDownLatch(chains);
            for (int c = 0; c < chains; c++) {
                SplittableRandom random = new SplittableRandom(c);
                ByteBuffer buffer = c % 2 == 0 ? ByteBuffer.allocate(4096) : ByteBuffer.allocateDirect(4096);
                new CompletionHandler<Integer, Long>() {
                    int left = reads;

                    void next() {
                        long position = random.nextLong(SIZE / 4096) * 4096;
                        ch.read(buffer.clear(), position, position, this);
                    }

                    @Override
                    public void completed(Integer n, Long position) {
                        threads.add(Thread.currentThread().getName());
                        byte[] got = new byte[4096];
                        buffer.flip().get(got);
                        if (n != 4096 || !Arrays.equals(got, FileChannelContract.bytes((int) (long) position, 4096))) {
                            wrong.incrementAndGet();
                        }
                        if (--left == 0) {
                            done.countDown();
                        } else {
                            next();
                        }
                    }

                    @Override
                    public void failed(Throwable e, Long position) {
                        wrong.incrementAndGet();
                        done.countDown();
                    }
                }.next();
            }
            assertTrue(done.await(60, TimeUnit.SECONDS), "chains left: " + done.getCount());
        }
        assertEquals(0, wrong.get(), "reads that failed or read wrong bytes");
        if (implementation != Implementation.JDK) {
            assertTrue(threads.stream().allMatch(t -> t.startsWith("hpio-nio-handler-")),
                    "handlers ran on the pool's threads only, never the engine's: " + threads);
        }
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void aHandlerThatBlocksUntilALaterHandlerRunsDoesNotHoldItUp(Implementation implementation) throws Exception {
        Path file = file();
        try (Implementation.Running running = implementation.start(EngineConfig.defaults());
             AsynchronousFileChannel ch = running.opener().openAsync(file, Set.of(READ), null)) {
            CountDownLatch laterRan = new CountDownLatch(1);
            CompletableFuture<Boolean> firstSawIt = new CompletableFuture<>();
            ch.read(ByteBuffer.allocate(100), 0, null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer n, Object a) {
                    try {
                        firstSawIt.complete(laterRan.await(30, TimeUnit.SECONDS));   // blocks its thread
                    } catch (InterruptedException e) {
                        firstSawIt.completeExceptionally(e);
                    }
                }

                @Override
                public void failed(Throwable e, Object a) {
                    firstSawIt.completeExceptionally(e);
                }
            });
            ch.read(ByteBuffer.allocate(100), 4096, null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer n, Object a) {
                    laterRan.countDown();
                }

                @Override
                public void failed(Throwable e, Object a) {
                    laterRan.countDown();
                }
            });
            assertTrue(firstSawIt.get(60, TimeUnit.SECONDS), "the later handler waited behind the blocked one");
        }
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void aHandlerThatThrowsLeavesThePoolServing(Implementation implementation) throws Exception {
        Path file = file();
        try (Implementation.Running running = implementation.start(EngineConfig.defaults());
             AsynchronousFileChannel ch = running.opener().openAsync(file, Set.of(READ), null)) {
            for (int i = 0; i < 3; i++) {
                ch.read(ByteBuffer.allocate(10), 0, null, new CompletionHandler<Integer, Object>() {
                    @Override
                    public void completed(Integer n, Object a) {
                        throw new IllegalStateException("a handler's own failure (expected in this test)");
                    }

                    @Override
                    public void failed(Throwable e, Object a) {
                    }
                });
            }
            CompletableFuture<byte[]> read = new CompletableFuture<>();
            ByteBuffer dst = ByteBuffer.allocate(64);
            ch.read(dst, 128, null, new CompletionHandler<Integer, Object>() {
                @Override
                public void completed(Integer n, Object a) {
                    read.complete(Arrays.copyOf(dst.array(), n));
                }

                @Override
                public void failed(Throwable e, Object a) {
                    read.completeExceptionally(e);
                }
            });
            assertArrayEquals(FileChannelContract.bytes(128, 64), read.get(60, TimeUnit.SECONDS));
        }
    }
}
