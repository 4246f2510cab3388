package org.hpio.internal.sys;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Syscalls: heap (critical) transfers are bounded by CRITICAL_CHUNK; pread/pwrite/size basics. */
class SyscallsTest {
    @TempDir
    Path dir;

    @Test
    void openFlagsAreThisMachinesAsItsCHeadersSay() {
        Map<String, Long> c = CStructOffsets.evaluate(List.of("<asm/fcntl.h>"),
                List.of("O_DIRECT", "O_NOFOLLOW", "O_DSYNC", "O_SYNC", "O_CLOEXEC", "O_CREAT", "O_EXCL", "O_TRUNC",
                        "O_APPEND"));
        assertEquals(List.of((long) Syscalls.O_DIRECT, (long) Syscalls.O_NOFOLLOW, (long) Syscalls.O_DSYNC,
                (long) Syscalls.O_SYNC, (long) Syscalls.O_CLOEXEC, (long) Syscalls.O_CREAT, (long) Syscalls.O_EXCL,
                (long) Syscalls.O_TRUNC, (long) Syscalls.O_APPEND), List.copyOf(c.values()));
    }

    @Test
    void theFlagsThatDifferByArchitectureHaveEachOnesValue() {
        // The kernel's uapi headers: asm-generic/fcntl.h, arch/arm64 and arch/powerpc asm/fcntl.h.
        for (String generic : List.of("amd64", "x86_64", "riscv64", "s390x", "loongarch64")) {
            assertEquals(040000, Syscalls.oDirect(generic), generic);
            assertEquals(0400000, Syscalls.oNoFollow(generic), generic);
        }
        assertEquals(0200000, Syscalls.oDirect("aarch64"));
        assertEquals(0100000, Syscalls.oNoFollow("aarch64"));
        assertEquals(0400000, Syscalls.oDirect("ppc64le"));
        assertEquals(0100000, Syscalls.oNoFollow("ppc64le"));
    }

    @Test
    void heapTransfersLargerThanTheCriticalChunkAreRefused() throws IOException {
        Path file = dir.resolve("f");
        Files.write(file, new byte[0]);
        try (NativeFile f = NativeFile.open(file, Syscalls.O_RDWR)) {
            MemorySegment tooBig = MemorySegment.ofArray(new byte[Syscalls.CRITICAL_CHUNK + 1]);
            assertThrows(IllegalArgumentException.class, () -> f.write(tooBig, 0));
            assertThrows(IllegalArgumentException.class, () -> f.read(tooBig, 0));
            assertEquals(0, f.size(), "nothing was written");
            MemorySegment justRight = MemorySegment.ofArray(new byte[Syscalls.CRITICAL_CHUNK]);
            assertEquals(Syscalls.CRITICAL_CHUNK, f.write(justRight, 0));
            assertEquals(Syscalls.CRITICAL_CHUNK, f.size());
            try (Arena arena = Arena.ofConfined()) {
                // Native segments have no such bound.
                MemorySegment big = arena.allocate(Syscalls.CRITICAL_CHUNK + 4096L);
                assertEquals(Syscalls.CRITICAL_CHUNK + 4096L, f.write(big, 0));
            }
        }
    }

    @Test
    void preadAndPwriteAtPositions() throws IOException {
        Path file = dir.resolve("g");
        Files.write(file, new byte[]{1, 2, 3, 4, 5, 6, 7, 8});
        try (NativeFile f = NativeFile.open(file, Syscalls.O_RDWR)) {
            byte[] three = new byte[3];
            assertEquals(3, f.read(MemorySegment.ofArray(three), 4));
            assertArrayEquals(new byte[]{5, 6, 7}, three);
            assertEquals(1, f.read(MemorySegment.ofArray(three), 7), "a short read at the end");
            assertEquals(0, f.read(MemorySegment.ofArray(three), 8), "0 at the end of the file");
            assertEquals(0, f.read(MemorySegment.ofArray(three), 1000), "0 past the end of the file");
            assertEquals(2, f.write(MemorySegment.ofArray(new byte[]{9, 9}), 10));
            assertEquals(12, f.size());
            f.force(false);
            f.force(true);
            f.advise(Syscalls.POSIX_FADV_DONTNEED);
        }
        assertArrayEquals(new byte[]{1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 9, 9}, Files.readAllBytes(file));
    }

    @Test
    void preadNoWaitReadsCachedDataAndRefusesHeapBuffers() throws IOException {
        Path file = dir.resolve("nowait");
        Files.write(file, new byte[]{1, 2, 3, 4, 5, 6, 7, 8});
        try (NativeFile f = NativeFile.open(file, Syscalls.O_RDONLY); Arena arena = Arena.ofConfined();
             NativeFile.Lease lease = f.lease()) {
            MemorySegment four = arena.allocate(4);
            long n = Syscalls.preadNoWait(lease.fd(), four, 2, f.path());
            // Just written, so cached; a file system that cannot read without waiting says WOULD_BLOCK instead.
            if (n != Syscalls.WOULD_BLOCK) {
                assertEquals(4, n);
                assertArrayEquals(new byte[]{3, 4, 5, 6}, four.toArray(ValueLayout.JAVA_BYTE));
                assertEquals(2, Syscalls.preadNoWait(lease.fd(), four, 6, f.path()), "short at the end");
            }
            assertThrows(IllegalArgumentException.class,
                    () -> Syscalls.preadNoWait(lease.fd(), MemorySegment.ofArray(new byte[4]), 0, f.path()));
            assertThrows(IOException.class, () -> Syscalls.preadNoWait(-1, four, 0, f.path()), "EBADF is an error");
        }
    }
}
