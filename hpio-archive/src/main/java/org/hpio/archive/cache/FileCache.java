package org.hpio.archive.cache;

import org.hpio.archive.alloc.AlignedAllocator;
import org.hpio.archive.alloc.Lifetime;
import org.hpio.archive.cache.policy.EvictionPolicy;
import org.hpio.archive.cache.policy.Policies;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The whole-file cache of 002 §3.5: maps a file's name to its contents in memory and hands out read-only views
 * of them, shared by every user, never copied.
 *
 * <p>Three parts, as in the paper: the headerless {@link AlignedAllocator} (§3.5.1) owns the memory; the
 * {@link ExtantList} (§3.5.2) knows which buffers users hold; an {@link EvictionPolicy} (§3.5.3, Landlord by
 * default) decides which files stay. A file larger than {@link FileCacheConfig#bypassShare()} of the capacity
 * bypasses the cache: it gets memory of its own, freed when its user releases it. When fragmentation leaves no
 * block for a file although the policy's accounts show room, more files are evicted until one fits; when every
 * remaining byte is held by users, the file is loaded outside the cache.
 *
 * <p>Cost of a file (Landlord's credit): the caller's hint, or else the measured time its load took.
 *
 * <p>Ownership: each {@link #get} hands the caller one hold on a read-only view; the caller must give it back
 * with {@link #release} exactly once and not touch the view afterwards. Memory returns to the allocator only
 * when no user holds it and the policy has evicted it. {@link #close()} frees everything: views still held throw
 * on access afterwards. Thread-safe: one lock guards the bookkeeping; loads run outside it, and concurrent gets of
 * one file wait for a single load.
 */
public final class FileCache implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(FileCache.class.getName());

    /** Fills {@code destination} (exactly the file's size, owned by the cache) with the file's contents. */
    @FunctionalInterface
    public interface Loader {
        void load(String path, MemorySegment destination) throws IOException;
    }

    private record Entry(MemorySegment memory, long size) {
    }

    private final FileCacheConfig config;
    private final AlignedAllocator allocator;
    private final EvictionPolicy policy;
    private final ExtantList extant;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Entry> entries = new HashMap<>();
    private final Map<String, CompletableFuture<Void>> loading = new HashMap<>();
    private long hits;
    private long misses;
    private long bypassed;
    private long evictions;

    public FileCache(FileCacheConfig config) throws IOException {
        this(config, message -> LOG.log(System.Logger.Level.WARNING, message));
    }

    /** As the public constructor, with warnings of the extant list going to {@code warnings} (tests). */
    FileCache(FileCacheConfig config, Consumer<String> warnings) throws IOException {
        this.config = config;
        this.allocator = new AlignedAllocator(config.capacity(), config.alignment());
        this.policy = Policies.require(config.policy()).create();
        this.extant = new ExtantList(config.warnHeldBuffers(), warnings);
    }

    /**
     * The contents of {@code file} (key: its path as given), read with a FileChannel on a miss. A hit costs one
     * {@code stat} (the size tells a file that changed from its cached copy).
     */
    public MemorySegment get(Path file) throws IOException {
        long size = Files.size(file);
        return get(file.toString(), size, Double.NaN, (path, destination) -> readFully(file, destination));
    }

    /** As {@link #get(String, long, double, Loader)} with the measured load time as the cost. */
    public MemorySegment get(String path, long size, Loader loader) throws IOException {
        return get(path, size, Double.NaN, loader);
    }

    /**
     * The contents of the file {@code path} of {@code size} bytes: from the cache, or loaded by {@code loader}
     * (into memory the cache owns). {@code cost}: Landlord's cost of the file, positive; NaN to use the measured
     * load time. The caller holds the returned read-only view until {@link #release}.
     *
     * @throws IOException whatever the loader throws (nothing is cached then)
     */
    public MemorySegment get(String path, long size, double cost, Loader loader) throws IOException {
        if (path == null || size < 0 || !(Double.isNaN(cost) || cost > 0 && Double.isFinite(cost))) {
            throw new IllegalArgumentException("get: bad arguments: path " + path + ", size " + size + ", cost " + cost);
        }
        while (true) {
            CompletableFuture<Void> pending;
            MemorySegment memory = null;
            lock.lock();
            try {
                MemorySegment hit = lookup(path, size);
                if (hit != null) {
                    return hit;
                }
                pending = loading.get(path);
                if (pending == null) {
                    misses++;
                    memory = reserve(size);
                    if (memory != null) {
                        loading.put(path, new CompletableFuture<>());
                    }
                }
            } finally {
                lock.unlock();
            }
            if (pending == null) {
                return memory != null ? loadCached(path, size, cost, memory, loader) : loadUncached(path, size, loader);
            }
            pending.exceptionally(e -> null).join(); // another thread loads it: wait, then look again
        }
    }

    private MemorySegment lookup(String path, long size) {
        Entry e = entries.get(path);
        if (e == null) {
            return null;
        }
        if (e.size != size) { // the file changed size: the cached copy is stale
            policy.remove(path);
            drop(path);
            return null;
        }
        policy.touch(path);
        hits++;
        return extant.hand(path, e.memory, true, allocator::free);
    }

    /** Memory from the region for a file of {@code size}, evicting as needed; null if it is not to be cached. */
    private MemorySegment reserve(long size) {
        if (size == 0 || size > config.largestCachedFile()) {
            bypassed++;
            return null;
        }
        long rounded = rounded(size);
        while (config.capacity() - policy.bytes() < rounded && evictOne()) {
            // Landlord's makeRoomFor (002 Figure 1)
        }
        MemorySegment memory = allocator.tryAllocate(size, Lifetime.NORMAL);
        while (memory == null && evictOne()) { // fragmented: free more until a block fits
            memory = allocator.tryAllocate(size, Lifetime.NORMAL);
        }
        return memory;
    }

    private boolean evictOne() {
        String victim = policy.evict();
        if (victim == null) {
            return false;
        }
        evictions++;
        drop(victim);
        return true;
    }

    private void drop(String path) {
        Entry e = entries.remove(path);
        if (extant.letGo(e.memory)) {
            allocator.free(e.memory);
        }
    }

    private MemorySegment loadCached(String path, long size, double cost, MemorySegment memory, Loader loader)
            throws IOException {
        long start = System.nanoTime();
        try {
            loader.load(path, memory);
        } catch (Throwable t) {
            lock.lock();
            try {
                allocator.free(memory);
                loading.remove(path).complete(null);
            } finally {
                lock.unlock();
            }
            throw t;
        }
        double measured = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
        lock.lock();
        try {
            entries.put(path, new Entry(memory, size));
            policy.add(path, rounded(size), Double.isNaN(cost) ? measured : cost);
            loading.remove(path).complete(null);
            return extant.hand(path, memory, true, allocator::free);
        } finally {
            lock.unlock();
        }
    }

    /** A file the cache does not keep: memory of its own, freed at its release. */
    private MemorySegment loadUncached(String path, long size, Loader loader) throws IOException {
        Arena arena = Arena.ofShared();
        MemorySegment memory = arena.allocate(Math.max(1, size), config.alignment()).asSlice(0, size);
        try {
            loader.load(path, memory);
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            throw e;
        }
        lock.lock();
        try {
            return extant.hand(path, memory, false, m -> arena.close());
        } finally {
            lock.unlock();
        }
    }

    /**
     * The user is done with {@code view}, a segment {@link #get} returned.
     *
     * @throws IllegalArgumentException if it is not held: released twice, or not from this cache (nothing changes)
     */
    public void release(MemorySegment view) {
        lock.lock();
        try {
            extant.release(view);
        } finally {
            lock.unlock();
        }
    }

    /** True if the cache holds {@code path} now (whether or not a user holds a view of it). */
    public boolean contains(String path) {
        lock.lock();
        try {
            return entries.containsKey(path);
        } finally {
            lock.unlock();
        }
    }

    public FileCacheStats stats() {
        lock.lock();
        try {
            return new FileCacheStats(hits, misses, bypassed, evictions, policy.count(), policy.bytes(),
                    extant.buffers(), allocator.stats());
        } finally {
            lock.unlock();
        }
    }

    public FileCacheConfig config() {
        return config;
    }

    /** Frees all memory of the cache's region. Views still held throw on access afterwards. */
    @Override
    public void close() {
        lock.lock();
        try {
            allocator.close();
        } finally {
            lock.unlock();
        }
    }

    private long rounded(long size) {
        int a = allocator.alignment();
        return (size + a - 1) & -(long) a;
    }

    private static void readFully(Path file, MemorySegment destination) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long filled = 0;
            while (filled < destination.byteSize()) {   // a ByteBuffer at most 1 GiB: a file may be larger
                var buffer = destination.asSlice(filled, Math.min(1L << 30, destination.byteSize() - filled))
                        .asByteBuffer();
                while (buffer.hasRemaining()) {
                    if (ch.read(buffer) < 0) {
                        throw new IOException(file + ": file shrank while being read: ended at byte "
                                + (filled + buffer.position()) + " of " + destination.byteSize());
                    }
                }
                filled += buffer.capacity();
            }
        }
    }
}
