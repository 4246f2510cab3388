package org.hpio.bench.bulk;

import org.hpio.bench.data.DataFiles;
import org.hpio.bench.data.Elements;
import org.hpio.bench.measure.Repeats;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;
import org.hpio.bulk.BulkRandomAccessFile;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.hpio.bench.report.Numbers.format;

/**
 * The bulk suite's small reads, where the fixed cost of a call dominates: 4 KiB of longs at successive
 * positions of the (warm) data file, and a whole 1 KiB file, through one open handle; microseconds per call,
 * median of interleaved rounds. hpio's bulk file in both orders against the NIO loop's calls.
 */
final class SmallReads {
    private static final int CALLS = 20_000;
    private static final int SMALL_BYTES = 4096;
    private static final int TINY_FILE_BYTES = 1024;

    /** One way to read {@code longs.length} longs at a position, through a handle opened once. */
    private interface Reader extends Closeable {
        void read(long position, long[] longs) throws IOException;
    }

    private record Config(String name, ReaderFactory factory) {
    }

    @FunctionalInterface
    private interface ReaderFactory {
        Reader open(Path file) throws IOException;
    }

    private SmallReads() {
    }

    /** Measures and returns the table (results go to {@code report} at once). */
    static Table measure(SuiteReport report, Path bigEndian, Path nativeOrder, Path dir, long fileBytes, int rounds)
            throws IOException {
        Path tinyBe = dir.resolve("tiny-be.bin");
        Path tinyNative = dir.resolve("tiny-native.bin");
        DataFiles.create(tinyBe, Elements.LONG, TINY_FILE_BYTES / 8, ByteOrder.BIG_ENDIAN);
        DataFiles.create(tinyNative, Elements.LONG, TINY_FILE_BYTES / 8, ByteOrder.nativeOrder());
        try {
            List<Config> configs = List.of(
                    new Config("bulkraf", file -> bulk(file, ByteOrder.BIG_ENDIAN)),
                    new Config("bulk-native", file -> bulk(file, ByteOrder.nativeOrder())),
                    new Config("nio", SmallReads::nio));
            Table table = new Table("Small reads, microseconds per call (one open handle, warm)",
                    List.of("configuration", "4 KiB of a large file", "a whole 1 KiB file"));
            long span = Math.max(SMALL_BYTES, Math.min(fileBytes, 64L << 20) / SMALL_BYTES * SMALL_BYTES);
            double[][] micros = new double[configs.size()][2];
            for (int w = 0; w < configs.size(); w++) {
                boolean nativeFile = configs.get(w).name().equals("bulk-native");
                micros[w][0] = perCall(configs.get(w), nativeFile ? nativeOrder : bigEndian, SMALL_BYTES, span, rounds);
                micros[w][1] = perCall(configs.get(w), nativeFile ? tinyNative : tinyBe, TINY_FILE_BYTES,
                        TINY_FILE_BYTES, rounds);
            }
            for (int w = 0; w < configs.size(); w++) {
                String name = configs.get(w).name();
                table.row(name, format("%.2f", micros[w][0]), format("%.2f", micros[w][1]));
                report.result(name + "-4k", "read-call", micros[w][0], "us");
                report.result(name + "-1k-file", "read-call", micros[w][1], "us");
            }
            table.note("Each call reads into the same long[]; positions advance by 4 KiB through the first "
                    + "64 MiB of the data file. Median of " + rounds + " rounds of " + CALLS + " calls.");
            return table;
        } finally {
            Files.deleteIfExists(tinyBe);
            Files.deleteIfExists(tinyNative);
        }
    }

    /** Median microseconds per call over {@code rounds} rounds (after one untimed round). */
    private static double perCall(Config config, Path file, int bytes, long span, int rounds) throws IOException {
        long[] longs = new long[bytes / 8];
        try (Reader reader = config.factory().open(file)) {
            return Repeats.median(1, rounds, warmUp -> {
                long position = 0;
                long start = System.nanoTime();
                for (int i = 0; i < CALLS; i++) {
                    reader.read(position, longs);
                    position = (position + bytes) % span;
                }
                return (System.nanoTime() - start) / 1e9;
            }) * 1e6 / CALLS;
        }
    }

    private static Reader bulk(Path file, ByteOrder order) throws IOException {
        BulkRandomAccessFile raf = new BulkRandomAccessFile(file, "r", order);
        return new Reader() {
            public void read(long position, long[] longs) throws IOException {
                raf.readArray(position, longs);
            }

            public void close() throws IOException {
                raf.close();
            }
        };
    }

    /** The NIO loop's calls: a positional read into a direct buffer, then its long view's bulk get. */
    private static Reader nio(Path file) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        ByteBuffer buffer = ByteBuffer.allocateDirect(SMALL_BYTES);
        return new Reader() {
            public void read(long position, long[] longs) throws IOException {
                buffer.clear().limit(longs.length * 8);
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer, position + buffer.position()) < 0) {
                        throw new EOFException();
                    }
                }
                buffer.flip();
                buffer.asLongBuffer().get(longs);
            }

            public void close() throws IOException {
                channel.close();
            }
        };
    }
}
