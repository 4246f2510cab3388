package org.hpio.bench.data;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Makes the benchmarks' data files with the JDK alone: the generator's elements in a given byte order. */
public final class DataFiles {
    private DataFiles() {
    }

    /** Writes elements 0 .. count - 1 to {@code file} (replacing it) in {@code order}, forced to disk. */
    public static void create(Path file, Elements elements, long count, ByteOrder order) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20).order(order);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long index = 0;
            while (index < count) {
                buffer.clear();
                while (buffer.remaining() >= elements.size() && index < count) {
                    long v = TestData.value(index++);
                    if (elements == Elements.LONG) {
                        buffer.putLong(v);
                    } else {
                        buffer.putInt((int) v);
                    }
                }
                buffer.flip();
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
            channel.force(true);
        }
    }

    /**
     * Replaces {@code file} with a sparse one of {@code bytes}, forced, so every write run allocates its blocks
     * afresh and no writer has to extend the file. (Extending it from several threads at once races: the JDK's
     * FileChannel.map grows a file with ftruncate, and a smaller block's map can shrink it under a larger one.)
     */
    public static void recreateSparse(Path file, long bytes) throws IOException {
        Files.deleteIfExists(file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(bytes);
            raf.getFD().sync();
        }
    }

    /** Forces a written file to disk (outside the timed part of a write run). */
    public static void force(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }
}
