package org.hpio;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileOptions;
import org.hpio.async.AsyncFileRequest;
import org.hpio.internal.sys.VirtualMemory;
import org.hpio.testing.DirectIo;
import org.hpio.testing.Smaps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * IoMemory: exact, aligned, zeroed segments of every size; huge pages from 1 MiB on where the kernel grants
 * them (and not below); memory freed with its arena; O_DIRECT reads into it.
 */
class IoMemoryTest {
    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void segmentsHaveTheSizeAskedForAreAlignedAndStartZeroed() {
        try (Arena arena = Arena.ofConfined()) {
            for (long size : new long[] {0, 1, 4096, 100_000, MIB - 1, MIB, 3 * MIB + 5}) {
                MemorySegment segment = IoMemory.allocate(size, arena);
                assertEquals(size, segment.byteSize(), size + " bytes");
                assertEquals(0, segment.address() % IoMemory.ALIGNMENT, size + " bytes: aligned for O_DIRECT");
                for (long at = 0; at < size; at += 4093) {
                    assertEquals(0, segment.get(ValueLayout.JAVA_BYTE, at), size + " bytes: zero at " + at);
                }
                segment.fill((byte) 7);   // all of it writable
            }
        }
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> IoMemory.allocate(-1, Arena.ofAuto()));
        assertTrue(negative.getMessage().contains("-1"), negative.getMessage());
    }

    @Test
    void largeSegmentsAreInHugePagesWhereTheKernelGrantsThemAndSmallOnesAreNot() throws IOException {
        assertEquals(VirtualMemory.hugePagesForIo(), IoMemory.hugePages());
        assumeTrue(IoMemory.hugePages(), "no transparent huge pages here (or native calls are off)");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment large = IoMemory.allocate(3 * MIB, arena);
            assertEquals(0, large.address() % VirtualMemory.HUGE_PAGE_BYTES, "starts on a huge page");
            large.fill((byte) 1);
            for (long at : new long[] {0, large.byteSize() - 1}) {
                String flags = Smaps.vmFlags(large.address() + at);
                assertTrue(flags != null && (" " + flags + " ").contains(" hg "),
                        "advised for huge pages (MADV_HUGEPAGE) at " + at + ": " + flags);
            }
            long hugeKib = Smaps.anonHugePagesKib(large.address());
            assertTrue(hugeKib >= 2048, "the mapping holding it has huge pages: " + hugeKib + " kB"
                    + " (a machine whose memory is too fragmented for one would fail here)");
            MemorySegment small = IoMemory.allocate(IoMemory.HUGE_PAGES_FROM - 4096, arena);
            small.fill((byte) 1);
            String flags = Smaps.vmFlags(small.address());
            assertFalse(flags == null || (" " + flags + " ").contains(" hg "), "not advised below 1 MiB: " + flags);
        }
    }

    @Test
    void closingTheArenaFreesTheMemory() throws IOException {
        MemorySegment segment;
        try (Arena arena = Arena.ofConfined()) {
            segment = IoMemory.allocate(2 * MIB, arena);
            segment.fill((byte) 3);
        }
        assertFalse(segment.scope().isAlive());
        assertThrows(IllegalStateException.class, () -> segment.get(ValueLayout.JAVA_BYTE, 0));
        if (IoMemory.hugePages()) {   // its own mapping: unmapped, so no mapping advised for huge pages holds it
            String flags = Smaps.vmFlags(segment.address());
            assertFalse(flags != null && (" " + flags + " ").contains(" hg "), "still mapped: " + flags);
        }
    }

    @Test
    void anArenaThatCannotOwnTheMemoryFailsAndLeavesNothingMapped() throws IOException {
        assumeTrue(IoMemory.hugePages(), "no transparent huge pages here (or native calls are off)");
        Arena closed = Arena.ofConfined();
        closed.close();
        long before = virtualMemoryKib();
        for (int i = 0; i < 16; i++) {   // each would leave 6 MiB of address space mapped: 96 MiB
            assertThrows(IllegalStateException.class, () -> IoMemory.allocate(4 * MIB, closed));
        }
        long grown = virtualMemoryKib() - before;
        assertTrue(grown < 48 << 10, "each refused mapping was unmapped again; the process grew " + grown + " kB");
    }

    /** This process's VmSize, in kB (/proc/self/status). */
    private static long virtualMemoryKib() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("VmSize:"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).findFirst().orElseThrow();
    }

    @Test
    void directReadsIntoItReturnTheFilesBytes() throws IOException {
        byte[] data = new byte[(int) (4 * MIB)];
        new Random(11).nextBytes(data);
        Path path = Files.write(dir.resolve("data"), data);
        DirectIo.assumeSupported(path);
        try (Arena arena = Arena.ofConfined();
             AsyncFile file = new AsyncFile(path, "r", AsyncFileOptions.defaults().withDirect(true))) {
            MemorySegment buffer = IoMemory.allocate(2 * MIB, arena);
            for (int piece = 0; piece < 2; piece++) {
                AsyncFileRequest read = file.read(piece * 2 * MIB, buffer);
                read.awaitUninterruptibly();
                assertEquals(2 * MIB, read.transferred(), "piece " + piece);
                byte[] expected = new byte[(int) (2 * MIB)];
                System.arraycopy(data, (int) (piece * 2 * MIB), expected, 0, expected.length);
                assertArrayEquals(expected, buffer.toArray(ValueLayout.JAVA_BYTE), "piece " + piece);
            }
        }
    }
}
