package org.hpio.archive;

import org.hpio.archive.cache.FileCache;

import java.util.Objects;

/**
 * How archives and loose files are loaded (002 §3.1, §3.2, §3.4, §3.5).
 *
 * @param blockSize        bytes per aligned block (a power of two, 4 KiB to 16 MiB; default 32 KiB, the size
 *                         002 §4.2 found fastest): reads start and end on multiples of it
 * @param queueDepth       blocks in flight at once (1 to 1024; default 4, 002 §3.2's "safe queue depth")
 * @param direct           O_DIRECT: reads of data that is not in the page cache bypass it (no insertion cost,
 *                         no copy; the archive's data does not stay cached for the next run); positions,
 *                         lengths and buffers are aligned as the file system asks (statx). A read that cannot
 *                         be aligned (the file's unaligned tail), or whose every page is cached already
 *                         (asked with cachestat, Linux 6.5), goes through the page cache instead
 * @param blockCacheBlocks blocks the small LRU block cache keeps (002 §3.5; 0 turns it off; default 16): the
 *                         partial blocks at either end of an entry, which its neighbour shares; it serves
 *                         the block pipeline (streaming, {@link Inflation#BLOCKS}), since a whole-buffer read
 *                         of an entry starts at its local header and ends with its data, sharing nothing
 * @param fileCache        an optional whole-file cache (002 §3.5, {@link FileCache}); null for none. Loads of
 *                         an archive then come from it and go into it; the archive does not own it
 * @param inflation        how a Deflate entry is decompressed (default {@link Inflation#WHOLE})
 * @param wholeReadBytes   the largest entry (compressed bytes) or loose file read whole by one blocking
 *                         {@code pread} on the caller's thread into a Java array, with no thread hand-off
 *                         (default {@value #DEFAULT_WHOLE_READ_BYTES}; 0: every load takes the asynchronous
 *                         block pipeline). See {@link Archive#load(String)} for why and where the default comes
 *                         from. Not used with {@code direct}
 */
public record LoadOptions(int blockSize, int queueDepth, boolean direct, int blockCacheBlocks, FileCache fileCache,
                          Inflation inflation, int wholeReadBytes) {
    /** How {@link Archive#load} decompresses a Deflate entry. */
    public enum Inflation {
        /**
         * 002 §3.2: the compressed data is read in aligned blocks at the queue depth and each block is inflated by
         * {@code java.util.zip.Inflater} as soon as it arrives, while the next ones are read.
         */
        BLOCKS,
        /**
         * The compressed data is read whole (aligned blocks at the queue depth, straight into one buffer) and then
         * inflated in one call by libdeflate (Debian package libdeflate0) when the system has it, else by
         * {@code java.util.zip.Inflater}. Entries whose compressed data exceeds {@link #MAX_WHOLE_BYTES} use
         * {@link #BLOCKS}.
         */
        WHOLE,
        /** {@link #WHOLE}, always with {@code java.util.zip.Inflater} (for comparison). */
        WHOLE_JDK;

        /** Largest compressed entry read whole: larger ones are inflated block by block. */
        public static final long MAX_WHOLE_BYTES = 256L << 20;
    }

    public static final int DEFAULT_BLOCK_SIZE = 32 << 10;
    public static final int DEFAULT_QUEUE_DEPTH = 4;
    public static final int DEFAULT_BLOCK_CACHE_BLOCKS = 16;
    public static final int MIN_BLOCK_SIZE = 4 << 10;
    public static final int MAX_BLOCK_SIZE = 16 << 20;
    public static final int MAX_QUEUE_DEPTH = 1024;
    public static final int DEFAULT_WHOLE_READ_BYTES = 256 << 10;
    /** The largest {@link #wholeReadBytes}: one critical pread into a Java array (it holds off safepoints). */
    public static final int MAX_WHOLE_READ_BYTES = 1 << 20;

    /** Checks every field; see the record's description for the ranges. */
    public LoadOptions {
        if (blockSize < MIN_BLOCK_SIZE || blockSize > MAX_BLOCK_SIZE || Integer.bitCount(blockSize) != 1) {
            throw new IllegalArgumentException("block size must be a power of two from 4 KiB to 16 MiB, was "
                    + blockSize);
        }
        if (queueDepth < 1 || queueDepth > MAX_QUEUE_DEPTH) {
            throw new IllegalArgumentException("queue depth must be 1.." + MAX_QUEUE_DEPTH + ", was " + queueDepth);
        }
        Objects.requireNonNull(inflation, "inflation");
        if (wholeReadBytes < 0 || wholeReadBytes > MAX_WHOLE_READ_BYTES) {
            throw new IllegalArgumentException("whole-read bytes must be 0.." + MAX_WHOLE_READ_BYTES + ", was "
                    + wholeReadBytes);
        }
        if (blockCacheBlocks < 0) {
            throw new IllegalArgumentException("block cache size must be >= 0 blocks, was " + blockCacheBlocks);
        }
    }

    /** The options with {@link Inflation#WHOLE}. */
    public LoadOptions(int blockSize, int queueDepth, boolean direct, int blockCacheBlocks, FileCache fileCache) {
        this(blockSize, queueDepth, direct, blockCacheBlocks, fileCache, Inflation.WHOLE, DEFAULT_WHOLE_READ_BYTES);
    }

    /**
     * 32 KiB blocks, queue depth 4, through the page cache, a 16-block cache, no file cache, whole-buffer
     * inflation.
     */
    public static LoadOptions defaults() {
        return new LoadOptions(DEFAULT_BLOCK_SIZE, DEFAULT_QUEUE_DEPTH, false, DEFAULT_BLOCK_CACHE_BLOCKS, null);
    }

    public LoadOptions withInflation(Inflation how) {
        return new LoadOptions(blockSize, queueDepth, direct, blockCacheBlocks, fileCache, how, wholeReadBytes);
    }

    public LoadOptions withBlockSize(int bytes) {
        return new LoadOptions(bytes, queueDepth, direct, blockCacheBlocks, fileCache, inflation, wholeReadBytes);
    }

    public LoadOptions withQueueDepth(int blocks) {
        return new LoadOptions(blockSize, blocks, direct, blockCacheBlocks, fileCache, inflation, wholeReadBytes);
    }

    public LoadOptions withDirect(boolean on) {
        return new LoadOptions(blockSize, queueDepth, on, blockCacheBlocks, fileCache, inflation, wholeReadBytes);
    }

    public LoadOptions withBlockCacheBlocks(int blocks) {
        return new LoadOptions(blockSize, queueDepth, direct, blocks, fileCache, inflation, wholeReadBytes);
    }

    /** The options with {@link #wholeReadBytes} {@code bytes} (0: always the asynchronous block pipeline). */
    public LoadOptions withWholeReadBytes(int bytes) {
        return new LoadOptions(blockSize, queueDepth, direct, blockCacheBlocks, fileCache, inflation, bytes);
    }

    public LoadOptions withFileCache(FileCache cache) {
        return new LoadOptions(blockSize, queueDepth, direct, blockCacheBlocks, cache, inflation, wholeReadBytes);
    }
}
