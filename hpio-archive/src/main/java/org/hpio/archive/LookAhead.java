package org.hpio.archive;

/**
 * How far an {@link ArchiveLoader} works ahead of its caller.
 *
 * @param files     files read or decoded ahead of the one the caller asks for next, at most (1 to 4096;
 *                  default 1024: a trace's files are small, and fewer kept the device idle between refills)
 * @param bytes     memory those files may hold, at most: the bytes read for them plus, for compressed entries, their
 *                  uncompressed size (at least 64 KiB; default 128 MiB: with 64, the python trace's first file
 *                  (libpython, 9 MB read for 23 MB decoded, kept for its two repeats) took half the budget, and a
 *                  Zstandard worker, done with the rest of the window long before the caller was done with that
 *                  file, sat idle: 128 gave its cold replay 6-10% and its warm one 13% more, Deflate and stored the
 *                  same, Intel Xeon; on AMD EPYC, 3 alternated pairs, its cold replay 1% more and its ratio to
 *                  Deflate's 1.62 against 1.53 in the median pair). A single file larger than this is still
 *                  loaded, alone, once it is the next one
 * @param readBytes neighbouring entries (adjacent in the archive, as a trace-ordered archive lays out files
 *                  loaded one after the other: 002 §3.3) are read together in one read of up to this many bytes;
 *                  a larger entry is read in pieces of this size (a power of two, at least the archive's block
 *                  size; default 1 MiB)
 * @param workers   threads that decode (inflate, check CRC-32) files ahead while the caller works on the
 *                  current one (0 to 64; 0: the caller's thread decodes each file when it asks for it; default:
 *                  one less than the processors, at most 3)
 * @param reuse     whether a file the list loads again is served from the memory of its earlier load instead of
 *                  being read (and inflated) again: the loader keeps it, within {@code bytes} (counting the whole
 *                  read it came with), while memory allows, dropping first the file whose next load is furthest
 *                  away (default: true). A kept file whose repeat is already in the window stays kept even when
 *                  the window then needs the memory, like a single file larger than {@code bytes}
 */
public record LookAhead(int files, long bytes, int readBytes, int workers, boolean reuse) {
    public static final int DEFAULT_FILES = 1024;
    public static final long DEFAULT_BYTES = 128L << 20;
    public static final int DEFAULT_READ_BYTES = 1 << 20;

    /** Checks every field; see the record's description for the ranges. */
    public LookAhead {
        if (files < 1 || files > 4096) {
            throw new IllegalArgumentException("look-ahead must be 1..4096 files, was " + files);
        }
        if (bytes < 64 << 10) {
            throw new IllegalArgumentException("look-ahead memory must be at least 64 KiB, was " + bytes);
        }
        if (readBytes < LoadOptions.MIN_BLOCK_SIZE || Integer.bitCount(readBytes) != 1) {
            throw new IllegalArgumentException("read size must be a power of two of at least 4 KiB, was "
                    + readBytes);
        }
        if (workers < 0 || workers > 64) {
            throw new IllegalArgumentException("workers must be 0..64, was " + workers);
        }
    }

    /** The given bounds, with repeats reused. */
    public LookAhead(int files, long bytes, int readBytes, int workers) {
        this(files, bytes, readBytes, workers, true);
    }

    /** 1024 files, 128 MiB, reads of up to 1 MiB, one worker per spare processor (at most 3), repeats reused. */
    public static LookAhead defaults() {
        int spare = Math.max(0, Math.min(3, Runtime.getRuntime().availableProcessors() - 1));
        return new LookAhead(DEFAULT_FILES, DEFAULT_BYTES, DEFAULT_READ_BYTES, spare, true);
    }

    public LookAhead withFiles(int n) {
        return new LookAhead(n, bytes, readBytes, workers, reuse);
    }

    public LookAhead withBytes(long n) {
        return new LookAhead(files, n, readBytes, workers, reuse);
    }

    public LookAhead withReadBytes(int n) {
        return new LookAhead(files, bytes, n, workers, reuse);
    }

    public LookAhead withWorkers(int n) {
        return new LookAhead(files, bytes, readBytes, n, reuse);
    }

    public LookAhead withReuse(boolean on) {
        return new LookAhead(files, bytes, readBytes, workers, on);
    }
}
