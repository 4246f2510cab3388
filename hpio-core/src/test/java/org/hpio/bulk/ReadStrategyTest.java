package org.hpio.bulk;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * Every read strategy of {@link FileTransfer} gives the bytes' elements exactly: straight into the array (native
 * order below {@link FileTransfer#DIRECT_MAX}), staged below {@link FileTransfer#MAPPED_MIN}, copied out of a mapping from there up, in pieces of {@link MappedRead#SWAP_CHUNK}
 * (swapping) or {@link MappedRead#COPY_CHUNK} (native order). For every type and both orders, at sizes one element
 * either side of the threshold and of the pieces, at unaligned file positions and array offsets, compared with
 * a ByteBuffer decoding of the same bytes and, big-endian, with {@code DataInputStream}.
 */
class ReadStrategyTest {
    private static final int FILE_BYTES = 9 * (1 << 20) + 4099;
    private static final long[] POSITIONS = {0, 3, 4093, 4096 + 8};
    private static final int[] ARRAY_OFFSETS = {0, 5};

    @TempDir
    Path dir;

    private static long[] byteSizes(Prim p) {
        long min = FileTransfer.MAPPED_MIN;
        long direct = FileTransfer.DIRECT_MAX;
        return new long[]{p.size, 4096, direct - p.size, direct, direct + p.size, min - p.size, min, min + p.size, min + MappedRead.SWAP_CHUNK + p.size,
                MappedRead.COPY_CHUNK + 3L * p.size, 2L * MappedRead.COPY_CHUNK - p.size,
                min + 3L * MappedRead.SWAP_CHUNK - p.size};
    }

    @ParameterizedTest
    @EnumSource(Prim.class)
    void everyStrategyReadsTheBytesExactly(Prim p) throws IOException {
        byte[] contents = new byte[FILE_BYTES];
        new Random(p.ordinal()).nextBytes(contents);
        Path file = dir.resolve("strategies-" + p + ".bin");
        Files.write(file, contents);
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "r", order)) {
                for (long bytes : byteSizes(p)) {
                    int count = (int) (bytes / p.size);
                    for (long position : POSITIONS) {
                        for (int offset : ARRAY_OFFSETS) {
                            String what = p + " " + order + " count=" + count + " position=" + position
                                    + " offset=" + offset;
                            Object actual = p.newArray(offset + count + 2);
                            p.readAt(f, position, actual, offset, count);
                            Object expected = decode(p, contents, position, count, order);
                            Prim.assertBits(expected, 0, actual, offset, count, what);
                            if (order == ByteOrder.BIG_ENDIAN && bytes == FileTransfer.MAPPED_MIN + p.size) {
                                Prim.assertBits(jdkRead(p, contents, position, count), 0, actual, offset, count,
                                        what + " (DataInputStream)");
                            }
                        }
                    }
                }
            }
        }
    }

    /** The bulk stream over a plain file reads through its channel with the same strategies, from its position. */
    @ParameterizedTest
    @EnumSource(Prim.class)
    void streamsOverAFileReadTheBytesExactly(Prim p) throws IOException {
        byte[] contents = new byte[FILE_BYTES];
        new Random(~p.ordinal()).nextBytes(contents);
        Path file = dir.resolve("stream-strategies-" + p + ".bin");
        Files.write(file, contents);
        for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            for (long bytes : byteSizes(p)) {
                int count = (int) (bytes / p.size);
                long position = 3;
                try (BulkDataInputStream in = new BulkDataInputStream(new FileInputStream(file.toFile()),
                        order)) {
                    in.skipNBytes(position);
                    Object actual = p.newArray(count + 5);
                    p.read(in, actual, 5, count);
                    String what = p + " " + order + " stream count=" + count;
                    Prim.assertBits(decode(p, contents, position, count, order), 0, actual, 5, count, what);
                    byte next = in.readByte();
                    Assertions.assertEquals(contents[(int) (position + bytes)], next,
                            what + ": the stream is positioned right after the array");
                }
            }
        }
    }

    /** A stream over a pipe (a FileInputStream that cannot seek or map) reads large arrays staged, exactly. */
    @Test
    void streamsOverAPipeReadLargeArraysExactly() throws Exception {
        Path fifo = dir.resolve("pipe");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        Assumptions.assumeTrue(mkfifo.waitFor() == 0, "mkfifo is missing");
        byte[] contents = new byte[3 * (int) FileTransfer.MAPPED_MIN];
        new Random(3).nextBytes(contents);
        Thread writer = Thread.ofPlatform().start(() -> {
            try (FileOutputStream out = new FileOutputStream(fifo.toFile())) {
                out.write(contents);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        long[] longs = new long[contents.length / 8];
        try (BulkDataInputStream in = new BulkDataInputStream(new FileInputStream(fifo.toFile()))) {
            in.readArray(longs);
        }
        writer.join();
        Prim.assertBits(decode(Prim.LONG, contents, 0, longs.length, ByteOrder.BIG_ENDIAN), 0, longs, 0, longs.length,
                "long[] through a pipe");
    }

    private static Object decode(Prim p, byte[] contents, long position, int count, ByteOrder order) {
        ByteBuffer bytes = ByteBuffer.wrap(contents, (int) position, count * p.size).order(order);
        Object a = p.newArray(count);
        for (int i = 0; i < count; i++) {
            p.getRaw(bytes, a, i);
        }
        return a;
    }

    private static Object jdkRead(Prim p, byte[] contents, long position, int count) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(contents, (int) position, count * p.size));
        Object a = p.newArray(count);
        for (int i = 0; i < count; i++) {
            p.jdkRead(in, a, i);
        }
        return a;
    }
}
