package org.hpio.internal.sys;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CallMemory: a platform thread keeps one block; virtual threads share a few (no block of each one's own);
 * concurrent calls never see each other's arguments; a name too long for a block still gets the kernel's answer.
 */
class CallMemoryTest {
    @TempDir
    Path dir;

    @Test
    void aPlatformThreadKeepsOneBlockForItsLife() {
        CallMemory first = CallMemory.take();
        CallMemory.give(first);
        CallMemory second = CallMemory.take();
        assertEquals(first.address(), second.address(), "the thread's own block, each call");
        CallMemory.give(second);
    }

    @Test
    void aCallMadeWhileTheThreadsBlockIsHeldGetsAnotherBlock() throws Exception {
        for (boolean virtual : new boolean[] {false, true}) {
            Runnable nested = () -> {
                CallMemory outer = CallMemory.take();
                MemorySegment name = outer.name("/outer".getBytes(StandardCharsets.UTF_8));
                CallMemory inner = CallMemory.take();   // a call made before the outer one gave its block back
                inner.name("/inner/overwritten".getBytes(StandardCharsets.UTF_8));
                CallMemory.give(inner);
                assertTrue(inner.address() != outer.address(), "two blocks");
                assertEquals("/outer", name.getString(0, StandardCharsets.UTF_8), "the outer call's name intact");
                CallMemory.give(outer);
            };
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Runnable checked = () -> {
                try {
                    nested.run();
                } catch (Throwable t) {
                    failed.set(t);
                }
            };
            (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).start(checked).join();
            if (failed.get() != null) {
                throw new AssertionError((virtual ? "virtual" : "platform") + " thread", failed.get());
            }
        }
        CallMemory own = CallMemory.take();   // and the platform thread's own block is its own again after
        CallMemory.give(own);
        CallMemory again = CallMemory.take();
        CallMemory.give(again);
        assertEquals(own.address(), again.address());
    }

    @Test
    void manyShortLivedVirtualThreadsShareAFewBlocks() throws Exception {
        Set<Long> addresses = ConcurrentHashMap.newKeySet();
        Path file = Files.write(dir.resolve("f"), new byte[123]);
        for (int i = 0; i < 500; i++) {
            Thread t = Thread.ofVirtual().start(() -> {
                CallMemory block = CallMemory.take();
                addresses.add(block.address());
                CallMemory.give(block);
                try {
                    assertEquals(123, Statx.of(NativeFile.nameOf(file), Statx.STATX_SIZE).size());
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            t.join();
        }
        // One a slot at most (4 a processor), where a block of each thread's own would make 500.
        assertTrue(addresses.size() <= 4 * Runtime.getRuntime().availableProcessors(),
                addresses.size() + " blocks for 500 threads one after another");
    }

    @Test
    void concurrentVirtualThreadsEachGetTheirOwnFilesAnswer() throws Exception {
        int files = 64;
        List<Path> paths = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            paths.add(Files.write(dir.resolve("file-" + "x".repeat(i * 3) + i), new byte[i * 17]));
        }
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> results = new ArrayList<>();
            for (int r = 0; r < 2000; r++) {
                int i = r % files;
                results.add(pool.submit(() -> {
                    String name = NativeFile.nameOf(paths.get(i));
                    int fd = Syscalls.open(name, Syscalls.O_RDONLY, 0);
                    try {
                        assertEquals(i * 17L, Statx.of(fd, name, Statx.STATX_SIZE).size(), name);
                        assertEquals(i * 17L, Statx.of(name, Statx.STATX_SIZE).size(), name);
                    } finally {
                        Syscalls.close(fd, name);
                    }
                    return null;
                }));
            }
            for (Future<?> f : results) {
                f.get();
            }
        }
    }

    @Test
    void aNameThatFillsABlockOpensAndALongerOneGetsTheKernelsRefusal() throws IOException {
        Path deep = dir;
        String component = "d".repeat(200);
        while (NativeFile.nameOf(deep).length() + 1 + component.length() < CallMemory.NAME_BYTES - 10) {
            deep = deep.resolve(component);
        }
        Files.createDirectories(deep);
        String fileName = "f".repeat(CallMemory.NAME_BYTES - NativeFile.nameOf(deep).length() - 1);
        Path fits = Files.write(deep.resolve(fileName), new byte[7]);
        String name = NativeFile.nameOf(fits);
        assertEquals(CallMemory.NAME_BYTES, name.length(), "exactly a block's name: PATH_MAX less its NUL");
        int fd = Syscalls.open(name, Syscalls.O_RDONLY, 0);
        try {
            assertEquals(7, Statx.of(name, Statx.STATX_SIZE).size());
        } finally {
            Syscalls.close(fd, name);
        }
        String tooLong = name + "/g";
        IOException open = assertThrows(IOException.class, () -> Syscalls.open(tooLong, Syscalls.O_RDONLY, 0));
        assertTrue(open.getMessage().contains(tooLong), open.getMessage());
        assertThrows(IOException.class, () -> Statx.of(tooLong, Statx.STATX_SIZE));
        assertNull(CallMemory.take().name(new byte[CallMemory.NAME_BYTES + 1]));
    }

    @Test
    void argumentsBeyondABlocksPartAreRefused() {
        CallMemory block = CallMemory.take();
        assertEquals(CallMemory.ARGUMENTS_BYTES, block.arguments(CallMemory.ARGUMENTS_BYTES).byteSize());
        assertThrows(IllegalArgumentException.class, () -> block.arguments(CallMemory.ARGUMENTS_BYTES + 1));
        Set<Long> distinct = new HashSet<>(List.of(block.capture().address(), block.arguments(16).address(),
                block.name(new byte[1]).address()));
        assertEquals(3, distinct.size(), "capture, arguments and name each have a place of their own");
        assertTrue(block.arguments(16).address() >= block.capture().address() + Syscalls.captureBytes());
    }

    @Test
    void aReadNowIntoPartOfABufferReadsJustThatPart() throws IOException {
        Path file = Files.write(dir.resolve("r"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        try (NativeFile f = NativeFile.open(file, Syscalls.O_RDONLY); NativeFile.Lease lease = f.lease();
             Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(8);
            assertEquals(3, lease.readNow(buffer, 3, 2, false));
            assertEquals(3, buffer.get(ValueLayout.JAVA_BYTE, 0));
            assertEquals(5, buffer.get(ValueLayout.JAVA_BYTE, 2));
            assertEquals(0, buffer.get(ValueLayout.JAVA_BYTE, 3), "beyond the length: untouched");
            assertThrows(IndexOutOfBoundsException.class, () -> lease.readNow(buffer, 9, 0, false));
        }
    }
}
