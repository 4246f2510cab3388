package org.hpio.nio;

import org.hpio.internal.io.EngineConfig;
import org.hpio.reliability.LoopExt4;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A failed call reaches the JDK's channel API's callers as the JDK's channels report it: a plain IOException
 * whose message is the C library's text ("No space left on device"), which code written against the JDK may
 * match on; hpio's own report (call, file, offset) is its cause. Before, hpio's channels threw their own
 * FileSystemException, "<file>: pwrite failed at offset N: ENOSPC (no space left on device)". A real ENOSPC: a
 * small ext4 on a loop device, filled by writes (root and mkfs.ext4 needed, else skipped).
 */
class JdkErrorsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Implementation.class, names = {"JDK", "HPIO_URING", "HPIO_THREADS"})
    void aFileChannelWriteOnAFullFileSystemFailsInTheJdksWords(Implementation implementation) throws Exception {
        try (LoopExt4 fs = LoopExt4.create(dir, 8);
             Implementation.Running running = implementation.start(EngineConfig.defaults());
             FileChannel channel = running.opener().open(fs.mountpoint().resolve("fill"), CREATE, WRITE)) {
            IOException failure = null;
            ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
            for (int i = 0; i < 64 && failure == null; i++) {
                try {
                    channel.write(chunk.clear());
                } catch (IOException e) {
                    failure = e;
                }
            }
            if (failure == null) {
                fail("64 MiB fitted into an 8 MiB file system");
            }
            assertSame(IOException.class, failure.getClass(), failure.toString());
            assertEquals("No space left on device", failure.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Implementation.class, names = {"JDK", "HPIO_URING", "HPIO_THREADS"})
    void anAsynchronousWriteOnAFullFileSystemFailsInTheJdksWords(Implementation implementation) throws Exception {
        try (LoopExt4 fs = LoopExt4.create(dir, 8);
             Implementation.Running running = implementation.start(EngineConfig.defaults());
             AsynchronousFileChannel channel = running.opener().openAsync(fs.mountpoint().resolve("fill"),
                     Set.of(CREATE, WRITE), null)) {
            Throwable failure = null;
            ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
            for (int i = 0; i < 64 && failure == null; i++) {
                try {
                    channel.write(chunk.clear(), (long) i << 20).get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    failure = e.getCause();
                }
            }
            if (failure == null) {
                fail("64 MiB fitted into an 8 MiB file system");
            }
            assertSame(IOException.class, failure.getClass(), failure.toString());
            assertEquals("No space left on device", failure.getMessage());
        }
    }
}
