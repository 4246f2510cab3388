package org.hpio.nio;

import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoOperation;
import org.hpio.internal.io.IoRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.FileLockInterruptionException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.WritableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import static java.nio.file.StandardOpenOption.APPEND;
import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.DELETE_ON_CLOSE;
import static java.nio.file.StandardOpenOption.DSYNC;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.SYNC;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * FileChannel's Javadoc as tests, run on the JDK's channel and on hpio's on each engine (one subclass each):
 * any difference from the JDK fails here.
 */
abstract class FileChannelContract {
    @TempDir
    Path dir;
    Path file;
    Implementation.Running running;

    abstract Implementation implementation();

    @BeforeEach
    void start() throws Exception {
        running = implementation().start(EngineConfig.defaults());
        file = dir.resolve("data.bin");
        Files.write(file, bytes(0, 10_000));
    }

    @AfterEach
    void stop() throws Exception {
        running.close();
    }

    FileChannel open(Path path, OpenOption... options) throws Exception {
        FileChannel channel = running.opener().open(path, options);
        if (implementation() != Implementation.JDK) {
            assertTrue(HpioChannels.isHpio(channel), "served by hpio: " + channel);
        }
        return channel;
    }

    static byte[] bytes(int from, int count) {
        byte[] b = new byte[count];
        for (int i = 0; i < count; i++) {
            b[i] = (byte) ((from + i) * 31 + 7);
        }
        return b;
    }

    // ---- reads ----

    @Test
    void positionalReadFillsHeapAndDirectBuffersAndLeavesTheChannelPosition() throws Exception {
        try (FileChannel ch = open(file, READ)) {
            ch.position(5);
            for (ByteBuffer dst : new ByteBuffer[] {ByteBuffer.allocate(100), ByteBuffer.allocateDirect(100)}) {
                dst.position(10).limit(60);
                assertEquals(50, ch.read(dst, 1000));
                assertEquals(60, dst.position());
                assertEquals(60, dst.limit());
                byte[] got = new byte[50];
                dst.position(10);
                dst.get(got);
                assertArrayEquals(bytes(1000, 50), got);
                assertEquals(5, ch.position());
            }
        }
    }

    @Test
    void relativeReadAdvancesThePositionAndReturnsMinusOneAtTheEnd() throws Exception {
        try (FileChannel ch = open(file, READ)) {
            ch.position(9_990);
            ByteBuffer dst = ByteBuffer.allocate(100);
            assertEquals(10, ch.read(dst));
            assertEquals(10, dst.position());
            assertEquals(10_000, ch.position());
            assertEquals(-1, ch.read(dst));
            assertEquals(10, dst.position());
            assertEquals(10_000, ch.position());
            assertEquals(-1, ch.read(ByteBuffer.allocate(5), 20_000));
        }
    }

    @Test
    void aReadWithNothingRemainingReturnsZeroEvenAtTheEnd() throws Exception {
        try (FileChannel ch = open(file, READ)) {
            assertEquals(0, ch.read(ByteBuffer.allocate(0)));
            assertEquals(0, ch.read(ByteBuffer.allocate(0), 50_000));
            assertEquals(0, ch.position());
        }
    }

    @Test
    void scatteringReadFillsBuffersInTurnAndStopsAtTheEnd() throws Exception {
        try (FileChannel ch = open(file, READ)) {
            ch.position(9_000);
            ByteBuffer[] dsts = {ByteBuffer.allocate(300), ByteBuffer.allocateDirect(500), ByteBuffer.allocate(700)};
            assertEquals(1000, ch.read(dsts, 0, 3));
            assertEquals(300, dsts[0].position());
            assertEquals(500, dsts[1].position());
            assertEquals(200, dsts[2].position());
            assertEquals(10_000, ch.position());
            byte[] all = new byte[1000];
            ByteBuffer joined = ByteBuffer.wrap(all);
            for (ByteBuffer b : dsts) {
                joined.put(b.flip());
            }
            assertArrayEquals(bytes(9_000, 1000), all);
            assertEquals(-1, ch.read(new ByteBuffer[] {ByteBuffer.allocate(4)}));
        }
    }

    @Test
    void scatteringReadHonoursOffsetAndLength() throws Exception {
        try (FileChannel ch = open(file, READ)) {
            ByteBuffer[] dsts = {ByteBuffer.allocate(4), ByteBuffer.allocate(4), ByteBuffer.allocate(4)};
            assertEquals(4, ch.read(dsts, 1, 1));
            assertEquals(0, dsts[0].position());
            assertEquals(4, dsts[1].position());
            assertEquals(0, dsts[2].position());
            assertThrows(IndexOutOfBoundsException.class, () -> ch.read(dsts, 2, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> ch.read(dsts, -1, 1));
        }
    }

    // ---- writes ----

    @Test
    void positionalWriteFromHeapAndDirectBuffersMovesTheirPositionsOnly() throws Exception {
        try (FileChannel ch = open(file, READ, WRITE)) {
            ByteBuffer heap = ByteBuffer.wrap(bytes(50_000, 64)).position(4);
            ByteBuffer direct = ByteBuffer.allocateDirect(64).put(bytes(60_000, 64)).flip();
            assertEquals(60, ch.write(heap, 100));
            assertEquals(64, heap.position());
            assertEquals(64, ch.write(direct, 12_000));
            assertEquals(64, direct.position());
            assertEquals(0, ch.position());
            assertEquals(12_064, ch.size());
            ByteBuffer back = ByteBuffer.allocate(60);
            ch.read(back, 100);
            assertArrayEquals(Arrays.copyOfRange(bytes(50_000, 64), 4, 64), back.array());
            ByteBuffer gap = ByteBuffer.allocate(100);
            ch.read(gap, 10_500);
            assertArrayEquals(new byte[100], gap.array());
        }
    }

    @Test
    void relativeWriteAdvancesThePositionAndAReadOnlySourceIsFine() throws Exception {
        try (FileChannel ch = open(file, WRITE)) {
            ch.position(20);
            ByteBuffer src = ByteBuffer.wrap(bytes(7, 30)).asReadOnlyBuffer();
            assertEquals(30, ch.write(src));
            assertEquals(30, src.position());
            assertEquals(50, ch.position());
            assertEquals(0, ch.write(ByteBuffer.allocate(0)));
            assertEquals(50, ch.position());
        }
        byte[] all = Files.readAllBytes(file);
        assertArrayEquals(bytes(7, 30), Arrays.copyOfRange(all, 20, 50));
    }

    @Test
    void gatheringWriteWritesBuffersInTurn() throws Exception {
        try (FileChannel ch = open(file, READ, WRITE)) {
            ByteBuffer[] srcs = {ByteBuffer.wrap(bytes(1, 3)), ByteBuffer.allocateDirect(5).put(bytes(4, 5)).flip(),
                    ByteBuffer.wrap(bytes(9, 7))};
            ch.position(10_000);
            assertEquals(15, ch.write(srcs));
            for (ByteBuffer b : srcs) {
                assertFalse(b.hasRemaining());
            }
            assertEquals(10_015, ch.position());
            ByteBuffer back = ByteBuffer.allocate(15);
            ch.read(back, 10_000);
            assertArrayEquals(bytes(1, 15), back.array());
        }
    }

    @Test
    void appendWritesAtTheEndWhateverThePosition() throws Exception {
        try (FileChannel ch = open(file, APPEND)) {
            ch.position(3);
            assertEquals(4, ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4})));
            assertEquals(10_004, ch.position());
            assertEquals(10_004, ch.size());
        }
    }

    @Test
    void dsyncAndSyncChannelsWrite() throws Exception {
        for (OpenOption sync : new OpenOption[] {DSYNC, SYNC}) {
            try (FileChannel ch = open(file, READ, WRITE, sync)) {
                assertEquals(8, ch.write(ByteBuffer.wrap(bytes(3, 8)), 16));
                ByteBuffer back = ByteBuffer.allocate(8);
                ch.read(back, 16);
                assertArrayEquals(bytes(3, 8), back.array());
            }
        }
    }

    // ---- size, truncate, force, position ----

    @Test
    void truncateShrinksNeverGrowsAndPullsThePositionBack() throws Exception {
        try (FileChannel ch = open(file, READ, WRITE)) {
            ch.position(8_000);
            assertSame(ch, ch.truncate(20_000));
            assertEquals(10_000, ch.size());
            assertEquals(8_000, ch.position());
            ch.truncate(5_000);
            assertEquals(5_000, ch.size());
            assertEquals(5_000, ch.position());
            ch.position(100);
            ch.truncate(1_000);
            assertEquals(100, ch.position());
        }
    }

    @Test
    void positionBeyondTheEndThenWriteLeavesAHoleOfZeros() throws Exception {
        try (FileChannel ch = open(file, READ, WRITE)) {
            ch.position(12_000);
            assertEquals(12_000, ch.position());
            assertEquals(-1, ch.read(ByteBuffer.allocate(1)));
            ch.write(ByteBuffer.wrap(new byte[] {9}));
            assertEquals(12_001, ch.size());
            ByteBuffer hole = ByteBuffer.allocate(2_001);
            assertEquals(2_001, ch.read(hole, 10_000));
            assertEquals(9, hole.get(2_000));
            assertEquals(0, hole.get(1_999));
        }
    }

    @Test
    void forceSucceedsWithAndWithoutMetadata() throws Exception {
        try (FileChannel ch = open(file, WRITE)) {
            ch.write(ByteBuffer.wrap(bytes(1, 10)), 0);
            ch.force(false);
            ch.force(true);
        }
    }

    // ---- exceptions ----

    @Test
    void negativeArgumentsAreIllegal() throws Exception {
        try (FileChannel ch = open(file, READ, WRITE)) {
            assertThrows(IllegalArgumentException.class, () -> ch.read(ByteBuffer.allocate(1), -1));
            assertThrows(IllegalArgumentException.class, () -> ch.write(ByteBuffer.allocate(1), -1));
            assertThrows(IllegalArgumentException.class, () -> ch.position(-1));
            assertThrows(IllegalArgumentException.class, () -> ch.truncate(-1));
            assertThrows(IllegalArgumentException.class, () -> ch.lock(-1, 1, false));
            assertThrows(IllegalArgumentException.class, () -> ch.tryLock(0, -1, false));
            assertThrows(IllegalArgumentException.class, () -> ch.map(FileChannel.MapMode.READ_ONLY, -1, 1));
            assertThrows(IllegalArgumentException.class, () -> ch.transferTo(-1, 1, ch));
        }
    }

    @Test
    void nullBuffersAreNullPointers() throws Exception {
        try (FileChannel ch = open(file, READ, WRITE)) {
            assertThrows(NullPointerException.class, () -> ch.read((ByteBuffer) null));
            assertThrows(NullPointerException.class, () -> ch.read(null, 0));
            assertThrows(NullPointerException.class, () -> ch.write((ByteBuffer) null));
            assertThrows(NullPointerException.class, () -> ch.write(null, 0));
        }
    }

    @Test
    void readingIntoAReadOnlyBufferIsIllegal() throws Exception {
        try (FileChannel ch = open(file, READ)) {
            ByteBuffer readOnly = ByteBuffer.allocate(4).asReadOnlyBuffer();
            assertThrows(IllegalArgumentException.class, () -> ch.read(readOnly));
            assertThrows(IllegalArgumentException.class, () -> ch.read(readOnly, 0));
        }
    }

    @Test
    void aWriteOnlyChannelCannotReadAndAReadOnlyOneCannotWriteOrTruncate() throws Exception {
        try (FileChannel w = open(file, WRITE)) {
            assertThrows(NonReadableChannelException.class, () -> w.read(ByteBuffer.allocate(1)));
            assertThrows(NonReadableChannelException.class, () -> w.read(ByteBuffer.allocate(1), 0));
            assertThrows(NonReadableChannelException.class, () -> w.read(new ByteBuffer[] {ByteBuffer.allocate(1)}));
        }
        try (FileChannel r = open(file, READ)) {
            assertThrows(NonWritableChannelException.class, () -> r.write(ByteBuffer.allocate(1)));
            assertThrows(NonWritableChannelException.class, () -> r.write(ByteBuffer.allocate(1), 0));
            assertThrows(NonWritableChannelException.class, () -> r.write(new ByteBuffer[] {ByteBuffer.allocate(1)}));
            assertThrows(NonWritableChannelException.class, () -> r.truncate(0));
            assertThrows(NonWritableChannelException.class, () -> r.lock());
        }
    }

    @Test
    void everyOperationOfAClosedChannelThrowsClosedChannelException() throws Exception {
        FileChannel ch = open(file, READ, WRITE);
        ch.close();
        ch.close();   // idempotent
        assertFalse(ch.isOpen());
        assertThrows(ClosedChannelException.class, () -> ch.read(ByteBuffer.allocate(1)));
        assertThrows(ClosedChannelException.class, () -> ch.read(ByteBuffer.allocate(1), 0));
        assertThrows(ClosedChannelException.class, () -> ch.read(new ByteBuffer[] {ByteBuffer.allocate(1)}));
        assertThrows(ClosedChannelException.class, () -> ch.write(ByteBuffer.allocate(1)));
        assertThrows(ClosedChannelException.class, () -> ch.write(ByteBuffer.allocate(1), 0));
        assertThrows(ClosedChannelException.class, () -> ch.write(new ByteBuffer[] {ByteBuffer.allocate(1)}));
        assertThrows(ClosedChannelException.class, ch::position);
        assertThrows(ClosedChannelException.class, () -> ch.position(0));
        assertThrows(ClosedChannelException.class, ch::size);
        assertThrows(ClosedChannelException.class, () -> ch.truncate(0));
        assertThrows(ClosedChannelException.class, () -> ch.force(true));
        assertThrows(ClosedChannelException.class, ch::lock);
        assertThrows(ClosedChannelException.class, ch::tryLock);
        assertThrows(ClosedChannelException.class, () -> ch.map(FileChannel.MapMode.READ_ONLY, 0, 1));
        assertThrows(ClosedChannelException.class, () -> ch.transferTo(0, 1, ch));
    }

    @Test
    void aThreadInterruptedBeforeAReadClosesTheChannel() throws Exception {
        FileChannel ch = open(file, READ);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = Thread.ofPlatform().unstarted(() -> {
            Thread.currentThread().interrupt();
            try {
                ch.read(ByteBuffer.allocate(10));
            } catch (Throwable e) {
                thrown.set(e);
            }
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status stays set");
        });
        t.start();
        t.join();
        assertTrue(thrown.get() instanceof ClosedByInterruptException, String.valueOf(thrown.get()));
        assertFalse(ch.isOpen());
    }

    // ---- opening ----

    @Test
    void openHasTheJdksOptionRulesAndExceptions() throws Exception {
        assertThrows(NoSuchFileException.class, () -> open(dir.resolve("missing"), READ));
        assertThrows(FileAlreadyExistsException.class, () -> open(file, CREATE_NEW, WRITE));
        assertThrows(IllegalArgumentException.class, () -> open(file, READ, APPEND));
        try (FileChannel ch = open(dir.resolve("new"), CREATE, WRITE)) {
            assertEquals(0, ch.size());
        }
        try (FileChannel ch = open(file, WRITE, TRUNCATE_EXISTING)) {
            assertEquals(0, ch.size());
        }
        Path temp = dir.resolve("temp");
        try (FileChannel ch = open(temp, CREATE, WRITE, READ, DELETE_ON_CLOSE)) {
            ch.write(ByteBuffer.wrap(bytes(0, 100)), 0);
            ByteBuffer back = ByteBuffer.allocate(100);
            assertEquals(100, ch.read(back, 0));
        }
        assertFalse(Files.exists(temp));
    }

    /**
     * CREATE_NEW with DELETE_ON_CLOSE, or with O_DIRECT, on a file the JDK's channel serves alone (a name with
     * U+FFFD, which hpio's calls cannot tell from an undecodable byte): created, usable, and gone after close
     * with DELETE_ON_CLOSE, as on the JDK's. The second open of the JDK-alone path asked for CREATE_NEW again:
     * FileAlreadyExistsException, and the file created by the first stayed.
     */
    @Test
    void createNewWithDeleteOnCloseOrDirectOnAFileTheJdksChannelServesAloneWorks() throws Exception {
        Path temp = dir.resolve("temp\uFFFD.bin");
        try (FileChannel ch = running.opener().open(temp, CREATE_NEW, WRITE, READ, DELETE_ON_CLOSE)) {
            assertEquals(100, ch.write(ByteBuffer.wrap(bytes(0, 100)), 0));
            assertEquals(100, ch.size());
        }
        assertFalse(Files.exists(temp), "DELETE_ON_CLOSE");
        Path direct = dir.resolve("direct\uFFFD.bin");
        FileChannel ch;
        try {
            ch = running.opener().open(direct, CREATE_NEW, WRITE, jdkDirect());
        } catch (IOException | UnsupportedOperationException e) {
            assertFalse(e instanceof FileAlreadyExistsException, e.toString());
            return;   // no O_DIRECT on this file system
        }
        try (ch) {
            assertEquals(4096, ch.write(Arena.ofAuto().allocate(4096, 4096).asByteBuffer(), 0));
        }
        assertEquals(4096, Files.size(direct));
    }

    /**
     * As the JDK's close waits for the threads in its calls: when close returns, a write in flight (an O_DIRECT
     * write of 64 MiB, which the kernel cannot cancel once the device has it) is done, and the file does not
     * change after. hpio's close returned at once, and the write landed later.
     */
    @Test
    void whenCloseReturnsAWriteInFlightIsDoneAndTheFileNoLongerChanges() throws Exception {
        Path target = dir.resolve("landing.bin");
        int size = 64 << 20;
        ByteBuffer data = Arena.ofAuto().allocate(size, 4096).asByteBuffer();
        for (int i = 0; i < size; i += 4096) {
            data.put(i, (byte) (i >>> 12));
        }
        FileChannel channel;
        try {
            channel = open(target, CREATE_NEW, WRITE, jdkDirect());
        } catch (IOException | UnsupportedOperationException e) {
            Assumptions.abort("no O_DIRECT here: " + e);
            return;
        }
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread writer = Thread.ofVirtual().start(() -> {
            try {
                outcome.set(channel.write(data, 0));
            } catch (IOException e) {
                outcome.set(e);
            }
        });
        Thread.sleep(15);   // the write under way (if not yet, it fails on the closed channel: nothing lands)
        channel.close();
        byte[] atClose = Files.readAllBytes(target);
        writer.join(30_000);
        assertFalse(writer.isAlive(), "the write never returned");
        byte[] later = Files.readAllBytes(target);
        assertEquals(atClose.length, later.length, "the file's size changed after close returned (" + outcome.get() + ")");
        assertTrue(Arrays.equals(atClose, later), "the file's bytes changed after close returned (" + outcome.get() + ")");
    }

    /**
     * A close on a thread that is retiring io_uring's completions (a request's listener) does not wait for the
     * channel's requests in flight: their completions may need that very thread, and waiting deadlocked.
     */
    @Test
    void aCloseFromAnEngineListenerWithAWriteInFlightReturns() throws Exception {
        Assumptions.assumeTrue(implementation() == Implementation.HPIO_URING, "a listener on io_uring's engine");
        // An engine of its own, closed only if the close returned: a deadlock must fail this test, not hang the
        // suite in the engine's close (its threads are daemons, left stuck).
        Implementation.Running own = implementation().start(EngineConfig.defaults());
        Path target = dir.resolve("listener.bin");
        ByteBuffer data = Arena.ofAuto().allocate(64 << 20, 4096).asByteBuffer();
        FileChannel channel;
        try {
            channel = own.opener().open(target, CREATE_NEW, WRITE, jdkDirect());
        } catch (IOException | UnsupportedOperationException e) {
            own.close();
            Assumptions.abort("no O_DIRECT here: " + e);
            return;
        }
        CompletableFuture<Object> write = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {   // a platform thread: it polls the ring itself
            try {
                write.complete(channel.write(data, 0));
            } catch (IOException e) {
                write.complete(e);
            }
        });
        Thread.sleep(15);   // the write under way
        CompletableFuture<Void> closed = new CompletableFuture<>();
        IoRequest nop = own.engine().submit(IoOperation.nop());
        nop.whenDone(() -> {
            try {
                channel.close();
                closed.complete(null);
            } catch (IOException | RuntimeException e) {
                closed.completeExceptionally(e);
            }
        });
        try {
            closed.get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            fail("close on the thread retiring the engine's completions did not return: deadlocked");
        }
        write.get(30, TimeUnit.SECONDS);
        assertFalse(channel.isOpen());
        own.close();
    }

    /** The JDK's {@code ExtendedOpenOption.DIRECT} (jdk.unsupported, which this module does not read); hpio takes it too. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static OpenOption jdkDirect() throws ClassNotFoundException {
        return (OpenOption) Enum.valueOf((Class) Class.forName("com.sun.nio.file.ExtendedOpenOption"), "DIRECT");
    }

    // ---- delegated: locks, map, transfers ----

    @Test
    void locksAreAcquiredByThisChannelAndOverlapsAreRefused() throws Exception {
        try (FileChannel ch = open(file, READ, WRITE)) {
            FileLock lock = ch.lock(0, 100, false);
            assertSame(ch, lock.channel());
            assertSame(ch, lock.acquiredBy());
            assertTrue(lock.isValid());
            assertFalse(lock.isShared());
            assertThrows(OverlappingFileLockException.class, () -> ch.lock(50, 100, false));
            assertThrows(OverlappingFileLockException.class, () -> ch.tryLock(0, 1, true));
            FileLock other = ch.tryLock(100, 100, true);
            assertSame(ch, other.channel());
            lock.release();
            assertFalse(lock.isValid());
            ch.lock(0, 10, false).close();
            ch.close();
            assertFalse(other.isValid());
        }
    }

    @Test
    void mapAndTransfersSeeTheChannelsData() throws Exception {
        try (FileChannel ch = open(file, READ, WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {42}), 7);
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, 10);
            assertEquals(42, map.get(7));
            Path copy = dir.resolve("copy");
            try (FileChannel out = FileChannel.open(copy, CREATE, WRITE)) {
                assertEquals(10_000, ch.transferTo(0, 20_000, out));
            }
            assertEquals(0, ch.position());
            byte[] copied = Files.readAllBytes(copy);
            assertEquals(42, copied[7]);
            try (FileChannel in = FileChannel.open(copy, READ)) {
                assertEquals(100, ch.transferFrom(in, 10_000, 100));
            }
            assertEquals(10_100, ch.size());
        }
    }

    @Test
    void largeHeapWritesAndReadsRoundTrip() throws Exception {
        byte[] big = bytes(5, 3 << 20);
        try (FileChannel ch = open(dir.resolve("big"), CREATE, READ, WRITE)) {
            ByteBuffer src = ByteBuffer.wrap(big);
            while (src.hasRemaining()) {
                ch.write(src);
            }
            ByteBuffer dst = ByteBuffer.allocate(big.length);
            ch.position(0);
            while (dst.hasRemaining() && ch.read(dst) > 0) {
                // keep reading
            }
            assertArrayEquals(big, dst.array());
        }
    }

    // ---- found by review (session 29) ----

    @Test
    void scatterAndGatherSkipBuffersWithNothingRemaining() throws Exception {
        try (FileChannel ch = open(file, READ, WRITE)) {
            ByteBuffer[] dsts = {ByteBuffer.allocate(0), ByteBuffer.allocate(10), ByteBuffer.allocate(0),
                    ByteBuffer.allocateDirect(5)};
            assertEquals(15, ch.read(dsts));
            assertEquals(10, dsts[1].position());
            assertEquals(5, dsts[3].position());
            assertArrayEquals(bytes(0, 10), dsts[1].array());
            byte[] tail = new byte[5];
            dsts[3].flip().get(tail);
            assertArrayEquals(bytes(10, 5), tail);
            ByteBuffer[] srcs = {ByteBuffer.allocate(0), ByteBuffer.wrap(new byte[] {1, 2, 3}),
                    ByteBuffer.allocateDirect(0), ByteBuffer.wrap(new byte[] {4})};
            assertEquals(4, ch.write(srcs, 0, 4));
            assertFalse(srcs[1].hasRemaining(), "the bytes written are consumed");
            assertFalse(srcs[3].hasRemaining());
            assertEquals(19, ch.position());
            ByteBuffer back = ByteBuffer.allocate(4);
            ch.read(back, 15);
            assertArrayEquals(new byte[] {1, 2, 3, 4}, back.array());
        }
    }

    @Test
    void aBufferOfAClosedArenaIsRefusedAndOneOfAnOpenArenaWorks() throws Exception {
        try (FileChannel ch = open(file, READ, WRITE)) {
            Arena arena = Arena.ofShared();
            ByteBuffer live = arena.allocate(100).asByteBuffer();
            assertEquals(100, ch.read(live, 0));
            assertEquals(100, live.position());
            live.flip();
            assertEquals(100, ch.write(live, 20_000));
            ByteBuffer small = arena.allocate(10).asByteBuffer();
            arena.close();
            assertThrows(IllegalStateException.class, () -> ch.read(small, 0));
            assertThrows(IllegalStateException.class, () -> ch.read(small));
            assertThrows(IllegalStateException.class, () -> ch.write(small, 0));
            assertThrows(IllegalStateException.class, () -> ch.read(new ByteBuffer[] {ByteBuffer.allocate(4), small}));
            assertTrue(ch.isOpen());
            assertEquals(0, ch.position());
            ByteBuffer back = ByteBuffer.allocate(100);
            ch.read(back, 20_000);
            assertArrayEquals(bytes(0, 100), back.array());
        }
    }

    /** Runs {@code call} on a thread interrupted first; what it threw. */
    static Throwable onInterruptedThread(ThrowingCall call) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = Thread.ofPlatform().unstarted(() -> {
            Thread.currentThread().interrupt();
            try {
                call.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        t.join();
        return thrown.get();
    }

    interface ThrowingCall {
        void run() throws Exception;
    }

    @Test
    void anInterruptedThreadClosesTheChannelInEveryBlockingCall() throws Exception {
        for (int i = 0; i < 9; i++) {
            FileChannel ch = open(file, READ, WRITE);
            WritableByteChannel target = Channels.newChannel(new ByteArrayOutputStream());
            int call = i;
            Throwable thrown = onInterruptedThread(() -> {
                switch (call) {
                    case 0 -> ch.size();
                    case 1 -> ch.position();
                    case 2 -> ch.position(5);
                    case 3 -> ch.truncate(20_000);
                    case 4 -> ch.read(ByteBuffer.allocate(0));
                    case 5 -> ch.write(ByteBuffer.wrap(new byte[] {1}), 0);
                    case 6 -> ch.force(false);
                    case 7 -> ch.transferTo(0, 10, target);
                    default -> ch.map(FileChannel.MapMode.READ_ONLY, 0, 10);
                }
            });
            assertInstanceOf(ClosedByInterruptException.class, thrown, "call " + call);
            assertFalse(ch.isOpen(), "call " + call + " leaves the channel closed");
            assertEquals(call != 7, target.isOpen(), "a transfer closes both channels");
        }
        FileChannel locking = open(file, READ, WRITE);
        assertInstanceOf(FileLockInterruptionException.class, onInterruptedThread(locking::lock));
        assertFalse(locking.isOpen());
        try (FileChannel trying = open(file, READ, WRITE)) {
            assertNull(onInterruptedThread(trying::tryLock), "tryLock never waits: no interrupt check");
            assertTrue(trying.isOpen());
        }
    }

    @Test
    void closedOneWayAndNullBuffersAreCheckedInTheJdksOrder() throws Exception {
        FileChannel writeOnly = open(file, WRITE);
        assertThrows(NonReadableChannelException.class, () -> writeOnly.read((ByteBuffer) null));
        assertThrows(NullPointerException.class, () -> writeOnly.write((ByteBuffer) null));
        assertThrows(NullPointerException.class, () -> writeOnly.write(new ByteBuffer[] {null}));
        writeOnly.close();
        assertThrows(ClosedChannelException.class, () -> writeOnly.read((ByteBuffer) null));
        assertThrows(ClosedChannelException.class, () -> writeOnly.write((ByteBuffer) null));
        assertThrows(IllegalArgumentException.class, () -> writeOnly.map(FileChannel.MapMode.READ_ONLY, 0, 1L << 31));
        assertThrows(NullPointerException.class, () -> writeOnly.map(null, 0, 1));
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalArgumentException.class,
                    () -> writeOnly.map(FileChannel.MapMode.READ_ONLY, -1, 1, arena));
        }
        assertEquals(ClosedChannelException.class,
                assertThrows(ClosedChannelException.class, () -> writeOnly.map(FileChannel.MapMode.READ_ONLY, 0, 1))
                        .getClass(), "not a subclass: the channel was closed before the call");
        assertEquals(ClosedChannelException.class, assertThrows(ClosedChannelException.class, writeOnly::size)
                .getClass());
    }

    @Test
    void deleteOnCloseNeverFollowsASymbolicLink() throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("link"), file);
        IOException refused = assertThrows(IOException.class, () -> open(link, READ, WRITE, DELETE_ON_CLOSE));
        assertTrue(refused.getMessage().contains("NOFOLLOW_LINKS"), refused.getMessage());
        assertTrue(Files.exists(link, LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.exists(file));
    }

    @Test
    void transfersCheckTheOtherChannelsModeAsTheJdkChecksItsOwn() throws Exception {
        Path other = dir.resolve("other");
        Files.write(other, bytes(0, 100));
        try (FileChannel ch = open(file, READ, WRITE); FileChannel readOnly = open(other, READ);
             FileChannel writeOnly = open(other, WRITE)) {
            assertThrows(NonWritableChannelException.class, () -> ch.transferTo(0, 10, readOnly));
            assertThrows(NonWritableChannelException.class, () -> ch.transferTo(-1, 10, readOnly));
            assertThrows(NonReadableChannelException.class, () -> ch.transferFrom(writeOnly, 0, 10));
            assertEquals(10, ch.transferTo(0, 10, writeOnly));
            assertEquals(10, writeOnly.position());
        }
    }

    /** Runs {@code command} with sh in {@link #dir}; false when it fails (a tool missing, a file system that refuses). */
    boolean shell(String command) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", command).directory(dir.toFile()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor() == 0;
    }

    @Test
    void aNameThatIsNotACharacterStringOpensAsTheJdkOpensIt() throws Exception {
        assertTrue(shell("printf abc > \"$(printf 'f\\351')\""), "made a file whose name is the byte 0xE9 after f");
        Path odd;
        try (var names = Files.list(dir)) {
            odd = names.filter(p -> p.getFileName().toString().startsWith("f") && !p.equals(file)).findFirst()
                    .orElseThrow();
        }
        try (FileChannel plain = running.opener().open(odd)) {
            ByteBuffer got = ByteBuffer.allocate(3);
            assertEquals(3, plain.read(got));
            assertArrayEquals("abc".getBytes(), got.array());
        }
        try (FileChannel rw = running.opener().open(odd, READ, WRITE)) {
            rw.write(ByteBuffer.wrap("d".getBytes()), 3);
            assertEquals(4, rw.size());
        }
    }

    @Test
    void anAppendOnlyFileOpensForAppendingAsTheJdkOpensIt() throws Exception {
        Path log = dir.resolve("append-only.log");
        Files.write(log, "a".getBytes());
        Assumptions.assumeTrue(shell("chattr +a append-only.log"),
                "chattr +a is not available here");
        try (FileChannel ch = running.opener().open(log, WRITE, APPEND)) {
            assertEquals(1, ch.write(ByteBuffer.wrap("b".getBytes())));
        } finally {
            shell("chattr -a append-only.log");
        }
        assertArrayEquals("ab".getBytes(), Files.readAllBytes(log));
    }
}
