package org.hpio.internal.io;

import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The whole contract on a ring whose entries a kernel thread takes (IORING_SETUP_SQPOLL), plus what only that
 * mode can get wrong: a submission after the thread fell asleep must wake it, and the thread must outlive the
 * thread that set the ring up.
 */
class UringSqPollEngineTest extends UringEngineTest {
    /** Short, so that the submission thread falls asleep between the steps of a test. */
    static final int IDLE_MILLIS = 5;

    @Override
    IoEngine open(EngineConfig config) throws IOException {
        return openKernelSubmitting(config);
    }

    /** An io_uring engine with {@code config} and a kernel submission thread; skips the test where refused. */
    static IoEngine openKernelSubmitting(EngineConfig config) throws IOException {
        IoEngine opened = IoEngines.openUring(config.withSqPollIdleMillis(IDLE_MILLIS));
        if (!((UringEngine) opened).kernelSubmits()) {
            opened.close();   // the kernel refused SQPOLL (the warning says why): nothing here to test
            assumeTrue(false, "the kernel refused a kernel submission thread (SQPOLL) here");
        }
        return opened;
    }

    @Test
    void aSubmissionAfterTheSubmissionThreadFellAsleepWakesIt() throws Exception {
        Path path = dir.resolve("asleep");
        byte[] contents = writeRandomFile(path, 3, 8192);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY)) {
            for (int round = 0; round < 5; round++) {
                Thread.sleep(4L * IDLE_MILLIS);   // idle for longer than it polls: it sleeps
                MemorySegment buffer = arena.allocate(4096);
                long n = await(engine.submit(IoOperation.read(file, buffer, 4096L * (round % 2))));
                assertEquals(4096, n);
                assertArrayEquals(Arrays.copyOfRange(contents, (int) (4096L * (round % 2)), (int) (4096L * (round % 2)) + 4096),
                        buffer.toArray(JAVA_BYTE), "round " + round);
            }
        }
    }

    @Test
    void anEngineSetUpByAThreadThatHasEndedStillServes() throws Exception {
        AtomicReference<IoEngine> opened = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread setUp = Thread.ofPlatform().start(() -> {
            try {
                opened.set(open(EngineConfig.defaults().withMaxInFlight(8)));
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        setUp.join();
        assertNull(failure.get());
        byte[] contents = randomBytes(new Random(5), 4096);
        Path path = dir.resolve("orphan");
        try (IoEngine orphan = opened.get();
             NativeFile file = NativeFile.open(path, Syscalls.O_RDWR | Syscalls.O_CREAT)) {
            assertEquals(4096, await(orphan.submit(IoOperation.write(file, buffer(contents), 0))));
            Thread.sleep(4L * IDLE_MILLIS);
            MemorySegment back = arena.allocate(4096);
            assertEquals(4096, await(orphan.submit(IoOperation.read(file, back, 0))));
            assertArrayEquals(contents, back.toArray(JAVA_BYTE));
        }
    }
}
