package org.hpio.archive;

import org.hpio.internal.mem.BufferPool;

import java.lang.foreign.MemorySegment;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The small block cache of 002 §3.5: keeps the last few blocks that held bytes of more than one entry (the
 * partial blocks at either end of an entry's data), least recently used out first, so that loading a
 * neighbouring entry does not read its shared block again. Keyed by block index in one file.
 *
 * <p>Blocks are pinned while a reader uses them: a block evicted while pinned goes back to the pool when its
 * last reader releases it. Every block comes from, and returns to, one {@link BufferPool}. Thread-safe.
 */
final class BlockCache {
    /** A block buffer and the bytes of the file it holds. Fields are guarded by the cache's lock. */
    static final class Block {
        final long index;
        final MemorySegment memory;
        int length;
        private int pins = 1;
        private boolean cached;

        private Block(long index, MemorySegment memory) {
            this.index = index;
            this.memory = memory;
        }
    }

    private final BufferPool pool;
    private final int capacity;
    private final Map<Long, Block> blocks = new LinkedHashMap<>(16, 0.75f, true);
    private long hits;

    BlockCache(BufferPool pool, int capacity) {
        this.pool = pool;
        this.capacity = capacity;
    }

    /** A new block for block {@code index}, pinned once, from the pool. */
    Block fresh(long index) {
        return new Block(index, pool.acquire());
    }

    /** The cached block {@code index}, pinned for the caller, or null. */
    synchronized Block acquire(long index) {
        Block b = blocks.get(index);
        if (b != null) {
            b.pins++;
            hits++;
        }
        return b;
    }

    /** Keeps {@code block} (which the caller has pinned and filled), evicting the least recently used. */
    synchronized void offer(Block block) {
        if (capacity == 0 || block.cached || blocks.containsKey(block.index)) {
            return;
        }
        block.cached = true;
        blocks.put(block.index, block);
        Iterator<Block> eldest = blocks.values().iterator();
        while (blocks.size() > capacity) {
            Block victim = eldest.next();
            eldest.remove();
            victim.cached = false;
            if (victim.pins == 0) {
                pool.release(victim.memory);
            }
        }
    }

    /** The caller is done with {@code block}: unpinned, and back to the pool unless the cache keeps it. */
    synchronized void release(Block block) {
        if (--block.pins == 0 && !block.cached) {
            pool.release(block.memory);
        }
    }

    synchronized long hits() {
        return hits;
    }
}
