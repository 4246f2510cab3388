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
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

/**
 * A cold JVM's first {@code FileChannel} (or {@code AsynchronousFileChannel}): {@code open}, one read of a small
 * file (or one write of a new one) and {@code close}, the first file I/O of the row's JVM, each step timed; an
 * asynchronous channel's operation is its {@code Future}, waited for. On hpio's provider this is what a program
 * pays once for installing it: the Foreign Function linker's start-up and its calls' linking, and io_uring's
 * set-up when the call needs an engine. {@code pauseMillis} first stands for the rest of a program's start-up
 * (hpio's provider links its native calls on a thread of its own meanwhile): 0, the call at once, is the worst
 * case. {@code FileChannel}'s call is timed on a platform thread, and on a virtual thread (whose read through
 * hpio's channel parks rather than holds its carrier; on the JDK's, and on hpio's before its native calls are
 * ready, it holds the carrier for the system call). The bytes read are checked against the file's pattern; the
 * bytes written are read back after the timing and checked.
 */
final class FirstChannelCall {
    /** What the call does: reads a small file, or creates one and writes it; through which channel, on which thread. */
    enum Op {
        READ(false, false, false), WRITE(true, false, false), ASYNC_READ(false, true, false),
        ASYNC_WRITE(true, true, false), READ_ON_VIRTUAL_THREAD(false, false, true),
        WRITE_ON_VIRTUAL_THREAD(true, false, true);

        final boolean write;
        final boolean async;
        /** Made on a virtual thread (started before the timing: its own start-up is not the channel's). */
        final boolean virtual;

        Op(boolean write, boolean async, boolean virtual) {
            this.write = write;
            this.async = async;
            this.virtual = virtual;
        }
    }

    /** One timed call: the channel's class, the bytes moved, and the times (nanoTime) at each step's end. */
    private record Timed(String channel, int moved, long start, long opened, long done, long closed) {
    }

    private static final OpenOption[] READING = {StandardOpenOption.READ};
    private static final OpenOption[] WRITING = {StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE};

    private FirstChannelCall() {
    }

    /**
     * The call, after {@code pauseMillis}; {@code firstPathNanos}: how long the JVM's first {@code Path.of} took
     * (the JDK making the default file system, and constructing hpio's provider where the property names it),
     * reported beside the call.
     */
    static void run(Path dir, Op op, int pauseMillis, long firstPathNanos, Map<String, Object> result)
            throws Exception {
        Thread.sleep(pauseMillis);
        int size = NioSettings.SMALL_FILE_BYTES;
        Path file = op.write ? dir.resolve("first-write.bin") : SmallFileReads.file(dir, size, 0);
        byte[] expected = SmallFileReads.pattern(size, 0);
        ByteBuffer buffer = op.write ? ByteBuffer.wrap(expected) : ByteBuffer.allocate(op.async ? size : 4096);
        Timed t = op.virtual ? onVirtualThread(() -> timedCall(file, op, buffer)) : timedCall(file, op, buffer);
        int moved = t.moved();
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
        result.put("channel", t.channel());
        result.put("first-path-ms", firstPathNanos / 1e6);
        result.put("first-call-ms", (t.closed() - t.start()) / 1e6);
        result.put("open-ms", (t.opened() - t.start()) / 1e6);
        result.put("io-ms", (t.done() - t.opened()) / 1e6);
        result.put("close-ms", (t.closed() - t.done()) / 1e6);
        result.put("pause-ms", pauseMillis);
        result.put("threads", Thread.getAllStackTraces().size());
    }

    /** Opens the channel, makes the one read or write and closes it, each step timed. */
    private static Timed timedCall(Path file, Op op, ByteBuffer buffer) throws Exception {
        OpenOption[] options = op.write ? WRITING : READING;
        long start = System.nanoTime();
        Channel channel = op.async ? AsynchronousFileChannel.open(file, options) : FileChannel.open(file, options);
        long opened = System.nanoTime();
        int moved = transfer(channel, op, buffer);
        long done = System.nanoTime();
        channel.close();
        long closed = System.nanoTime();
        return new Timed(channel.getClass().getName(), moved, start, opened, done, closed);
    }

    /** {@code call} on a virtual thread, its result or its exception. */
    private static Timed onVirtualThread(Callable<Timed> call) throws Exception {
        FutureTask<Timed> task = new FutureTask<>(call);
        Thread.ofVirtual().name("first-call").start(task);
        try {
            return task.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
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
