package org.hpio.nio;

import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;
import org.hpio.testing.NativeCalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link CallingThreadWrite}: what it writes at once, what it leaves to the engine, and the buffer positions. */
class CallingThreadWriteTest {
    @TempDir
    Path dir;

    @Test
    void heapReadOnlyAndDirectBuffersAreWrittenAtOnceAndTheirPositionsAdvance() throws Exception {
        NativeCalls.assumeOn("pwrite");
        Path path = Files.write(dir.resolve("f"), new byte[0]);
        byte[] data = FileChannelContract.bytes(0, 3000);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDWR)) {
            ByteBuffer heap = ByteBuffer.wrap(data, 0, 1000);
            assertEquals(1000, CallingThreadWrite.write(file, heap, 0));
            assertEquals(1000, heap.position());
            ByteBuffer readOnly = ByteBuffer.wrap(data).position(1000).limit(2000).asReadOnlyBuffer();
            assertEquals(1000, CallingThreadWrite.write(file, readOnly, 1000));
            assertEquals(2000, readOnly.position(), "a read-only buffer's own position advances");
            ByteBuffer direct = ByteBuffer.allocateDirect(1200).position(200);
            direct.put(data, 2000, 1000).flip().position(200);
            assertEquals(1000, CallingThreadWrite.write(file, direct, 2000));
            assertEquals(1200, direct.position());
        }
        assertArrayEquals(data, Files.readAllBytes(path));
    }

    @Test
    void largeWritesVirtualThreadsWritesAndClosedFilesAreLeftToTheEngineWithTheBufferUntouched() throws Exception {
        NativeCalls.assumeOn("pwrite");
        Path path = Files.write(dir.resolve("f"), new byte[0]);
        NativeFile file = NativeFile.open(path, Syscalls.O_RDWR);
        try {
            ByteBuffer big = ByteBuffer.allocate(CallingThreadWrite.MAX_BYTES + 1);
            assertEquals(CallingThreadWrite.NOT_SERVED, CallingThreadWrite.write(file, big, 0));
            assertEquals(0, big.position());
            ByteBuffer small = ByteBuffer.wrap(new byte[10]);
            CompletableFuture<Long> virtual = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                try {
                    virtual.complete(CallingThreadWrite.write(file, small, 0));
                } catch (IOException | RuntimeException e) {
                    virtual.completeExceptionally(e);
                }
            });
            assertEquals(CallingThreadWrite.NOT_SERVED, virtual.get(30, TimeUnit.SECONDS),
                    "a virtual thread's write may wait in the kernel: it parks on the engine instead");
            assertEquals(0, small.position());
        } finally {
            file.close();
        }
        ByteBuffer afterClose = ByteBuffer.wrap(new byte[10]);
        assertEquals(CallingThreadWrite.NOT_SERVED, CallingThreadWrite.write(file, afterClose, 0));
        assertEquals(0, afterClose.position());
        assertEquals(0, Files.size(path), "nothing was written");
    }

    @Test
    void aFailedWriteThrowsNamingTheFileAndLeavesThePosition() throws Exception {
        NativeCalls.assumeOn("pwrite");
        byte[] before = FileChannelContract.bytes(0, 100);
        Path path = Files.write(dir.resolve("f"), before);
        try (NativeFile readOnly = NativeFile.open(path, Syscalls.O_RDONLY)) {
            ByteBuffer src = ByteBuffer.wrap(new byte[10]);
            IOException e = assertThrows(IOException.class, () -> CallingThreadWrite.write(readOnly, src, 0));
            assertTrue(e.getMessage().contains(path.toString()), e.getMessage());
            assertEquals(0, src.position());
        }
        assertArrayEquals(before, Files.readAllBytes(path));
    }
}
