package org.hpio.bulk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Found by review (session 29): a mapped stream read that ends inside an element consumes its bytes as the other
 * paths do; a device is read and written at the file pointer through the one descriptor; an instance dropped
 * unclosed gives hpio's descriptor back.
 */
class NonRegularAndLeftoverTest {
    @TempDir
    Path dir;

    @Test
    void aMappedStreamReadThatEndsInsideAnElementConsumesItsBytes() throws IOException {
        Path file = dir.resolve("odd.bin");
        Files.write(file, new byte[(1 << 20) + 3]);   // just written: in the page cache, so the mapped path reads it
        try (BulkDataInputStream in = new BulkDataInputStream(new FileInputStream(file.toFile()))) {
            assertThrows(EOFException.class, () -> in.readArray(new long[131_073]));
            assertEquals(-1, in.read(), "the partial element's 3 bytes are consumed, as readFully's would be");
            assertEquals(0, in.available());
        }
    }

    @Test
    void aDeviceIsReadAndWrittenAtTheFilePointer() throws IOException {
        try (BulkRandomAccessFile zero = new BulkRandomAccessFile("/dev/zero", "r")) {
            int[] got = {7, 7, 7, 7};
            zero.readArray(got);
            assertArrayEquals(new int[4], got);
            double[] big = new double[100_000];
            big[5] = 1;
            zero.readArray(big);
            assertEquals(0, big[5]);
            IOException positional = assertThrows(IOException.class, () -> zero.readArray(0, new int[1]));
            assertTrue(positional.getMessage().contains("not a regular file"), positional.getMessage());
        }
        try (BulkRandomAccessFile sink = new BulkRandomAccessFile("/dev/null", "rw")) {
            sink.writeArray(new long[] {1, 2, 3});
            sink.writeArray(new short[70_000]);
        }
    }

    @Test
    void anInstanceDroppedUnclosedGivesHpiosDescriptorBack() throws Exception {
        Path file = dir.resolve("dropped.bin");
        Files.write(file, new byte[64]);
        long before = openDescriptors();
        for (int i = 0; i < 200; i++) {
            new BulkRandomAccessFile(file, "r").getFD();   // dropped unclosed
        }
        long deadline = System.nanoTime() + 20_000_000_000L;
        long now = openDescriptors();
        while (now > before + 20 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(50);
            now = openDescriptors();
        }
        assertTrue(now <= before + 20, "descriptors open: " + before + " before, " + now + " after the collections");
    }

    private static long openDescriptors() throws IOException {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }
}
