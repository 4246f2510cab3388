package org.hpio.archive;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The bytes of one range of a file, as a sequence of aligned blocks read asynchronously (002 §3.4): the range
 * is covered by whole blocks of the block grid (offsets that are multiples of the block size), at most the
 * queue depth of them in flight while the caller works on the one before (002 §3.2: "a block whose I/O has
 * finished is then decompressed while the next ones are pending"). Blocks at either end that hold bytes of a
 * neighbour are offered to the block cache, and any block the cache holds is taken from it instead of read.
 *
 * <p>{@link #next()} hands out a view of the range's part of the next block; the view is valid until the next
 * call or {@link #close()}, which waits for reads still in flight and gives every block back. Not
 * thread-safe: one reader per stream.
 */
final class BlockStream implements AutoCloseable {
    private record Pending(BlockCache.Block block, AsyncFileRequest request) {
    }

    private final BlockIo io;
    private final long start;
    private final long end;
    private final String what;
    private final long lastBlock;
    private long nextBlock;
    private long delivered;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private BlockCache.Block current;

    /** The bytes {@code [start, end)} of {@code io}'s file; {@code what} names them in errors. */
    BlockStream(BlockIo io, long start, long end, String what) {
        this.io = io;
        this.start = start;
        this.end = end;
        this.what = what;
        this.nextBlock = start / io.blockSize();
        this.lastBlock = end > start ? (end - 1) / io.blockSize() : nextBlock - 1;
    }

    /** Bytes of the range not handed out yet. */
    long remaining() {
        return end - start - delivered;
    }

    /** The next piece of the range (waiting for its block), or null after the last. */
    ByteBuffer next() throws IOException {
        releaseCurrent();
        issue();
        Pending p = pending.pollFirst();
        if (p == null) {
            return null;
        }
        issue();
        await(p);
        current = p.block();
        long blockStart = current.index * io.blockSize();
        int from = (int) Math.max(0, start - blockStart);
        int to = (int) Math.min(io.blockSize(), end - blockStart);
        if (current.length < to) {
            throw new IOException(what + ": block " + current.index + " of " + io.path() + " holds only "
                    + current.length + " bytes; the file ends before the data does");
        }
        delivered += to - from;
        return current.memory.asSlice(from, to - from).asByteBuffer();
    }

    /** Starts reads (or takes cached blocks) until the queue depth is in flight or the range is covered. */
    private void issue() throws IOException {
        while (pending.size() < io.queueDepth() && nextBlock <= lastBlock) {
            long index = nextBlock++;
            BlockCache.Block cached = io.cache().acquire(index);
            if (cached != null) {
                pending.addLast(new Pending(cached, null));
                continue;
            }
            BlockCache.Block block = io.cache().fresh(index);
            try {
                pending.addLast(new Pending(block, io.readBlock(block)));
            } catch (IOException | RuntimeException e) {
                io.cache().release(block);
                throw new IOException(what + ": cannot start reading block " + index + " of " + io.path() + ": "
                        + e.getMessage(), e);
            }
        }
    }

    private void await(Pending p) throws IOException {
        if (p.request() == null) {
            return;
        }
        try {
            p.request().done(AsyncFile.TIME_INF);
        } catch (IOException e) {
            giveBack(p);
            throw new IOException(what + ": reading block " + p.block().index + " (offset "
                    + p.block().index * io.blockSize() + ") of " + io.path() + " failed: " + e.getMessage(), e);
        }
    }

    private void releaseCurrent() {
        if (current == null) {
            return;
        }
        long blockStart = current.index * io.blockSize();
        if (blockStart < start || blockStart + current.length > end) {
            io.cache().offer(current);
        }
        io.cache().release(current);
        current = null;
    }

    /** Waits for the reads in flight (their memory is the kernel's until then) and gives every block back. */
    @Override
    public void close() {
        releaseCurrent();
        for (Pending p; (p = pending.pollFirst()) != null; ) {
            giveBack(p);
        }
    }

    /**
     * Gives {@code p}'s block back once its read, if any, is no longer in flight (waiting however the thread is
     * interrupted: the memory is the kernel's until then); a failed or cancelled read's error is cleared.
     */
    private void giveBack(Pending p) {
        if (p.request() != null) {
            p.request().awaitUninterruptibly();
            p.request().clearException();
        }
        io.cache().release(p.block());
    }
}
