package org.hpio.bench.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.Channel;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A cold JVM's first {@code FileChannel} (or {@code AsynchronousFileChannel}): {@code open}, one read of a small
 * file (or one write of a new one) and {@code close}, the first file I/O of the row's JVM, each step timed; an
 * asynchronous channel's operation is its {@code Future}, waited for. On hpio's provider this is what a program
 * pays once for installing it: the Foreign Function linker's start-up and its calls' linking, and io_uring's
 * set-up when the call needs an engine. {@code pauseMillis} first stands for the rest of a program's start-up
 * (hpio's provider links its native calls on a thread of its own meanwhile): 0, the call at once, is the worst
 * case. The bytes read are checked against the file's pattern; the bytes written are read back after the
 * timing and checked.
 */
final class FirstChannelCall {
    /** What the call does: reads a small file, or creates one and writes it; through which channel. */
    enum Op {
        READ(false, false), WRITE(true, false), ASYNC_READ(false, true), ASYNC_WRITE(true, true);

        final boolean write;
        final boolean async;

        Op(boolean write, boolean async) {
            this.write = write;
            this.async = async;
        }
    }

    private static final OpenOption[] READING = {StandardOpenOption.READ};
    private static final OpenOption[] WRITING = {StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE};

    private FirstChannelCall() {
    }

    static void run(Path dir, Op op, int pauseMillis, Map<String, Object> result) throws Exception {
        Thread.sleep(pauseMillis);
        int size = NioSettings.SMALL_FILE_BYTES;
        Path file = op.write ? dir.resolve("first-write.bin") : SmallFileReads.file(dir, size, 0);
        byte[] expected = SmallFileReads.pattern(size, 0);
        ByteBuffer buffer = op.write ? ByteBuffer.wrap(expected) : ByteBuffer.allocate(op.async ? size : 4096);
        OpenOption[] options = op.write ? WRITING : READING;
        long start = System.nanoTime();
        Channel channel = op.async ? AsynchronousFileChannel.open(file, options) : FileChannel.open(file, options);
        long opened = System.nanoTime();
        int moved = transfer(channel, op, buffer);
        long done = System.nanoTime();
        channel.close();
        long closed = System.nanoTime();
        try {
            byte[] got = op.write ? Files.readAllBytes(file) : Arrays.copyOf(buffer.array(), Math.max(0, moved));
            if (moved != size || !Arrays.equals(got, expected)) {
                throw new IOException("the first " + op + " of " + file + " moved " + moved + " bytes; the file "
                        + (Arrays.equals(got, expected) ? "holds" : "does not hold") + " the " + size + " expected");
            }
        } finally {
            if (op.write) {
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

    /**
     * The one read or write at position 0. An asynchronous channel's read asks for exactly the file's size (a
     * read the page cache holds whole), its Future waited for.
     */
    private static int transfer(Channel channel, Op op, ByteBuffer buffer) throws Exception {
        if (channel instanceof AsynchronousFileChannel async) {
            return (op.write ? async.write(buffer, 0) : async.read(buffer, 0)).get(30, TimeUnit.SECONDS);
        }
        FileChannel sync = (FileChannel) channel;
        return op.write ? sync.write(buffer, 0) : sync.read(buffer, 0);
    }
}
