package org.hpio.async;

import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Figure 4's transitions and the timeouts, with requests held in flight at will: the engine's workers wait at
 * a gate the test opens, so "in flight" is certain rather than a race. The files send every request to the
 * engine ({@link AsyncFile#allToEngine}): a small read is otherwise done at once when its data is cached.
 */
class AsyncFileStateTest {
    @TempDir
    Path dir;
    private final CountDownLatch gate = new CountDownLatch(1);
    private IoEngine engine;
    private Path data;

    @BeforeEach
    void start() throws IOException {
        engine = IoEngines.openThreads(EngineConfig.defaults().withThreads(1), r -> Thread.ofPlatform().daemon().unstarted(() -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                return;
            }
            r.run();
        }));
        data = dir.resolve("data");
        byte[] bytes = new byte[1 << 16];
        Arrays.fill(bytes, (byte) 5);
        Files.write(data, bytes);
    }

    @AfterEach
    void stop() throws IOException {
        gate.countDown();
        engine.close();
    }

    private AsyncFile open(String mode) throws IOException {
        return AsyncFile.allToEngine(data, mode, AsyncFileOptions.defaults(), engine);
    }

    @Test
    void timeoutsOfZeroAndSmallReturnFalseAndInfinityWaits() throws Exception {
        try (AsyncFile f = open("r")) {
            byte[] buffer = new byte[100];
            AsyncFileRequest r = f.readArray(buffer);
            assertEquals(AsyncFileRequest.State.IN_FLIGHT, r.state());
            assertFalse(r.done(0), "0 polls");
            assertFalse(r.done(30), "a small timeout passes");
            assertFalse(f.allDone(10));
            assertFalse(AsyncFile.anyDone(10, r));
            Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ignored) {
                }
                gate.countDown();
            });
            assertTrue(r.done(AsyncFile.TIME_INF));
            assertEquals(AsyncFileRequest.State.COMPLETED, r.state());
            byte[] expected = new byte[100];
            Arrays.fill(expected, (byte) 5);
            assertArrayEquals(expected, buffer);
        }
    }

    @Test
    void cancelledReadsThrowUntilClearedAndLeaveTheArrayAlone() throws Exception {
        try (AsyncFile f = open("r")) {
            long[] first = new long[64];
            long[] second = new long[64];
            Arrays.fill(first, -9);
            Arrays.fill(second, -9);
            AsyncFileRequest a = f.readArray(first);
            AsyncFileRequest b = f.readArray(second);
            b.cancel();
            assertEquals(AsyncFileRequest.State.CANCELLED, b.state());
            assertThrows(AsyncIOCanceledException.class, b::done);
            assertThrows(AsyncIOCanceledException.class, () -> b.done(0), "each time");
            assertTrue(Arrays.stream(second).allMatch(v -> v == -9), "the buffer is the caller's, untouched");
            second[0] = 1;   // safe to reuse
            f.cancel();      // the rest of the file's requests
            assertEquals(AsyncFileRequest.State.CANCELLED, a.state());
            assertThrows(AsyncIOCanceledException.class, () -> f.allDone(0));
            assertThrows(AsyncIOCanceledException.class, () -> AsyncFile.anyDone(0, a, b));
            a.clearException();
            b.clearException();
            assertEquals(AsyncFileRequest.State.ERROR_CLEARED, a.state());
            assertTrue(f.allDone(0));
            assertTrue(a.done(0));
            gate.countDown();
            AsyncFileRequest c = f.readArray(0, first);
            assertTrue(c.done());
            assertEquals(AsyncFileRequest.State.COMPLETED, c.state());
            c.clearException();   // nothing to clear: stays Completed
            assertEquals(AsyncFileRequest.State.COMPLETED, c.state());
        }
    }

    @Test
    void atTheFilesBoundInitiationFailsFastOrWaits() throws Exception {
        try (AsyncFile f = AsyncFile.allToEngine(data, "r",
                AsyncFileOptions.defaults().withMaxInFlight(2).withFailFast(true), engine)) {
            f.readArray(new byte[10]);
            f.readArray(new byte[10]);
            assertThrows(IOException.class, () -> f.readArray(new byte[10]));
            assertEquals(20, f.getFilePointer(), "the refused request did not move the pointer");
            gate.countDown();
            assertTrue(f.allDone(AsyncFile.TIME_INF));
            assertTrue(f.readArray(new byte[10]).done());
        }
    }

    @Test
    void waitingInitiationProceedsOnceRoomIsMade() throws Exception {
        try (AsyncFile f = AsyncFile.allToEngine(data, "r", AsyncFileOptions.defaults().withMaxInFlight(1), engine)) {
            f.readArray(new byte[10]);
            Thread opener = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ignored) {
                }
                gate.countDown();
            });
            assertTrue(f.readArray(new byte[10]).done());   // waited for the first to finish
            opener.join();
        }
    }

    @Test
    void closeWithReadsInFlightWaitsForThem() throws Exception {
        AsyncFile f = open("r");
        byte[] buffer = new byte[1000];
        AsyncFileRequest r = f.readArray(buffer);
        Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException ignored) {
            }
            gate.countDown();
        });
        f.close();
        assertEquals(AsyncFileRequest.State.COMPLETED, r.state());
        assertEquals(5, buffer[999]);
    }

    @Test
    void aRequestWhoseSubmissionFailsHoldsUpNeitherCloseNorAWait() throws Exception {
        IoEngine onePlace = IoEngines.openThreads(EngineConfig.defaults().withThreads(1).withMaxInFlight(1),
                r -> Thread.ofPlatform().daemon().unstarted(() -> {
                    try {
                        gate.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    r.run();
                }));
        try {
            AsyncFile f = AsyncFile.allToEngine(data, "r", AsyncFileOptions.defaults(), onePlace);
            AsyncFileRequest first = f.readArray(0, new byte[10]);   // the engine's one place, held at the gate
            AtomicReference<Throwable> refused = new AtomicReference<>();
            Thread waiting = Thread.ofPlatform().start(() -> {
                try {
                    f.readArray(100, new byte[10]);   // waits at the engine's bound
                } catch (Throwable e) {
                    refused.set(e);
                }
            });
            while (waiting.getState() != Thread.State.WAITING && waiting.getState() != Thread.State.TIMED_WAITING) {
                Thread.sleep(1);
            }
            Thread closing = Thread.ofPlatform().start(() -> {
                try {
                    f.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            Thread.sleep(50);
            waiting.interrupt();   // its submission fails: nothing of it is in flight
            waiting.join(10_000);
            assertInstanceOf(InterruptedIOException.class, refused.get());
            assertFalse(f.allDone(50), "the held request is still in flight");
            gate.countDown();
            closing.join(10_000);
            assertFalse(closing.isAlive(), "close waited for the refused request for ever");
            assertTrue(first.done());
        } finally {
            onePlace.close();
        }
    }

    @Test
    void aTransferEndingBeyondTheLargestOffsetIsRefusedAtInitiation() throws Exception {
        try (AsyncFile f = open("rw")) {
            IOException read = assertThrows(IOException.class, () -> f.readArray(Long.MAX_VALUE - 4, new long[1]));
            assertTrue(read.getMessage().contains("largest offset"), read.getMessage());
            assertThrows(IOException.class, () -> f.writeArray(Long.MAX_VALUE - 4, new long[1]));
        }
    }
}
