package org.hpio.bulk;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A boolean is one byte: written as 1 or 0, and any non-zero byte reads as true (DataInputStream.readBoolean). */
class BooleanBytesPropertyTest {
    private static Path dir;

    @BeforeContainer
    static void makeDirectory() throws IOException {
        dir = Files.createTempDirectory("hpio-bool-props");
    }

    @AfterContainer
    static void removeDirectory() throws IOException {
        TestFiles.deleteTree(dir);
    }

    /** Bytes biased towards 0, 1 and values with only high or low bits set. */
    @Provide
    Arbitrary<byte[]> bytes() {
        return Arbitraries.frequencyOf(
                        Tuple.of(3, Arbitraries.bytes()),
                        Tuple.of(2, Arbitraries.of((byte) 0, (byte) 1, (byte) 2, (byte) 0x80,
                                (byte) 0xff, (byte) 0x10)))
                .array(byte[].class).ofMaxSize(200);
    }

    @Provide
    Arbitrary<ByteOrder> orders() {
        return Gen.orders();
    }

    @Provide
    Arbitrary<Chunking> chunkings() {
        return Gen.chunkings();
    }

    @Property(tries = 100)
    void anyNonZeroByteReadsAsTrue(@ForAll("bytes") byte[] bytes, @ForAll("orders") ByteOrder order,
                                   @ForAll("chunkings") Chunking c) throws IOException {
        int n = bytes.length;
        boolean[] jdk = new boolean[n];
        DataInputStream din = new DataInputStream(new ByteArrayInputStream(bytes));
        for (int i = 0; i < n; i++) {
            jdk[i] = din.readBoolean();
            assertEquals(bytes[i] != 0, jdk[i]);
        }

        boolean[] fromStream = new boolean[n];
        new BulkDataInputStream(c.in(new ByteArrayInputStream(bytes)), order).readArray(fromStream);
        assertArrayEquals(jdk, fromStream, "BulkDataInputStream");

        Path file = Files.createTempFile(dir, "bool", ".bin");
        try {
            Files.write(file, bytes);
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "r", order)) {
                boolean[] atPointer = new boolean[n];
                f.readArray(atPointer);
                assertArrayEquals(jdk, atPointer, "BulkRandomAccessFile at the pointer");
                boolean[] positional = new boolean[n];
                f.readArray(0L, positional);
                assertArrayEquals(jdk, positional, "BulkRandomAccessFile positional");
            }
        } finally {
            Files.delete(file);
        }

        // Written back, every boolean is exactly one byte, 1 or 0, in any order.
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        new BulkDataOutputStream(c.out(sink), order).writeArray(fromStream);
        byte[] written = sink.toByteArray();
        assertEquals(n, written.length);
        for (int i = 0; i < n; i++) {
            assertEquals(bytes[i] != 0 ? 1 : 0, written[i], "byte " + i);
        }
    }
}
