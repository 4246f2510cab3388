package org.hpio.bench.async;

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Future;

/**
 * The JDK's AsynchronousFileChannel (its default thread pool), as a Java developer would use it for a long[]:
 * a ByteBuffer (heap or direct) per request, read or write, Future.get(), and the copy between the buffer and
 * the array (counted: hpio's figure includes its copy too).
 */
final class AfcCost implements RequestCost {
    private final AsynchronousFileChannel channel;
    private final boolean direct;
    private ByteBuffer buffer;
    private Future<Integer> pending;
    private boolean writing;

    AfcCost(Path path, boolean direct) throws Exception {
        this.channel = AsynchronousFileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        this.direct = direct;
    }

    @Override
    public void start(long position, long[] longs, boolean write) {
        int bytes = longs.length * 8;
        if (buffer == null || buffer.capacity() != bytes) {
            buffer = direct ? ByteBuffer.allocateDirect(bytes) : ByteBuffer.allocate(bytes);
        }
        buffer.clear();
        writing = write;
        if (write) {
            buffer.asLongBuffer().put(longs);
            pending = channel.write(buffer, position);
        } else {
            pending = channel.read(buffer, position);
        }
    }

    @Override
    public void finish(long[] longs) throws Exception {
        int moved = pending.get();
        if (moved != longs.length * 8) {
            throw new IllegalStateException("short " + (writing ? "write" : "read") + ": " + moved + " bytes");
        }
        if (!writing) {
            buffer.clear();
            buffer.asLongBuffer().get(longs);
        }
    }

    @Override
    public void close() throws Exception {
        channel.close();
    }
}
