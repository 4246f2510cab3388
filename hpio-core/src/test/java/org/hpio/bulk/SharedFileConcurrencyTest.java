package org.hpio.bulk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spec 4: the positional readArray/writeArray leave the file pointer alone, for every type; and the
 * shared-file parallel I/O of the paper: many threads each writing, then reading, their own block of one
 * block-distributed array in one shared BulkRandomAccessFile at once.
 */
class SharedFileConcurrencyTest {
    static final int THREADS = 8;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Prim.class)
    void positionalCallsLeaveTheFilePointerAlone(Prim p) throws IOException {
        Object a = p.random(new Random(p.ordinal()), 100);
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(dir.resolve("p"), "rw")) {
            f.writeArray(new byte[7]);
            f.seek(3);
            p.writeAt(f, 7, a, 10, 80);
            assertEquals(3, f.getFilePointer());
            p.writeAt(f, 7 + 80L * p.size, a);
            assertEquals(3, f.getFilePointer());
            assertEquals(7 + 180L * p.size, f.length());
            Object back = p.newArray(100);
            p.readAt(f, 7, back, 10, 80);
            assertEquals(3, f.getFilePointer());
            Prim.assertBits(a, 10, back, 10, 80, "positional slice");
            p.readAt(f, 7 + 80L * p.size, back);
            assertEquals(3, f.getFilePointer());
            Prim.assertBits(a, back, "positional whole array");
            // The pointer-based calls still start at the pointer the positional ones left alone.
            f.seek(7);
            Object again = p.newArray(80);
            p.read(f, again);
            Prim.assertBits(a, 10, again, 0, 80, "at the pointer");
            assertEquals(7 + 80L * p.size, f.getFilePointer());
        }
    }

    /**
     * THREADS threads own one block each of a block-distributed double[]: all write their block at once
     * (in a few positional calls), wait for each other, then read back their own block and their neighbour's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"BIG_ENDIAN", "LITTLE_ENDIAN"})
    void threadsWriteAndReadDisjointBlocksOfOneFile(String orderName) throws Exception {
        ByteOrder order = orderName.equals("BIG_ENDIAN") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        int block = 100_003; // odd, and several staging buffers (256 KiB) per block
        long header = 16;
        double[][] blocks = new double[THREADS][];
        for (int t = 0; t < THREADS; t++) {
            blocks[t] = (double[]) Prim.DOUBLE.random(new Random(t), block);
        }
        Path path = dir.resolve("shared-" + orderName);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(path, "rw", order)) {
            f.writeLong(0x1122334455667788L);
            f.seek(5); // an arbitrary pointer, which no positional call may move
            CyclicBarrier start = new CyclicBarrier(THREADS);
            CyclicBarrier written = new CyclicBarrier(THREADS);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int me = t;
                futures.add(pool.submit(() -> {
                    long base = header + (long) me * block * 8;
                    start.await();
                    // Write in uneven pieces so that calls of different threads interleave.
                    int done = 0;
                    Random r = new Random(me);
                    while (done < block) {
                        int n = Math.min(block - done, 1 + r.nextInt(40_000));
                        f.writeArray(base + 8L * done, blocks[me], done, n);
                        done += n;
                    }
                    written.await();
                    double[] mine = new double[block];
                    f.readArray(base, mine);
                    Prim.assertBits(blocks[me], mine, "thread " + me + " own block");
                    int next = (me + 1) % THREADS;
                    double[] neighbour = new double[block];
                    f.readArray(header + (long) next * block * 8, neighbour, 0, block);
                    Prim.assertBits(blocks[next], neighbour, "thread " + me + " reading block " + next);
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
            assertEquals(5, f.getFilePointer(), "no positional call moved the file pointer");
            assertEquals(header + (long) THREADS * block * 8, f.length());
        } finally {
            pool.shutdownNow();
        }

        // The whole file, read back independently of hpio.
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(path), 1 << 16)) {
            DataInputStream in = new DataInputStream(raw);
            assertEquals(0x1122334455667788L, in.readLong());
            in.skipNBytes(header - 8);
            byte[] element = new byte[8];
            for (int t = 0; t < THREADS; t++) {
                for (int i = 0; i < block; i++) {
                    in.readFully(element);
                    long bits = ByteBuffer.wrap(element).order(order).getLong();
                    if (bits != Double.doubleToRawLongBits(blocks[t][i])) {
                        throw new AssertionError("block " + t + " element " + i + " in " + order);
                    }
                }
            }
            assertEquals(-1, in.read());
        }
    }

    /**
     * Closing the file while other threads are in positional calls: every call either completes with the right
     * data or throws an IOException; nothing else, no crash, and calls after close all fail.
     */
    @Test
    void closeWhilePositionalCallsRun() throws Exception {
        long[] data = (long[]) Prim.LONG.random(new Random(3), 200_000);
        Path path = dir.resolve("closing");
        BulkRandomAccessFile f = new BulkRandomAccessFile(path, "rw");
        f.writeArray(data);
        AtomicBoolean closed = new AtomicBoolean();
        AtomicLong completed = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Throwable>> futures = new ArrayList<>();
            CyclicBarrier start = new CyclicBarrier(5);
            for (int t = 0; t < 4; t++) {
                int me = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    long[] back = new long[data.length];
                    while (true) {
                        boolean wasClosed = closed.get();
                        try {
                            if (me % 2 == 0) {
                                f.readArray(0L, back);
                                Prim.assertBits(data, back, "read during close");
                            } else {
                                f.writeArray(0L, data, 0, data.length);
                            }
                            completed.incrementAndGet();
                            if (wasClosed) {
                                return new AssertionError("a call that started after close() returned succeeded");
                            }
                        } catch (IOException e) {
                            return e;
                        }
                    }
                }));
            }
            start.await();
            while (completed.get() < 8) {
                Thread.onSpinWait();
            }
            f.close();
            closed.set(true);
            for (Future<Throwable> future : futures) {
                Throwable outcome = future.get(60, TimeUnit.SECONDS);
                assertInstanceOf(IOException.class, outcome, () -> "outcome " + outcome);
            }
        } finally {
            pool.shutdownNow();
            f.close();
        }
        assertTrue(completed.get() >= 8);
        // The data written during the race is intact.
        try (BulkRandomAccessFile again = new BulkRandomAccessFile(path, "r")) {
            long[] back = new long[data.length];
            again.readArray(back);
            Prim.assertBits(data, back, "after close");
        }
    }
}
