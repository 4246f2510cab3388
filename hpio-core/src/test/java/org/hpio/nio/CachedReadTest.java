package org.hpio.nio;

import org.hpio.internal.io.IoEngines;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.PageCache;
import org.hpio.internal.sys.Syscalls;
import org.hpio.testing.NativeCalls;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static java.nio.file.StandardOpenOption.READ;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link CachedRead}: what it serves at once, what it leaves to the engine, and the buffer positions. */
class CachedReadTest {
    @TempDir
    Path dir;

    @Test
    void aCachedReadIsServedIntoHeapAndDirectBuffersAndTheEndOfTheFileToo() throws Exception {
        NativeCalls.assumeOn("preadv2");
        byte[] data = FileChannelContract.bytes(0, 3000);
        Path path = Files.write(dir.resolve("f"), data);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY)) {
            for (ByteBuffer dst : new ByteBuffer[] {ByteBuffer.allocate(2000), ByteBuffer.allocateDirect(2000)}) {
                dst.position(100);   // read into [100, 2000)
                assertEquals(1900, CachedRead.read(file, dst, 7), "all of it cached");
                assertEquals(2000, dst.position());
                byte[] got = new byte[1900];
                dst.position(100);
                dst.get(got);
                assertArrayEquals(Arrays.copyOfRange(data, 7, 1907), got);

                dst.clear();
                assertEquals(1000, CachedRead.read(file, dst, 2000), "short, but up to the end of the file");
                assertEquals(1000, dst.position());
                dst.clear();
                assertEquals(0, CachedRead.read(file, dst, 3000), "at the end");
                assertEquals(0, dst.position());
            }
            ByteBuffer big = ByteBuffer.allocate(CachedRead.MAX_BYTES + 1);
            assertEquals(CachedRead.NOT_SERVED, CachedRead.read(file, big, 0), "larger reads go to the engine");
            assertEquals(0, big.position());
        }
    }

    @Test
    void aReadOfDataNotCachedIsLeftToTheEngineWithTheBufferUntouched() throws Exception {
        NativeCalls.assumeOn("preadv2");
        byte[] data = FileChannelContract.bytes(0, 8192);
        Path path = Files.write(dir.resolve("uncached"), data);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY)) {
            file.force(false);
            file.advise(Syscalls.POSIX_FADV_DONTNEED);
            try (PageCache cache = PageCache.of(path)) {
                Assumptions.assumeFalse(cache.holds(4096, 4096), "the page stayed in the cache");
            }
            ByteBuffer dst = ByteBuffer.allocate(4096);
            long got = CachedRead.read(file, dst, 4096);
            if (got != CachedRead.NOT_SERVED) {   // read back into the cache meanwhile (readahead): served, right
                assertEquals(4096, got);
                assertArrayEquals(Arrays.copyOfRange(data, 4096, 8192), dst.array());
                return;
            }
            assertEquals(0, dst.position(), "nothing read, nothing moved");
        }
        try (FileChannel ch = Opener.hpio(IoEngines::shared).open(path, READ)) {
            ByteBuffer dst = ByteBuffer.allocate(4096);
            assertEquals(4096, ch.read(dst, 4096), "the channel then reads it through the engine");
            assertArrayEquals(Arrays.copyOfRange(data, 4096, 8192), dst.array());
        }
    }
}
