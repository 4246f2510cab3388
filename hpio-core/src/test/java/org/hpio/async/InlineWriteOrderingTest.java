package org.hpio.async;

import org.hpio.testing.NativeCalls;
import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small write (or read) never overtakes an earlier request of its file still in flight: it goes to the
 * engine behind it instead of being done by the initiating thread. Requests are held in flight at will (the
 * portable engine's one worker waits at a gate the test opens), so "in flight" is certain rather than a race;
 * with one worker the engine runs them in order, which makes "behind it" visible in the file.
 */
class InlineWriteOrderingTest {
    @TempDir
    Path dir;
    private final CountDownLatch gate = new CountDownLatch(1);
    private IoEngine engine;

    @BeforeEach
    void start() {
        engine = IoEngines.openThreads(EngineConfig.defaults().withThreads(1), r -> Thread.ofPlatform().daemon().unstarted(() -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                return;
            }
            r.run();
        }));
    }

    @AfterEach
    void stop() throws IOException {
        gate.countDown();
        engine.close();
    }

    private AsyncFile open(String name, AsyncFileOptions options) throws IOException {
        return new AsyncFile(dir.resolve(name), "rw", options, engine);
    }

    private static byte[] filled(int bytes, int value) {
        byte[] data = new byte[bytes];
        Arrays.fill(data, (byte) value);
        return data;
    }

    @Test
    void aSmallWriteBehindAWriteInFlightGoesToTheEngineAndLandsAfterIt() throws Exception {
        Path path = dir.resolve("behind");
        try (AsyncFile f = open("behind", AsyncFileOptions.defaults())) {
            AsyncFileRequest large = f.writeArray(0, filled(1 << 20, 1));   // larger than inline: held at the gate
            AsyncFileRequest small = f.writeArray(0, filled(4096, 2));      // overlaps it
            assertEquals(AsyncFileRequest.State.IN_FLIGHT, large.state());
            assertEquals(AsyncFileRequest.State.IN_FLIGHT, small.state(), "not done inline ahead of the large write");
            gate.countDown();
            assertTrue(AsyncFile.allDone(AsyncFile.TIME_INF, large, small));
        }
        byte[] file = Files.readAllBytes(path);
        assertArrayEquals(filled(4096, 2), Arrays.copyOf(file, 4096), "the small write landed second");
        assertEquals(1, file[4096]);
    }

    @Test
    void aSmallWriteBehindAForceInFlightGoesToTheEngine() throws Exception {
        try (AsyncFile f = open("force", AsyncFileOptions.defaults())) {
            AsyncFileRequest force = f.force(false);
            AsyncFileRequest afterForce = f.writeArray(0, filled(4096, 3));
            assertEquals(AsyncFileRequest.State.IN_FLIGHT, afterForce.state(), "not ahead of the force in flight");
            gate.countDown();
            assertTrue(AsyncFile.allDone(AsyncFile.TIME_INF, force, afterForce));
        }
    }

    @Test
    void aSmallWriteBehindAReadInFlightAndASmallReadBehindAWriteInFlightGoToTheEngine() throws Exception {
        Files.write(dir.resolve("mixed"), filled(1 << 16, 9));
        try (AsyncFile f = open("mixed", AsyncFileOptions.defaults())) {
            byte[] large = new byte[1 << 15];                               // larger than a read done at once
            AsyncFileRequest read = f.readArray(0, large);
            AsyncFileRequest write = f.writeArray(0, filled(4096, 4));
            assertEquals(AsyncFileRequest.State.IN_FLIGHT, read.state());
            assertEquals(AsyncFileRequest.State.IN_FLIGHT, write.state(), "not ahead of the read in flight");
            byte[] small = new byte[4096];
            AsyncFileRequest readBehind = f.readArray(0, small);
            assertEquals(AsyncFileRequest.State.IN_FLIGHT, readBehind.state(), "not ahead of the write in flight");
            gate.countDown();
            assertTrue(AsyncFile.allDone(AsyncFile.TIME_INF, read, write, readBehind));
            assertArrayEquals(filled(1 << 15, 9), large, "the read ran before the write");
            assertArrayEquals(filled(4096, 4), small, "the small read ran after the write");
        }
    }

    @Test
    void aSmallReadOfCachedDataWithNothingInFlightIsDonePastAGateNobodyOpened() throws Exception {
        NativeCalls.assumeOn("a read without waiting (preadv2 RWF_NOWAIT)");
        Files.write(dir.resolve("cached"), filled(8192, 6));
        try (AsyncFile f = open("cached", AsyncFileOptions.defaults())) {
            byte[] back = new byte[4096];
            AsyncFileRequest r = f.readArray(4096, back);
            assertEquals(AsyncFileRequest.State.COMPLETED, r.state(), "read at once on this thread");
            assertArrayEquals(filled(4096, 6), back);
        }
    }

    @Test
    void largeDurableDsyncAndDirectWritesGoToTheEngine() throws Exception {
        try (AsyncFile f = open("plain", AsyncFileOptions.defaults());
             AsyncFile dsync = open("dsync", AsyncFileOptions.defaults().withDsync(true))) {
            AsyncFileRequest large = f.writeArray(0, new byte[(int) InlineWrites.DEFAULT_MAX_BYTES + 1]);
            AsyncFileRequest durable = f.writeArrayDurably(1 << 20, new byte[4096], 0, 4096, false);
            AsyncFileRequest synced = dsync.writeArray(0, new byte[4096]);
            for (AsyncFileRequest r : new AsyncFileRequest[]{large, durable, synced}) {
                assertEquals(AsyncFileRequest.State.IN_FLIGHT, r.state(), r.toString());
            }
            gate.countDown();
            assertTrue(AsyncFile.allDone(AsyncFile.TIME_INF, large, durable, synced));
        }
    }

    @Test
    void aSmallWriteWithNothingInFlightIsDoneInlinePastAGateNobodyOpened() throws Exception {
        try (AsyncFile f = open("inline", AsyncFileOptions.defaults())) {
            AsyncFileRequest w = f.writeArray(0, filled(4096, 5));
            assertEquals(AsyncFileRequest.State.COMPLETED, w.state(), "done on this thread, not by the held worker");
        }
        assertArrayEquals(filled(4096, 5), Files.readAllBytes(dir.resolve("inline")));
    }

    @Test
    void aSmallWriteFromAVirtualThreadGoesToTheEngine() throws Exception {
        try (AsyncFile f = open("virtual", AsyncFileOptions.defaults())) {
            AsyncFileRequest[] w = new AsyncFileRequest[1];
            Thread.ofVirtual().start(() -> {
                try {
                    w[0] = f.writeArray(0, filled(4096, 8));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).join();
            assertEquals(AsyncFileRequest.State.IN_FLIGHT, w[0].state(), "a write that may wait never holds a carrier");
            gate.countDown();
            assertTrue(w[0].done());
        }
        assertArrayEquals(filled(4096, 8), Files.readAllBytes(dir.resolve("virtual")));
    }
}
