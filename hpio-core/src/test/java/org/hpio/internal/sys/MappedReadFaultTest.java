package org.hpio.internal.sys;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;

import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link NativeFile#readMapped}: a file truncated (through another handle) while its mapping is being copied,
 * after the residency check, faults on the pages past the new end; the JVM's asynchronous InternalError is
 * caught inside the call, which returns the new size instead, and nothing escapes later. Deterministic: the
 * copy itself truncates the file before it starts.
 */
class MappedReadFaultTest {
    private static final int BYTES = 4 << 20;
    private static final int PIECE = 256 << 10;

    @TempDir
    Path dir;

    private Path file(byte[] contents) throws IOException {
        Path file = dir.resolve("mapped.bin");
        Files.write(file, contents);
        return file;
    }

    private static void truncate(Path file, long size) {
        try (FileChannel other = FileChannel.open(file, StandardOpenOption.WRITE)) {
            other.truncate(size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aFaultDuringThePlainCopyBecomesTheNewSize() throws IOException {
        checkCut(false, 1 << 20);
        checkCut(false, (1 << 20) + 1000);
    }

    @Test
    void aFaultDuringTheSwappingCopyBecomesTheNewSize() throws IOException {
        checkCut(true, 1 << 20);
        checkCut(true, (1 << 20) + 1000);
    }

    private void checkCut(boolean swap, long cut) throws IOException {
        byte[] contents = new byte[BYTES];
        new Random(cut).nextBytes(contents);
        Path path = file(contents);
        long[] longs = new long[BYTES / 8];
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY)) {
            long sizeAfter = file.readMapped(0, BYTES, mapped -> {
                truncate(path, cut);
                for (long done = 0; done < BYTES; done += PIECE) {   // in pieces, as MappedRead copies
                    MemorySegment.copy(mapped, JAVA_LONG_UNALIGNED.withOrder(swap ? ByteOrder.BIG_ENDIAN
                            : ByteOrder.LITTLE_ENDIAN), done, longs, (int) (done / 8), PIECE / 8);
                }
            });
            assertEquals(cut, sizeAfter, "the size after the fault, not an error");
            assertEquals(cut, file.size(), "later calls work and no fault is pending");
        }
        ByteBuffer expected = ByteBuffer.wrap(contents).order(swap ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < cut / 8; i++) {
            assertEquals(expected.getLong(i * 8), longs[i], "element " + i + " before the new end was copied");
        }
        Files.delete(path);
    }

    @Test
    void aResidentFileIsCopiedAndOneNotInTheCacheIsLeftToAnotherWay() throws IOException {
        byte[] contents = new byte[BYTES];
        new Random(1).nextBytes(contents);
        Path path = file(contents);
        try (NativeFile file = NativeFile.open(path, Syscalls.O_RDONLY)) {
            long[] sum = new long[1];
            assertEquals(BYTES, file.readMapped(4096 + 8, 1 << 20, mapped -> sum[0] = mapped.byteSize()));
            assertEquals(1 << 20, sum[0], "the copy sees exactly the range asked for");
            file.force(false);
            file.advise(Syscalls.POSIX_FADV_DONTNEED);
            long result = file.readMapped(0, BYTES, mapped -> sum[0] = -1);
            assertTrue(result == -1 || sum[0] == -1, "not resident: -1 without copying (unless the drop kept the pages)");
        }
    }
}
