package org.hpio.bulk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A file that shrinks under a bulk read, through another handle or thread, gives an IOException (an
 * EOFException saying how many elements arrived) and never an error of the JVM, on every read strategy: straight
 * into the array (small, native order), staged, and copied out of a mapping (from {@link FileTransfer#MAPPED_MIN}),
 * where pages past the new end fault (SIGBUS) or, in the last page, read as zeros. A file cut before the read
 * leaves pages out of the cache, so the mapped path hands it to the staged one; the fault itself is met when the
 * file is cut during the copy (the race below; deterministically in MappedReadFaultTest).
 */
class TruncatedFileReadTest {
    private static final int BIG = (int) (4 * FileTransfer.MAPPED_MIN);

    @TempDir
    Path dir;

    private Path fileOf(int bytes) throws IOException {
        byte[] contents = new byte[bytes];
        new Random(bytes).nextBytes(contents);
        Path file = dir.resolve("shrinking-" + bytes + ".bin");
        Files.write(file, contents);
        return file;
    }

    private static void truncate(Path file, long size) throws IOException {
        try (FileChannel other = FileChannel.open(file, StandardOpenOption.WRITE)) {
            other.truncate(size);
        }
    }

    /**
     * The handle saw the whole file (so its end-of-file check passes without asking the kernel), then another
     * handle cuts it: at a page boundary (the copy faults), inside a page (the rest of the page reads as zeros)
     * and to nothing. The read says the file ended during it, and how many elements arrived.
     */
    @ParameterizedTest
    @EnumSource(Prim.class)
    void fileShrunkByAnotherHandleEndsTheReadWithEofException(Prim p) throws IOException {
        for (int bytes : new int[]{4096, 2 * (int) FileTransfer.DIRECT_MAX, BIG}) {
            for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
                for (long cut : new long[]{bytes / 2, bytes / 2 + 1000, 0}) {
                    String what = p + " " + order + " " + bytes + " bytes cut to " + cut;
                    Path file = fileOf(bytes);
                    int count = bytes / p.size;
                    try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "r", order)) {
                        assertEquals(bytes, f.length());
                        p.readAt(f, 0, p.newArray(1), 0, 1);            // the handle has seen the whole file
                        truncate(file, cut);
                        Object a = p.newArray(count);
                        EOFException e = assertThrows(EOFException.class, () -> p.readAt(f, 0, a, 0, count), what);
                        assertTrue(e.getMessage().contains("ended during a read"), what + ": " + e.getMessage());
                        assertTrue(e.getMessage().contains(file.toString()), what + ": names the file");
                        assertTrue(e.getMessage().contains((cut / p.size) + " read"), what + ": " + e.getMessage());
                        p.readAt(f, 0, a, 0, (int) (cut / p.size));   // what is left still reads
                    }
                    Files.delete(file);
                }
            }
        }
    }

    /**
     * The same for a bulk stream over a plain FileInputStream (read through its channel: staged, or mapped from
     * {@link FileTransfer#MAPPED_MIN}): the stream ends at the new end of the file, and says how many elements
     * were read.
     */
    @ParameterizedTest
    @EnumSource(Prim.class)
    void fileShrunkUnderAStreamEndsItWithEofException(Prim p) throws IOException {
        for (int bytes : new int[]{4096, BIG}) {
            for (ByteOrder order : new ByteOrder[]{ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
                for (long cut : new long[]{bytes / 2, bytes / 2 + 1000, 0}) {
                    String what = p + " " + order + " " + bytes + " bytes cut to " + cut;
                    Path file = fileOf(bytes);
                    int count = bytes / p.size;
                    try (BulkDataInputStream in = new BulkDataInputStream(new FileInputStream(file.toFile()),
                            order)) {
                        truncate(file, cut);
                        Object a = p.newArray(count);
                        EOFException e = assertThrows(EOFException.class, () -> p.read(in, a, 0, count), what);
                        assertTrue(e.getMessage().contains((cut / p.size) + " of " + count), what + ": " + e.getMessage());
                    }
                    Files.delete(file);
                }
            }
        }
    }

    /**
     * Another thread keeps cutting the file to a random length and growing it back while this one reads it
     * whole, through the file and through a stream, both orders, staged and mapped: every read either succeeds
     * or throws an IOException.
     */
    @Test
    void fileCutWhileBeingReadGivesIOExceptionNeverAnError() throws Exception {
        for (int bytes : new int[]{64 * 1024, BIG}) {
            Path file = fileOf(bytes);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> cutterFailure = new AtomicReference<>();
            Thread cutter = Thread.ofPlatform().start(() -> {
                Random random = new Random(7);
                try (FileChannel other = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    while (!stop.get()) {
                        other.truncate(random.nextInt(bytes));
                        other.write(ByteBuffer.wrap(new byte[]{1}), bytes - 1);
                    }
                } catch (Throwable t) {
                    cutterFailure.set(t);
                }
            });
            int failures = 0;
            int reads = 0;
            try {
                long[] longs = new long[bytes / 8];
                long end = System.nanoTime() + 1_500_000_000L;
                for (ByteOrder order = ByteOrder.BIG_ENDIAN; System.nanoTime() < end; reads++) {
                    order = order == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
                    try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, "r", order)) {
                        f.readArray(0, longs);
                    } catch (IOException expected) {
                        failures++;
                    }
                    try (BulkDataInputStream in = new BulkDataInputStream(new FileInputStream(file.toFile()),
                            order)) {
                        in.readArray(longs);
                    } catch (IOException expected) {
                        failures++;
                    }
                }
            } finally {
                stop.set(true);
                cutter.join();
            }
            assertEquals(null, cutterFailure.get());
            assertTrue(reads > 0 && failures > 0, bytes + " bytes: " + reads + " reads, " + failures + " failed");
        }
    }
}
