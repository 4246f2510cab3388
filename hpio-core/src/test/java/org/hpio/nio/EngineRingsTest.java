package org.hpio.nio;

import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;
import org.hpio.testing.NativeCalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link EngineRings} started on first use: what asks for the start, what does not, and a start that cannot be had. */
class EngineRingsTest {
    @TempDir
    Path dir;

    @Test
    void ringsStartedOnFirstUseStartOnceAndOnlyWhenAnEngineIsAskedFor() throws Exception {
        try (IoEngine engine = IoEngines.openThreads(EngineConfig.defaults())) {
            AtomicInteger starts = new AtomicInteger();
            EngineRings rings = EngineRings.startedOnFirstUse(() -> {
                starts.incrementAndGet();
                return List.of(engine);
            });
            assertEquals("not started", rings.nameIfStarted());
            assertThrows(IllegalStateException.class, rings::first);
            NativeCalls.assumeOn("a descriptor to cancel on");
            Path file = Files.write(dir.resolve("f"), new byte[10]);
            try (NativeFile nativeFile = NativeFile.open(file, Syscalls.O_RDONLY)) {
                assertEquals(0, rings.cancelAll(nativeFile), "nothing to cancel on engines never started");
            }
            assertEquals(0, starts.get(), "naming, cancelling: no start");
            assertSame(engine, rings.forCurrentThread());
            assertSame(engine, rings.forCurrentThread());
            assertEquals("threads", rings.name());
            assertEquals("threads", rings.nameIfStarted());
            assertSame(engine, rings.first());
            assertEquals(1, starts.get(), "one start, then the same engines");
        }
    }

    @Test
    void aStartThatCannotBeHadNowIsAskedAgainByTheNextCall() throws Exception {
        try (IoEngine engine = IoEngines.openThreads(EngineConfig.defaults())) {
            AtomicInteger asked = new AtomicInteger();
            // First: none now (this thread is starting them, or they are closed); then the engines.
            EngineRings rings = EngineRings.startedOnFirstUse(() -> asked.getAndIncrement() == 0 ? null : List.of(engine));
            assertNull(rings.forCurrentThread(), "the caller then goes to the JDK's channel");
            assertEquals("not started", rings.nameIfStarted());
            assertSame(engine, rings.forCurrentThread());
            assertEquals(2, asked.get());
        }
    }

    @Test
    void aFailedStartIsTheCallersErrorAndTheNextCallTriesAgain() throws Exception {
        try (IoEngine engine = IoEngines.openThreads(EngineConfig.defaults())) {
            AtomicInteger asked = new AtomicInteger();
            EngineRings rings = EngineRings.startedOnFirstUse(() -> {
                if (asked.getAndIncrement() == 0) {
                    throw new IOException("io_uring cannot start: test");
                }
                return List.of(engine);
            });
            IOException e = assertThrows(IOException.class, rings::forCurrentThread);
            assertEquals("io_uring cannot start: test", e.getMessage());
            assertEquals("not started", rings.nameIfStarted());
            assertSame(engine, rings.forCurrentThread());
        }
    }

    @Test
    void callsRacingToStartGetTheSameEngines() throws Exception {
        try (IoEngine engine = IoEngines.openThreads(EngineConfig.defaults())) {
            CountDownLatch both = new CountDownLatch(2);
            EngineRings rings = EngineRings.startedOnFirstUse(() -> {
                both.countDown();
                try {
                    both.await(5, TimeUnit.SECONDS);   // both callers inside the start at once, if it lets them
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                return List.of(engine);
            });
            List<IoEngine> got = new ArrayList<>();
            Thread other = Thread.ofPlatform().start(() -> {
                try {
                    IoEngine e = rings.forCurrentThread();
                    synchronized (got) {
                        got.add(e);
                    }
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
            IoEngine mine = rings.forCurrentThread();
            other.join();
            assertSame(engine, mine);
            assertEquals(List.of(engine), got);
        }
    }
}
