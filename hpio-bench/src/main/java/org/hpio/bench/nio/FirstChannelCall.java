package org.hpio.bench.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;

/**
 * A cold JVM's first {@code FileChannel}: {@code FileChannel.open}, one read of a small file (or one write of a
 * new one) and {@code close}, the first file I/O of the row's JVM, each step timed. On hpio's provider this is
 * what a program pays once for installing it: the Foreign Function linker's start-up and its calls' linking,
 * and io_uring's set-up when the call needs an engine. {@code pauseMillis} first stands for the rest of a
 * program's start-up (hpio's provider links its native calls on a thread of its own meanwhile): 0, the call at
 * once, is the worst case. The bytes read are checked against the file's pattern; the bytes written are read
 * back after the timing and checked.
 */
final class FirstChannelCall {
    /** What the call does: reads a small file, or creates one and writes it. */
    enum Op { READ, WRITE }

    private FirstChannelCall() {
    }

    static void run(Path dir, Op op, int pauseMillis, Map<String, Object> result) throws Exception {
        Thread.sleep(pauseMillis);
        int size = NioSettings.SMALL_FILE_BYTES;
        Path file = op == Op.READ ? SmallFileReads.file(dir, size, 0) : dir.resolve("first-write.bin");
        byte[] expected = SmallFileReads.pattern(size, 0);
        long start = System.nanoTime();
        FileChannel channel = op == Op.READ ? FileChannel.open(file)
                : FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE);
        long opened = System.nanoTime();
        ByteBuffer buffer = op == Op.READ ? ByteBuffer.allocate(4096) : ByteBuffer.wrap(expected);
        int moved = op == Op.READ ? channel.read(buffer, 0) : channel.write(buffer, 0);
        long done = System.nanoTime();
        channel.close();
        long closed = System.nanoTime();
        try {
            byte[] got = op == Op.READ ? Arrays.copyOf(buffer.array(), Math.max(0, moved)) : Files.readAllBytes(file);
            if (moved != size || !Arrays.equals(got, expected)) {
                throw new IOException("the first " + op + " of " + file + " moved " + moved + " bytes; the file "
                        + (Arrays.equals(got, expected) ? "holds" : "does not hold") + " the " + size + " expected");
            }
        } finally {
            if (op == Op.WRITE) {
                Files.deleteIfExists(file);
            }
        }
        result.put("channel", channel.getClass().getName());
        result.put("first-call-ms", (closed - start) / 1e6);
        result.put("open-ms", (opened - start) / 1e6);
        result.put("io-ms", (done - opened) / 1e6);
        result.put("close-ms", (closed - done) / 1e6);
        result.put("pause-ms", pauseMillis);
        result.put("threads", Thread.getAllStackTraces().size());
    }
}
