package org.hpio.archive;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileOptions;
import org.hpio.async.AsyncFileRequest;
import org.hpio.internal.mem.BufferPool;
import org.hpio.internal.mem.MemoryPool;
import org.hpio.internal.sys.DirectAlignment;
import org.hpio.internal.sys.PageCache;

import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;

/**
 * Asynchronous reads of one file for loads (002 §3.1): positional reads into off-heap memory through
 * {@link AsyncFile} (io_uring, or the portable engine), at most a queue depth of them per reader, plus the
 * block pool and block cache of that file, and the counts of {@link LoadStats}.
 *
 * <p>O_DIRECT: the file is opened with {@link AsyncFileOptions#direct()}; the alignment of buffers, offsets
 * and lengths comes from statx through {@link DirectAlignment}. A read that is not aligned (the file's last,
 * partial block) is sent to a second, buffered handle of the same file instead of failing, and so is a read
 * whose every page is in the page cache already ({@link PageCache}, cachestat): only data that is not cached
 * bypasses the cache, so a direct load of a warm archive costs a copy from memory, not a device read. The
 * block size must be a multiple of the offset alignment (checked at open).
 *
 * <p>Load memory ({@link #take}, {@link #allocate}) comes from one {@link MemoryPool} shared by every load in
 * the process, which keeps at most {@value #LOAD_IDLE_BYTES} bytes idle; block buffers from a
 * {@link BufferPool} of this file's block size.
 *
 * <p>Owns its file handles; close it after every reader is done. Thread-safe.
 */
final class BlockIo implements Closeable {
    /** The most load memory kept idle, process-wide. */
    static final long LOAD_IDLE_BYTES = 256L << 20;
    private static final MemoryPool LOAD_MEMORY =
            new MemoryPool(1L << 40, MemoryPool.IdleBound.total(LOAD_IDLE_BYTES));
    private final Path path;
    private final AsyncFile file;
    private final boolean direct;
    private final int memoryAlignment;
    private final int offsetAlignment;
    private final long fileSize;
    private final int blockSize;
    private final int queueDepth;
    private final BufferPool pool;
    private final BlockCache cache;
    /** Direct only: the same file without O_DIRECT, for reads that go through the page cache. */
    private final OpenedOnce<AsyncFile> buffered;
    /**
     * Direct only: which ranges are already cached (those are read through {@link #buffered}); opened by the
     * first aligned read (a direct load of a small loose file never needs it).
     */
    private final OpenedOnce<PageCache> pageCache;
    private final LongAdder cachedReads = new LongAdder();
    private final LongAdder reads = new LongAdder();
    private final LongAdder bytesRead = new LongAdder();
    private final LongAdder seeks = new LongAdder();
    private final LongAdder loads = new LongAdder();
    private final LongAdder userBytes = new LongAdder();
    private long headAt = -1;

    private BlockIo(Path path, AsyncFile file, LoadOptions options, DirectAlignment alignment, long fileSize,
                    boolean withCache) {
        this.path = path;
        this.file = file;
        this.direct = options.direct();
        this.memoryAlignment = direct ? Math.max(64, alignment.memoryAlignment()) : 64;
        this.offsetAlignment = direct ? alignment.offsetAlignment() : 1;
        this.fileSize = fileSize;
        this.blockSize = options.blockSize();
        this.queueDepth = options.queueDepth();
        int cacheBlocks = withCache ? options.blockCacheBlocks() : 0;
        this.pool = new BufferPool(blockSize, Math.max(memoryAlignment, 4096), options.queueDepth() + 2);
        this.cache = new BlockCache(pool, cacheBlocks);
        this.buffered = new OpenedOnce<>(path + " (read through the page cache)",
                () -> new AsyncFile(path, "r", file.options().withDirect(false)));
        this.pageCache = new OpenedOnce<>("the page-cache probe of " + path, () -> PageCache.of(path));
    }

    /** Opens {@code path} for loads with {@code options}; {@code withCache}: keep a block cache (archives). */
    static BlockIo open(Path path, LoadOptions options, boolean withCache) throws IOException {
        return open(path, options, withCache, true);
    }

    /**
     * {@link #open(Path, LoadOptions, boolean)}, saying whether large buffered reads' copies may go to a kernel
     * worker ({@link AsyncFileOptions#offloadCopies()}: false where the reader's own threads fill every core).
     */
    static BlockIo open(Path path, LoadOptions options, boolean withCache, boolean offloadCopies) throws IOException {
        AsyncFileOptions async = AsyncFileOptions.defaults().withDirect(options.direct())
                .withMaxInFlight(Math.max(AsyncFileOptions.DEFAULT_MAX_IN_FLIGHT, options.queueDepth() * 2))
                .withOffloadCopies(offloadCopies);
        AsyncFile file;
        try {
            file = new AsyncFile(path, "r", async);
        } catch (IOException e) {
            throw new IOException("cannot open " + path + (options.direct() ? " with O_DIRECT" : "") + ": "
                    + e.getMessage(), e);
        }
        try {
            DirectAlignment alignment = options.direct() ? DirectAlignment.of(path) : null;
            if (alignment != null && options.blockSize() % alignment.offsetAlignment() != 0) {
                throw new IllegalArgumentException("block size " + options.blockSize() + " is not a multiple of "
                        + path + "'s O_DIRECT alignment " + alignment.offsetAlignment());
            }
            return new BlockIo(path, file, options, alignment, file.length(), withCache);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    Path path() {
        return path;
    }

    long fileSize() {
        return fileSize;
    }

    int blockSize() {
        return blockSize;
    }

    int queueDepth() {
        return queueDepth;
    }

    boolean direct() {
        return direct;
    }

    int offsetAlignment() {
        return offsetAlignment;
    }

    BlockCache cache() {
        return cache;
    }

    /**
     * Off-heap memory of {@code bytes} (at least one) aligned for this file's reads, valid until {@code arena}
     * closes, recycled through the load {@link MemoryPool} ({@link MemoryPool#scoped}): its contents are undefined
     * until the caller writes them.
     */
    MemorySegment allocate(Arena arena, long bytes) {
        if (memoryAlignment > MemoryPool.ALIGNMENT) {
            return arena.allocate(Math.max(1, bytes), memoryAlignment);
        }
        return LOAD_MEMORY.scoped(arena, bytes, memoryAlignment);
    }

    /**
     * Off-heap memory of at least {@code bytes} (at least one) aligned for this file's reads, recycled through the
     * load {@link MemoryPool} and owned by the caller until it passes the result to {@link #give}; its contents
     * are undefined until the caller writes them. Not scoped to an arena: closing a shared arena costs a JVM-wide
     * handshake (about 50 us measured here on a 2-core AMD EPYC, more than reading a 64 KiB file), which a
     * per-load lifetime cannot afford.
     */
    MemorySegment take(long bytes) {
        return memoryAlignment <= MemoryPool.ALIGNMENT ? LOAD_MEMORY.take(bytes)
                : Arena.ofAuto().allocate(Math.max(1, bytes), memoryAlignment);
    }

    /** Gives back memory from {@link #take} (the segment it returned, not a slice; then it must not be touched). */
    static void give(MemorySegment memory) {
        LOAD_MEMORY.give(memory);
    }

    /**
     * Starts reading {@code destination.byteSize()} bytes at {@code position} into {@code destination}, which
     * belongs to the request until it is done. A direct file's reads go through the page cache when they are not
     * aligned, or when every page they cover is cached already (a copy from memory beats reading the device
     * again); only the others bypass it.
     */
    AsyncFileRequest read(long position, MemorySegment destination) throws IOException {
        long length = destination.byteSize();
        countRead(position, length);
        if (!direct) {
            return file.read(position, destination);
        }
        boolean aligned = position % offsetAlignment == 0 && length % offsetAlignment == 0
                && destination.address() % memoryAlignment == 0;
        if (aligned && !pageCache.get().holds(position, length)) {
            return file.read(position, destination);
        }
        if (aligned) {
            cachedReads.increment();
        }
        return buffered.get().read(position, destination);
    }

    /** Direct only: the aligned reads that went through the page cache because their range was cached. */
    long cachedReads() {
        return cachedReads.sum();
    }

    /** Reads block {@code block.index} (its bytes up to the end of the file) into the block's memory. */
    AsyncFileRequest readBlock(BlockCache.Block block) throws IOException {
        long position = block.index * blockSize;
        block.length = (int) Math.min(blockSize, fileSize - position);
        return read(position, block.memory.asSlice(0, block.length));
    }

    /** Counts one read of {@code length} bytes at {@code position} (and a seek when it is not where the last ended). */
    void countRead(long position, long length) {
        countRead(position, position + length, length);
    }

    /**
     * Counts one read of {@code bytes} bytes for the file range {@code [from, to)}: a seek when {@code from} is not
     * where the last counted range ended. A read of an entry's data alone counts as its whole extent, local header
     * included (002 §4.3's model: reading on from the previous entry skips only the header's few bytes).
     */
    synchronized void countRead(long from, long to, long bytes) {
        reads.increment();
        bytesRead.add(bytes);
        if (headAt >= 0 && from != headAt) {
            seeks.increment();
        }
        headAt = to;
    }

    /** Counts one delivered file. */
    void countLoad(long bytes) {
        loads.increment();
        userBytes.add(bytes);
    }

    LoadStats stats() {
        return new LoadStats(loads.sum(), userBytes.sum(), reads.sum(), bytesRead.sum(), seeks.sum(), cache.hits());
    }

    @Override
    public void close() throws IOException {
        try (OpenedOnce<PageCache> probe = pageCache; OpenedOnce<AsyncFile> other = buffered) {
            file.close();
        }
    }
}
