package org.hpio.bench.engine;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's {@link AsynchronousFileChannel} at a queue depth, on its default thread pool ({@code afc-default})
 * or on a fixed pool of {@code depth} threads ({@code afc-pool}); O_DIRECT through
 * {@link ExtendedOpenOption#DIRECT} with buffers from {@code allocateDirect(size + 4096).alignedSlice(4096)}.
 *
 * <p>Close: the channel's close waits for the operations running; the own pool is shut down and awaited.
 * The buffers are the GC's, held by the channel's tasks until they finish.
 */
final class AfcDriver extends InFlightDriver {
    private final AsynchronousFileChannel channel;
    private final ExecutorService pool;
    private final ByteBuffer[] buffers;
    private final MemorySegment[] segments;
    /** The byte count or failure of each slot's last I/O; written before {@link #completed}, which publishes it. */
    private final long[] results;
    private final Throwable[] failures;
    private final CompletionHandler<Integer, Integer> handler = new CompletionHandler<>() {
        @Override
        public void completed(Integer bytes, Integer slot) {
            results[slot] = bytes;
            failures[slot] = null;
            AfcDriver.this.completed(slot);
        }

        @Override
        public void failed(Throwable e, Integer slot) {
            failures[slot] = e;
            AfcDriver.this.completed(slot);
        }
    };

    private AfcDriver(Workload workload, int depth, AsynchronousFileChannel channel, ExecutorService pool) {
        super(workload, depth);
        this.channel = channel;
        this.pool = pool;
        this.buffers = new ByteBuffer[depth];
        this.segments = new MemorySegment[depth];
        this.results = new long[depth];
        this.failures = new Throwable[depth];
        for (int slot = 0; slot < depth; slot++) {
            buffers[slot] = ByteBuffer.allocateDirect(workload.blockSize() + BlockPattern.BLOCK).alignedSlice(BlockPattern.BLOCK)
                    .limit(workload.blockSize()).slice();
            segments[slot] = MemorySegment.ofBuffer(buffers[slot]);
        }
    }

    /** On the JDK's default pool ({@code ownPool} false) or on a fixed pool of {@code depth} threads. */
    static AfcDriver open(Path path, Workload workload, int depth, boolean ownPool) throws IOException {
        Set<OpenOption> options = new HashSet<>();
        options.add(workload.writes() ? StandardOpenOption.WRITE : StandardOpenOption.READ);
        if (workload.direct()) {
            options.add(ExtendedOpenOption.DIRECT);
        }
        ExecutorService pool = ownPool ? Executors.newFixedThreadPool(depth) : null;
        try {
            return new AfcDriver(workload, depth, AsynchronousFileChannel.open(path, options, pool), pool);
        } catch (IOException | RuntimeException e) {
            if (pool != null) {
                pool.shutdownNow();
            }
            throw e;
        }
    }

    @Override
    protected MemorySegment buffer(int slot) {
        return segments[slot];
    }

    @Override
    protected void submit(int[] slots, int count) {
        for (int i = 0; i < count; i++) {
            int slot = slots[i];
            ByteBuffer buffer = buffers[slot].clear();
            if (workload.writes()) {
                channel.write(buffer, position(slot), slot, handler);
            } else {
                channel.read(buffer, position(slot), slot, handler);
            }
        }
    }

    @Override
    protected long result(int slot) throws IOException {
        Throwable failure = failures[slot];
        if (failure != null) {
            throw failure instanceof IOException io ? io : new IOException(failure);
        }
        return results[slot];
    }

    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            if (pool != null) {
                pool.shutdown();
                try {
                    pool.awaitTermination(1, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
