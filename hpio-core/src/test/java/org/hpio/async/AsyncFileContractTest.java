package org.hpio.async;

import org.hpio.bulk.BulkDataOutputStream;
import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoOperation;
import org.hpio.internal.sys.Errno;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.StandardOpenOption;
import java.nio.channels.FileChannel;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What AsyncFile promises, on each engine (one subclass per engine). */
abstract class AsyncFileContractTest {
    @TempDir
    Path dir;
    IoEngine engine;

    abstract IoEngine openEngine(EngineConfig config) throws IOException;

    @BeforeEach
    void start() throws IOException {
        engine = openEngine(EngineConfig.defaults());
    }

    @AfterEach
    void stop() throws IOException {
        engine.close();
    }

    AsyncFile open(Path path, String mode) throws IOException {
        return new AsyncFile(path, mode, AsyncFileOptions.defaults(), engine);
    }

    AsyncFile open(Path path, String mode, AsyncFileOptions options) throws IOException {
        return new AsyncFile(path, mode, options, engine);
    }

    @Test
    void everyTypeRoundTripsAndMatchesDataOutputStreamByteForByte() throws Exception {
        Random random = new Random(7);
        int n = 1000 + random.nextInt(1000);
        long[] longs = random.longs(n).toArray();
        int[] ints = random.ints(n).toArray();
        double[] doubles = random.doubles(n).toArray();
        short[] shorts = new short[n];
        char[] chars = new char[n];
        byte[] bytes = new byte[n];
        float[] floats = new float[n];
        boolean[] booleans = new boolean[n];
        for (int i = 0; i < n; i++) {
            shorts[i] = (short) random.nextInt();
            chars[i] = (char) random.nextInt();
            bytes[i] = (byte) random.nextInt();
            floats[i] = random.nextFloat();
            booleans[i] = random.nextBoolean();
        }
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(expected)) {
            for (long v : longs) out.writeLong(v);
            for (int v : ints) out.writeInt(v);
            for (double v : doubles) out.writeDouble(v);
            for (short v : shorts) out.writeShort(v);
            for (char v : chars) out.writeChar(v);
            out.write(bytes);
            for (float v : floats) out.writeFloat(v);
            for (boolean v : booleans) out.writeBoolean(v);
        }
        Path path = dir.resolve("types");
        Object[] arrays = {longs, ints, doubles, shorts, chars, bytes, floats, booleans};
        try (AsyncFile f = open(path, "rw")) {
            List<AsyncFileRequest> writes = new ArrayList<>();
            for (Object a : arrays) {
                writes.add(f.writeArray(a));   // no waiting in between: the pointer advanced at initiation
            }
            assertEquals(expected.size(), f.getFilePointer());
            assertTrue(AsyncFile.allDone(AsyncFile.TIME_INF, writes.toArray(AsyncFileRequest[]::new)));
        }
        assertArrayEquals(expected.toByteArray(), Files.readAllBytes(path));
        try (AsyncFile f = open(path, "r")) {
            Object[] back = {new long[n], new int[n], new double[n], new short[n], new char[n], new byte[n],
                    new float[n], new boolean[n]};
            List<AsyncFileRequest> reads = new ArrayList<>();
            for (Object a : back) {
                reads.add(f.readArray(a));
            }
            assertTrue(f.allDone(AsyncFile.TIME_INF));
            for (int i = 0; i < arrays.length; i++) {
                assertTrue(Objects.deepEquals(arrays[i], back[i]), "type " + i);
            }
        }
    }

    @Test
    void nativeOrderWritesMemoryAsItIs() throws Exception {
        Path path = dir.resolve("native");
        int[] ints = new Random(3).ints(5000).toArray();
        try (AsyncFile f = open(path, "rw", AsyncFileOptions.defaults().withOrder(ByteOrder.nativeOrder()))) {
            assertTrue(f.writeArray(ints).done());
        }
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.nativeOrder());
        for (int v : ints) {
            assertEquals(v, b.getInt());
        }
    }

    @Test
    void rangesPositionsAndTheFilePointer() throws Exception {
        Path path = dir.resolve("ranges");
        long[] data = new Random(5).longs(100).toArray();
        try (AsyncFile f = open(path, "rw")) {
            f.writeArray(data, 10, 20).done();                 // elements 10..29 at 0
            assertEquals(160, f.getFilePointer());
            f.writeArray(800, data, 0, 10).done();             // positional: the pointer stays
            assertEquals(160, f.getFilePointer());
            assertEquals(880, f.length());
            long[] back = new long[30];
            f.seek(0);
            f.readArray(back, 5, 20).done();
            assertArrayEquals(Arrays.copyOfRange(data, 10, 30), Arrays.copyOfRange(back, 5, 25));
            long[] tail = new long[10];
            f.readArray(800, tail).done();
            assertArrayEquals(Arrays.copyOfRange(data, 0, 10), tail);
        }
    }

    @Test
    void badCallsFailAtInitiationAndChangeNothing() throws Exception {
        Path path = dir.resolve("bad");
        Files.write(path, new byte[64]);
        try (AsyncFile f = open(path, "r")) {
            assertThrows(EOFException.class, () -> f.readArray(new long[9]));
            assertEquals(0, f.getFilePointer(), "a refused request leaves the pointer");
            assertThrows(EOFException.class, () -> f.readArray(60, new int[2]));
            assertThrows(IndexOutOfBoundsException.class, () -> f.readArray(new int[4], 3, 2));
            assertThrows(IllegalArgumentException.class, () -> f.readArray("not an array"));
            assertThrows(NullPointerException.class, () -> f.readArray((Object) null));
            assertThrows(IOException.class, () -> f.writeArray(new int[1]), "read-only file");
            assertThrows(IOException.class, () -> f.seek(-1));
            assertTrue(f.allDone(0), "nothing was started");
        }
        assertThrows(IllegalArgumentException.class, () -> open(path, "w"));
        assertThrows(IOException.class, () -> open(dir.resolve("missing"), "r"));
    }

    @Test
    void aReadMayFollowAWriteStillInFlight() throws Exception {
        Path path = dir.resolve("follow");
        try (AsyncFile f = open(path, "rw")) {
            int[] data = new Random(9).ints(20_000).toArray();
            AsyncFileRequest w = f.writeArray(data);
            w.done();
            int[] back = new int[data.length];
            f.readArray(0, back).done();
            assertArrayEquals(data, back);
        }
    }

    @Test
    void theCallerMayReuseAHeapArrayAsSoonAsAWriteIsInitiated() throws Exception {
        Path path = dir.resolve("reuse");
        try (AsyncFile f = open(path, "rw")) {
            long[] data = new long[100_000];
            Arrays.fill(data, 42);
            AsyncFileRequest w = f.writeArray(data);
            Arrays.fill(data, -1);                             // before the write is done
            w.done();
            long[] back = new long[data.length];
            f.readArray(0, back).done();
            assertTrue(Arrays.stream(back).allMatch(v -> v == 42));
        }
    }

    @Test
    void byteBuffersAndSegmentsHeapAndNative() throws Exception {
        Path path = dir.resolve("buffers");
        byte[] bytes = new byte[10_000];
        new Random(11).nextBytes(bytes);
        try (AsyncFile f = open(path, "rw"); Arena arena = Arena.ofConfined()) {
            f.write(ByteBuffer.wrap(bytes, 0, 4000)).done();
            ByteBuffer direct = ByteBuffer.allocateDirect(3000).put(bytes, 4000, 3000).flip();
            f.write(direct).done();
            assertEquals(0, direct.position(), "position left alone");
            MemorySegment segment = arena.allocate(3000);
            MemorySegment.copy(bytes, 7000, segment, ValueLayout.JAVA_BYTE, 0, 3000);
            f.write(segment).done();
            assertArrayEquals(bytes, Files.readAllBytes(path));
            MemorySegment back = arena.allocate(bytes.length);
            f.read(0, back).done();
            assertArrayEquals(bytes, back.toArray(ValueLayout.JAVA_BYTE));
            ByteBuffer heap = ByteBuffer.allocate(100);
            f.read(500, heap).done();
            assertArrayEquals(Arrays.copyOfRange(bytes, 500, 600), heap.array());
            assertThrows(ReadOnlyBufferException.class, () -> f.read(0, heap.asReadOnlyBuffer()));
        }
    }

    @Test
    void zeroLengthRequestsAreDoneAtOnce() throws Exception {
        try (AsyncFile f = open(dir.resolve("zero"), "rw")) {
            AsyncFileRequest r = f.writeArray(new int[0]);
            assertTrue(r.done(0));
            assertEquals(AsyncFileRequest.State.COMPLETED, r.state());
            assertTrue(f.readArray(new long[0]).done(0));
        }
    }

    @Test
    void offsetsPastFourGibibytesOnASparseFile() throws Exception {
        Path path = dir.resolve("sparse");
        long position = (5L << 30) + 12;
        double[] data = new Random(13).doubles(1000).toArray();
        try (AsyncFile f = open(path, "rw")) {
            f.writeArray(position, data).done();
            assertEquals(position + 8000, f.length());
            double[] back = new double[1000];
            f.readArray(position, back).done();
            assertArrayEquals(data, back);
        }
    }

    @Test
    void readsWhatBulkDataOutputStreamWrote() throws Exception {
        Path path = dir.resolve("bulk");
        short[] data = new short[30_001];
        for (int i = 0; i < data.length; i++) {
            data[i] = (short) (i * 31);
        }
        try (BulkDataOutputStream out = new BulkDataOutputStream(new FileOutputStream(path.toFile()))) {
            out.writeInt(data.length);
            out.writeArray(data);
        }
        try (AsyncFile f = open(path, "r")) {
            int[] header = new int[1];
            f.readArray(header).done();
            short[] back = new short[header[0]];
            f.readArray(back).done();
            assertArrayEquals(data, back);
        }
    }

    @Test
    void anErrorIsThrownByEveryDoneMethodUntilCleared() throws Exception {
        Path full = Path.of("/dev/full");
        try (AsyncFile f = open(full, "rw"); AsyncFile other = open(dir.resolve("other"), "rw")) {
            AsyncFileRequest ok = other.writeArray(new int[10]);
            AsyncFileRequest bad = f.writeArray(new byte[8192]);
            IOException first = assertThrows(IOException.class, bad::done);
            assertTrue(first.getMessage().contains("No space left") || first.getMessage().contains("ENOSPC"),
                    first.getMessage());
            assertEquals(AsyncFileRequest.State.IO_ERROR, bad.state());
            assertThrows(IOException.class, () -> bad.done(0), "again, until cleared");
            assertThrows(IOException.class, () -> f.allDone(0));
            assertThrows(IOException.class, () -> AsyncFile.anyDone(AsyncFile.TIME_INF, ok, bad));
            assertThrows(IOException.class, () -> AsyncFile.allDone(AsyncFile.TIME_INF, ok, bad));
            bad.clearException();
            assertEquals(AsyncFileRequest.State.ERROR_CLEARED, bad.state());
            assertTrue(bad.done(0));
            assertTrue(f.allDone(0));
            assertTrue(AsyncFile.allDone(AsyncFile.TIME_INF, ok, bad));
            assertSame(bad.exception(), bad.exception());
        }
    }

    @Test
    void anyDoneAndAllDoneAcrossFilesSkipNulls() throws Exception {
        try (AsyncFile a = open(dir.resolve("a"), "rw"); AsyncFile b = open(dir.resolve("b"), "rw")) {
            AsyncFileRequest ra = a.writeArray(new long[50_000]);
            AsyncFileRequest rb = b.writeArray(new long[50_000]);
            assertTrue(AsyncFile.anyDone(AsyncFile.TIME_INF, ra, null, rb));
            assertTrue(ra.done(0) || rb.done(0));
            assertTrue(AsyncFile.allDone(AsyncFile.TIME_INF, null, ra, rb));
            assertTrue(ra.done(0) && rb.done(0));
            assertFalse(AsyncFile.anyDone(0), "no request: never satisfied");
        }
    }

    @Test
    void theFutureCompletesOffTheEngineThreads() throws Exception {
        try (AsyncFile f = open(dir.resolve("future"), "rw")) {
            AsyncFileRequest w = f.writeArray(new int[1000]);
            String[] thread = new String[1];
            long bytes = w.toCompletableFuture().thenApply(n -> {
                thread[0] = Thread.currentThread().getName();
                return n;
            }).get(30, TimeUnit.SECONDS);
            assertEquals(4000, bytes);
            assertFalse(thread[0].startsWith("hpio-"), "ran on " + thread[0]);
        }
        try (AsyncFile full = open(Path.of("/dev/full"), "rw")) {
            var failed = full.writeArray(new byte[4096]).toCompletableFuture();
            var e = assertThrows(ExecutionException.class, () -> failed.get(30, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof IOException);
        }
    }

    @Test
    void forcesAndDurableWritesComplete() throws Exception {
        Path path = dir.resolve("durable");
        long[] data = new Random(17).longs(300_000).toArray();   // 2.4 MB: beyond one pooled staging buffer
        try (AsyncFile f = open(path, "rw")) {
            AsyncFileRequest w = f.writeArrayDurably(data, false);
            assertTrue(w.done());
            assertEquals(data.length * 8L, w.transferred());
            f.writeArray(new long[10]).done();
            assertTrue(f.force(true).done());
            assertTrue(f.force(false).done());
        }
        assertEquals(data.length * 8L + 80, Files.size(path));
    }

    @Test
    void closeWaitsForRequestsInFlightAndThenRefusesMore() throws Exception {
        Path path = dir.resolve("close");
        AsyncFile f = open(path, "rw");
        List<AsyncFileRequest> writes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            writes.add(f.writeArray(new int[50_000]));
        }
        f.close();
        for (AsyncFileRequest r : writes) {
            assertEquals(AsyncFileRequest.State.COMPLETED, r.state(), r.toString());
        }
        assertEquals(20 * 200_000L, Files.size(path));
        assertThrows(IOException.class, () -> f.writeArray(new int[1]));
        f.close();
    }

    @Test
    void anInjectedEioIsAnIoError() throws Exception {
        try (IoEngine faulty = openEngine(EngineConfig.defaults().withFaults(op ->
                op.kind() == IoOperation.Kind.READ ? Errno.EIO : 0));
             AsyncFile f = new AsyncFile(dir.resolve("eio"), "rw", AsyncFileOptions.defaults(), faulty)) {
            f.writeArray(new int[100]).done();
            int[] back = new int[100];
            Arrays.fill(back, 7);
            AsyncFileRequest r = f.readArray(0, back);
            IOException e = assertThrows(IOException.class, r::done);
            assertTrue(e.getMessage().contains("Input/output error") || e.getMessage().contains("EIO"), e.getMessage());
            assertTrue(Arrays.stream(back).allMatch(v -> v == 7), "a failed read leaves the array alone");
        }
    }

    @Test
    void onlyDurableWritesAndForcesAskTheKernelToForce() throws Exception {
        List<IoOperation.Kind> kinds = Collections.synchronizedList(new ArrayList<>());
        try (IoEngine watched = openEngine(EngineConfig.defaults().withFaults(op -> {
                 kinds.add(op.kind());
                 return 0;
             }));
             AsyncFile f = new AsyncFile(dir.resolve("kinds"), "rw", AsyncFileOptions.defaults(), watched)) {
            f.writeArray(new int[10]).done();
            f.write(0, ByteBuffer.allocate(8)).done();
            f.readArray(0, new int[2]).done();
            f.writeArrayDurably(0, new int[4], 0, 4, false).done();
            f.force(true).done();
        }
        var k = IoOperation.Kind.class;
        assertEquals(List.of(Enum.valueOf(k, "WRITE"), Enum.valueOf(k, "WRITE"), Enum.valueOf(k, "READ"),
                Enum.valueOf(k, "WRITE_THEN_FSYNC"), Enum.valueOf(k, "FSYNC")), kinds);
    }

    @Test
    void aFileWithoutCopyOffloadMarksEveryTransferSoAndMovesTheSameBytes() throws Exception {
        long[] data = new long[512 << 10];   // 4 MiB: parts well above the 128 KiB an engine would offload
        Random random = new Random(7);
        for (int i = 0; i < data.length; i++) {
            data[i] = random.nextLong();
        }
        for (boolean offload : new boolean[] {true, false}) {
            List<IoOperation> ops = Collections.synchronizedList(new ArrayList<>());
            try (IoEngine watched = openEngine(EngineConfig.defaults().withFaults(op -> {
                     ops.add(op);
                     return 0;
                 }));
                 AsyncFile f = new AsyncFile(dir.resolve("offload-" + offload), "rw",
                         AsyncFileOptions.defaults().withOffloadCopies(offload), watched)) {
                assertEquals(offload, f.options().offloadCopies());
                f.writeArray(data).done();
                long[] back = new long[data.length];
                f.readArray(0, back).done();
                assertArrayEquals(data, back);
            }
            assertTrue(ops.size() >= 2, "the engine saw " + ops);
            for (IoOperation op : ops) {
                assertEquals(offload, op.offloadCopy(), op.describe());
            }
        }
    }

    @Test
    void manyThreadsInitiateAndWaitAtOnce() throws Exception {
        Path path = dir.resolve("threads");
        try (AsyncFile f = open(path, "rw")) {
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < 8; t++) {
                int id = t;
                Thread.Builder builder = t % 2 == 0 ? Thread.ofPlatform() : Thread.ofVirtual();
                threads.add(builder.start(() -> {
                    try {
                        for (int i = 0; i < 50; i++) {
                            int[] data = new int[1024];
                            Arrays.fill(data, id * 1000 + i);
                            long pos = ((long) id * 50 + i) * 4096;
                            f.writeArray(pos, data).done();
                            int[] back = new int[1024];
                            f.readArray(pos, back).done();
                            assertArrayEquals(data, back);
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join(60_000);
            }
            assertEquals(List.of(), failures);
        }
    }

    @Test
    void aPlainWriteLargerThanOneKernelCallIsWrittenInParts() throws Exception {
        // A sparse source mapped read-only (its pages are never touched by /dev/null): 2 GiB and 4 KiB.
        Path source = dir.resolve("sparse-source");
        long bytes = (2L << 30) + 4096;
        try (FileChannel ch = FileChannel.open(source, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
             Arena arena = Arena.ofShared()) {
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(new byte[1]), bytes - 1);
            MemorySegment src = ch.map(FileChannel.MapMode.READ_ONLY, 0, bytes, arena);
            try (AsyncFile sink = open(Path.of("/dev/null"), "rw")) {
                AsyncFileRequest r = sink.write(0, src);
                assertTrue(r.done(AsyncFile.TIME_INF));
                assertEquals(bytes, r.transferred());
            }
        }
    }
}
