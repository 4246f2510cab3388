package org.hpio.internal.mem;

import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;
import org.hpio.internal.sys.VirtualMemory;
import org.hpio.testing.Smaps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * HugePageSlabs: which sizes are carved, buffers that do not overlap and keep their bytes, slabs aligned to a
 * huge page that the kernel backs with one, O_DIRECT reads into carved memory, and a MemoryPool that uses them.
 */
class HugePageSlabsTest {
    private static final long KIB = 1 << 10;
    private static final long SLAB = HugePageSlabs.SLAB;

    @TempDir
    Path dir;

    @Test
    void sizesFrom64KiBToASlabAreCarved() {
        assertFalse(HugePageSlabs.applies(32 * KIB), "below 64 KiB");
        for (long size = 64 * KIB; size <= SLAB; size *= 2) {
            assertTrue(HugePageSlabs.applies(size), size + " bytes");
        }
        assertFalse(HugePageSlabs.applies(2 * SLAB), "above a slab");
        assertFalse(HugePageSlabs.applies(96 * KIB), "not a divisor of a slab");
        assertTrue(VirtualMemory.hugePagesOnRequest("always [madvise] never"));
        assertTrue(VirtualMemory.hugePagesOnRequest("[always] madvise never\n"));
        assertFalse(VirtualMemory.hugePagesOnRequest("always madvise [never]"));
        assertFalse(VirtualMemory.hugePagesOnRequest(""));
    }

    @Test
    void buffersFillASlabThenTheNextAndKeepTheirBytes() {
        HugePageSlabs slabs = slabsOr(64 * KIB);
        int perSlab = (int) (SLAB / (64 * KIB));
        List<MemorySegment> buffers = new ArrayList<>();
        for (int i = 0; i < perSlab + 8; i++) {
            MemorySegment b = slabs.carve();
            assertEquals(64 * KIB, b.byteSize());
            assertEquals(0, b.address() % MemoryPool.ALIGNMENT, "page aligned");
            b.fill((byte) i);
            buffers.add(b);
        }
        long firstSlab = buffers.getFirst().address() & -SLAB;
        for (int i = 0; i < buffers.size(); i++) {
            MemorySegment b = buffers.get(i);
            boolean inFirst = (b.address() & -SLAB) == firstSlab;
            assertEquals(i < perSlab, inFirst, "buffer " + i + " in the first slab");
            assertEquals(i < perSlab ? firstSlab + i * 64 * KIB : b.address(), b.address(), "one after another");
            for (long at = 0; at < b.byteSize(); at += 4096) {
                assertEquals((byte) i, b.get(ValueLayout.JAVA_BYTE, at), "buffer " + i + " at " + at);
            }
        }
    }

    @Test
    void theKernelBacksATouchedSlabWithAHugePage() throws IOException {
        HugePageSlabs slabs = slabsOr(SLAB);
        MemorySegment slab = slabs.carve();
        assertEquals(0, slab.address() % SLAB, "aligned to a huge page");
        slab.fill((byte) 1);
        long hugeKib = Smaps.anonHugePagesKib(slab.address());
        assertTrue(hugeKib >= SLAB / KIB, "the mapping holding the slab has a huge page: " + hugeKib + " kB"
                + " (a machine whose memory is too fragmented for one would fail here)");
    }

    @Test
    void directReadsIntoCarvedMemoryReturnTheFilesBytes() throws IOException {
        HugePageSlabs slabs = slabsOr(256 * KIB);
        byte[] data = new byte[1 << 20];
        new Random(7).nextBytes(data);
        Path path = Files.write(dir.resolve("data"), data);
        MemorySegment buffer = slabs.carve();
        NativeFile file;
        try {
            file = NativeFile.open(path, Syscalls.O_RDONLY | Syscalls.O_DIRECT);
        } catch (IOException e) {
            assumeTrue(false, "O_DIRECT refused in " + dir + ": " + e);
            return;
        }
        try (file) {
            for (int piece = 0; piece < 4; piece++) {
                assertEquals(256 * KIB, file.read(buffer, piece * 256 * KIB), "piece " + piece);
                byte[] expected = new byte[(int) (256 * KIB)];
                System.arraycopy(data, (int) (piece * 256 * KIB), expected, 0, expected.length);
                assertArrayEquals(expected, buffer.toArray(ValueLayout.JAVA_BYTE), "piece " + piece);
            }
        }
    }

    @Test
    void aPoolWithHugePagesCarvesItsLargerClassesAndNotItsSmallOnes() {
        assumeTrue(HugePageSlabs.forBuffersOf(64 * KIB) != null, "no transparent huge pages here");
        MemoryPool pool = new MemoryPool(1 << 20, MemoryPool.IdleBound.perClass(0, 0), true);
        MemorySegment a = pool.take(100 * KIB);
        MemorySegment b = pool.take(100 * KIB);
        assertEquals(a.address() + 128 * KIB, b.address(), "two 128 KiB buffers from one slab, one after the other");
        assertNull(HugePageSlabs.forBuffersOf(32 * KIB), "32 KiB: an ordinary allocation");
        MemoryPool plain = new MemoryPool(1 << 20, MemoryPool.IdleBound.perClass(0, 0));
        assertEquals(128 * KIB, plain.take(100 * KIB).byteSize());
        pool.give(a);
        pool.give(b);
    }

    private static HugePageSlabs slabsOr(long bytes) {
        HugePageSlabs slabs = HugePageSlabs.forBuffersOf(bytes);
        assumeTrue(slabs != null, "no transparent huge pages here (or native calls are off)");
        return slabs;
    }
}
