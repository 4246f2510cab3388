package org.hpio.internal.sys;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The calls hpio makes where native calls are off ({@link ChannelCalls}), tested in any JVM: the same results and
 * errno as the system calls, arrays of any type, and an interrupt that fails only its own call.
 */
class ChannelCallsTest {
    @TempDir
    Path dir;

    @Test
    void readsAndWritesArraysOfAnyTypeAndNativeMemory() throws IOException {
        Path file = dir.resolve("f");
        try (var calls = new Closing(ChannelCalls.open(file, Syscalls.O_RDWR | Syscalls.O_CREAT))) {
            long[] longs = {1, -1, Long.MAX_VALUE};
            assertEquals(24, calls.c.write(MemorySegment.ofArray(longs), 0));
            long[] back = new long[3];
            assertEquals(24, calls.c.read(MemorySegment.ofArray(back), 0));
            assertArrayEquals(longs, back);
            MemorySegment nativeBuffer = Arena.ofAuto().allocate(8);
            assertEquals(8, calls.c.read(nativeBuffer, 8));
            assertEquals(-1L, nativeBuffer.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.nativeOrder()), 0));
            assertEquals(0, calls.c.read(MemorySegment.ofArray(new byte[4]), 24), "0 at the end of the file");
            assertEquals(24, calls.c.size());
        }
    }

    @Test
    void failuresCarryTheSystemCallsErrnoAndNameTheFile() throws IOException {
        Path file = dir.resolve("ro");
        Files.write(file, new byte[16]);
        NoSuchFileException missing = assertThrows(NoSuchFileException.class,
                () -> ChannelCalls.open(dir.resolve("missing"), Syscalls.O_RDONLY));
        assertEquals(Errno.ENOENT, Errno.of(missing));
        try (var calls = new Closing(ChannelCalls.open(file, Syscalls.O_RDONLY))) {
            IOException e = assertThrows(IOException.class, () -> calls.c.write(MemorySegment.ofArray(new byte[4]), 0));
            assertEquals(Errno.EBADF, Errno.of(e), "as pwrite on a read-only descriptor");
            assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("pwrite failed at offset 0"),
                    e.getMessage());
        }
        UnsupportedOperationException direct = assertThrows(UnsupportedOperationException.class,
                () -> ChannelCalls.open(file, Syscalls.O_RDONLY | Syscalls.O_DIRECT));
        assertTrue(direct.getMessage().startsWith("O_DIRECT (opening " + file + ") needs hpio's native calls"),
                direct.getMessage());
    }

    @Test
    void anInterruptFailsItsOwnCallAndTheFileStaysOpenForEveryoneElse() throws Exception {
        Path file = dir.resolve("shared");
        Files.write(file, new byte[]{1, 2, 3, 4});
        try (var calls = new Closing(ChannelCalls.open(file, Syscalls.O_RDWR))) {
            Thread.currentThread().interrupt();   // the JDK closes a channel used by an interrupted thread
            try {
                assertThrows(InterruptedIOException.class, () -> calls.c.read(MemorySegment.ofArray(new byte[4]), 0));
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept");
            } finally {
                Thread.interrupted();
            }
            byte[] back = new byte[4];
            Thread other = Thread.ofPlatform().start(() -> {
                try {
                    calls.c.read(MemorySegment.ofArray(back), 0);
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
            other.join();
            assertArrayEquals(new byte[]{1, 2, 3, 4}, back, "another thread reads on: the channel was reopened");
            assertEquals(4, calls.c.write(MemorySegment.ofArray(new byte[]{9, 9, 9, 9}), 4), "and writes");
        }
        assertEquals(8, Files.size(file));
    }

    /** Closes the calls at the end of a test. */
    private record Closing(ChannelCalls c) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            c.close();
        }
    }
}
