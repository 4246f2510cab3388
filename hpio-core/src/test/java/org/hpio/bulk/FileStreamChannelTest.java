package org.hpio.bulk;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bulk streams over a plain FileInputStream / FileOutputStream, where array transfers take the file
 * channel (FileStreamChannel): the same bytes as the stream path, arrays larger than the 256 KiB staging
 * buffer, single-value calls interleaved (one file position), size(), append mode, the end of the file, and
 * the cases that must keep the stream path (a subclass, a pending interrupt).
 */
class FileStreamChannelTest {
    @TempDir
    Path dir;

    @Provide
    Arbitrary<Prim> prims() {
        return Arbitraries.of(Prim.class);
    }

    @Provide
    Arbitrary<Integer> counts() {
        // around the staging buffer's 256 KiB: 32 Ki longs fill it, 128 Ki bytes half fill it
        return Arbitraries.oneOf(Arbitraries.integers().between(0, 70), Arbitraries.of(32767, 32768, 32769, 65537,
                131071, 262145, 300001));
    }

    @Provide
    Arbitrary<ByteOrder> orders() {
        return Gen.orders();
    }

    /** Header, array, trailer through the file: the reference bytes, and every bit back. */
    @Property(tries = 60)
    void roundTripThroughTheFileKeepsEveryBit(@ForAll("prims") Prim p, @ForAll("counts") int count,
                                              @ForAll("orders") ByteOrder order) throws IOException {
        Path file = Files.createTempFile("hpio-fsc", ".bin"); // jqwik does not inject @TempDir
        try {
            Object values = p.random(new Random(count), count + 3);
            try (BulkDataOutputStream out = new BulkDataOutputStream(new FileOutputStream(file.toFile()), order)) {
                out.writeInt(count);
                p.write(out, values, 3, count);
                out.writeLong(-7L);
                assertEquals(4 + (long) count * p.size + 8, out.size(), "size() counts the array's bytes");
            }
            byte[] bytes = Files.readAllBytes(file);
            byte[] expected = p.rawBytes(values, 3, count, order);
            assertEquals(4 + expected.length + 8, bytes.length);
            assertArrayEquals(expected, Arrays.copyOfRange(bytes, 4, 4 + expected.length));

            try (BulkDataInputStream in = new BulkDataInputStream(new FileInputStream(file.toFile()), order)) {
                assertEquals(count, in.readInt());
                Object back = p.newArray(count + 5);
                p.read(in, back, 5, count);
                Prim.assertBits(values, 3, back, 5, count, "round trip through a file in " + order);
                assertEquals(-7L, in.readLong(), "the file position after the array is the stream's");
                assertEquals(-1, in.read());
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void endOfFileSaysHowManyElementsArrived() throws IOException {
        Path file = dir.resolve("short");
        long[] values = new long[40_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 31L;
        }
        try (BulkDataOutputStream out = new BulkDataOutputStream(new FileOutputStream(file.toFile()))) {
            out.writeArray(values);
            out.writeShort(9); // a partial long at the end
        }
        long[] back = new long[50_000];
        try (BulkDataInputStream in = new BulkDataInputStream(new FileInputStream(file.toFile()))) {
            EOFException e = assertThrows(EOFException.class, () -> in.readArray(back));
            assertTrue(e.getMessage().contains("40000 of 50000 longs"), e.getMessage());
        }
        assertArrayEquals(values, Arrays.copyOf(back, values.length));
    }

    @Test
    void appendModeAppends() throws IOException {
        Path file = dir.resolve("append");
        Files.write(file, new byte[]{1, 2, 3});
        try (BulkDataOutputStream out = new BulkDataOutputStream(new FileOutputStream(file.toFile(), true))) {
            out.writeArray(new int[]{0x01020304, 0x05060708});
        }
        assertArrayEquals(new byte[]{1, 2, 3, 1, 2, 3, 4, 5, 6, 7, 8}, Files.readAllBytes(file));
    }

    @Test
    void aSubclassOfFileInputStreamKeepsItsOwnRead() throws IOException {
        Path file = dir.resolve("sub");
        try (BulkDataOutputStream out = new BulkDataOutputStream(new FileOutputStream(file.toFile()))) {
            out.writeArray(new long[]{5, 6, 7});
        }
        int[] reads = {0};
        try (InputStream counting = new FileInputStream(file.toFile()) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                reads[0]++;
                return super.read(b, off, len);
            }
        }; BulkDataInputStream in = new BulkDataInputStream(counting)) {
            long[] back = new long[3];
            in.readArray(back);
            assertArrayEquals(new long[]{5, 6, 7}, back);
        }
        assertTrue(reads[0] > 0, "the subclass's read was bypassed");
    }

    @Test
    void aPendingInterruptDoesNotCloseTheStream() throws IOException {
        Path file = dir.resolve("interrupt");
        try (BulkDataOutputStream out = new BulkDataOutputStream(new FileOutputStream(file.toFile()))) {
            Thread.currentThread().interrupt();
            try {
                out.writeArray(new long[]{1, 2});
                out.writeArray(new long[]{3});
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt status must stay set");
            }
        }
        try (BulkDataInputStream in = new BulkDataInputStream(new FileInputStream(file.toFile()))) {
            Thread.currentThread().interrupt();
            long[] back = new long[2];
            try {
                in.readArray(back);
                assertEquals(3L, in.readLong(), "the stream is still open");
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt status must stay set");
            }
            assertArrayEquals(new long[]{1, 2}, back);
        }
        assertEquals(24, new DataInputStream(Files.newInputStream(file)).readAllBytes().length);
    }
}
