package org.hpio.bench.data;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Checks what a write left in a file, with the JDK alone (FileChannel and ByteBuffer), so that no benchmark
 * is verified by the code it measures.
 */
public final class FileChecksum {
    private FileChecksum() {
    }

    /** The {@link TestData} checksum of elements first .. first + count - 1 as stored in {@code file}. */
    public static long of(Path file, Elements elements, ByteOrder order, long first, long count) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20).order(order);
        long sum = 0;
        long index = first;
        long end = first + count;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (index < end) {
                int n = (int) Math.min(buffer.capacity() / elements.size(), end - index);
                buffer.clear().limit(n * elements.size());
                long at = index * elements.size();
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer, at + buffer.position()) < 0) {
                        throw new IOException(file + " is short: ends before element " + (index + n));
                    }
                }
                buffer.flip();
                for (int i = 0; i < n; i++, index++) {
                    long v = elements == Elements.LONG ? buffer.getLong() : buffer.getInt();
                    sum += TestData.term(index, v);
                }
            }
        }
        return sum;
    }

    /** Throws unless the file holds exactly the generator's elements first .. first + count - 1. */
    public static void verify(String what, Path file, Elements elements, ByteOrder order, long first, long count,
                              long expected) throws IOException {
        long actual = of(file, elements, order, first, count);
        if (actual != expected) {
            throw new IOException(what + " wrote wrong data to " + file + ": checksum " + Long.toHexString(actual)
                    + ", expected " + Long.toHexString(expected));
        }
    }
}
