package org.hpio.bench.sort;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The device's sequential read and write rates, for the whole sort's lower bound: the input read once and a
 * file of the same size written once, in {@value #BLOCK_MIB} MiB blocks with the JDK's FileChannel (not hpio, so
 * the bound does not depend on what it bounds), with O_DIRECT when the whole sort used it, so that the device
 * is in the loop. The write goes to a fresh file, as the sort's do.
 *
 * @param readBytesPerSecond  sequential read rate
 * @param writeBytesPerSecond sequential write rate
 */
record DeviceRates(double readBytesPerSecond, double writeBytesPerSecond) {
    static final int BLOCK_MIB = 8;

    static DeviceRates measure(Path input, Path scratch, boolean direct) throws IOException {
        long size = Files.size(input);
        ByteBuffer buffer = ByteBuffer.allocateDirect((BLOCK_MIB << 20) + ExternalSort.ALIGN)
                .alignedSlice(ExternalSort.ALIGN);
        double read = rate(size, () -> transfer(input, buffer, size, false, direct));
        Files.deleteIfExists(scratch);
        try {
            double write = rate(size, () -> transfer(scratch, buffer, size, true, direct));
            return new DeviceRates(read, write);
        } finally {
            Files.deleteIfExists(scratch);
        }
    }

    private interface Transfer {
        void run() throws IOException;
    }

    private static double rate(long bytes, Transfer transfer) throws IOException {
        long start = System.nanoTime();
        transfer.run();
        return bytes / ((System.nanoTime() - start) / 1e9);
    }

    private static void transfer(Path file, ByteBuffer buffer, long size, boolean write, boolean direct)
            throws IOException {
        List<OpenOption> options = new ArrayList<>(write
                ? List.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE) : List.of(StandardOpenOption.READ));
        if (direct) {
            options.add(ExtendedOpenOption.DIRECT);
        }
        try (FileChannel channel = FileChannel.open(file, options.toArray(OpenOption[]::new))) {
            for (long position = 0; position < size; ) {
                int n = (int) Math.min(buffer.capacity(), size - position);
                buffer.clear().limit(n);
                while (buffer.hasRemaining()) {
                    int moved = write ? channel.write(buffer, position + buffer.position())
                            : channel.read(buffer, position + buffer.position());
                    if (moved < 0) {
                        throw new IOException(file + " ended at byte " + (position + buffer.position()));
                    }
                }
                position += n;
            }
        }
    }
}
