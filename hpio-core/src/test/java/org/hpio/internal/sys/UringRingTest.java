package org.hpio.internal.sys;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The ring's own mechanics that the engine relies on when io_uring_enter fails. */
class UringRingTest {
    @TempDir
    Path dir;

    @Test
    void unconsumedEntriesBecomeNopsThatTouchNoBuffer() throws Exception {
        Path file = dir.resolve("data");
        Files.write(file, new byte[]{1, 2, 3, 4, 5, 6, 7, 8});
        try (NativeFile f = NativeFile.open(file, Syscalls.O_RDONLY | Syscalls.O_CLOEXEC);
             NativeFile.Lease lease = f.lease();
             UringRing ring = UringRing.create(8, 16);
             Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(8);
            buffer.fill((byte) 0x55);
            ring.prep(ring.nextSqe(), UringLayout.IORING_OP_READ, (byte) 0, lease.fd(), buffer.address(), 8, 0, 0, 41);
            ring.prep(ring.nextSqe(), UringLayout.IORING_OP_READ, (byte) 0, lease.fd(), buffer.address(), 8, 0, 0, 42);
            assertEquals(2, ring.flush());            // published: the kernel would read them at the next enter

            List<Long> former = new ArrayList<>();
            assertEquals(2, ring.neutralizeUnconsumed(7L << 60, former::add));
            assertEquals(List.of(41L, 42L), former);

            assertEquals(2, ring.enter(2, 2, true));  // the kernel takes the published entries now
            List<long[]> seen = new ArrayList<>();
            ring.reap((userData, result) -> seen.add(new long[]{userData, result}));
            assertEquals(2, seen.size());
            for (long[] cqe : seen) {
                assertEquals(7L << 60, cqe[0]);
                assertEquals(0, cqe[1]);
            }
            for (int i = 0; i < 8; i++) {
                assertEquals((byte) 0x55, buffer.get(JAVA_BYTE, i), "byte " + i + " was written by a neutralized read");
            }
            assertEquals(0, ring.neutralizeUnconsumed(1, former::add));   // nothing left unconsumed
        }
    }

    @Test
    void aCompletionIsHandedOverOnceEvenWhenTheSinkThrows() throws Exception {
        assumeTrue(NativeAccess.available(), "native calls are off");
        try (UringRing ring = UringRing.create(8, 16)) {
            for (int i = 0; i < 3; i++) {
                ring.prep(ring.nextSqe(), UringLayout.IORING_OP_NOP, (byte) 0, -1, 0, 0, 0, 0, i);
            }
            assertEquals(3, ring.enter(ring.flush(), 3, true));
            List<Long> seen = new ArrayList<>();
            assertThrows(IllegalStateException.class, () -> ring.reap((userData, res) -> {
                seen.add(userData);
                if (userData == 1) {
                    throw new IllegalStateException("a sink's own failure");
                }
            }));
            assertEquals(List.of(0L, 1L), seen);
            assertEquals(1, ring.available(), "the two handed over are retired, the third is not");
            ring.reap((userData, res) -> seen.add(userData));
            assertEquals(List.of(0L, 1L, 2L), seen, "each once");
        }
    }

    @Test
    void aBatchedWaitReturnsOnceTheBatchIsPostedAndAPlainWaitAfterOne() throws Exception {
        assumeTrue(NativeAccess.available(), "native calls are off");
        try (UringRing ring = UringRing.create(8, 16)) {
            assumeTrue(ring.canTimeWaits(), "no timed waits (Linux < 5.11)");
            for (int i = 0; i < 4; i++) {
                ring.prep(ring.nextSqe(), UringLayout.IORING_OP_NOP, (byte) 0, -1, 0, 0, 0, 0, i);
            }
            assertEquals(4, ring.enter(ring.flush(), 0, false));
            // Either wait returns at once with the four NOPs posted; a refused minimum wait would throw EINVAL.
            int minWait = ring.canBatchWaits() ? 100 : 0;
            assertTrue(ring.waitCompletions(4, minWait, 1_000_000_000L));
            List<Long> seen = new ArrayList<>();
            assertEquals(4, ring.reap((userData, res) -> seen.add(userData)));
            assertEquals(List.of(0L, 1L, 2L, 3L), seen);
            // Nothing in flight: the batched wait ends at its timeout, saying no completion came.
            assertFalse(ring.waitCompletions(4, minWait, 20_000_000L));
        }
    }
}
