package org.hpio.bench.sort;

import java.io.IOException;

/**
 * One ascending stream of longs feeding a merge, seen a block at a time: the unread part of the current block is
 * {@code block[position .. limit)}. A leaf is a run read from the file ({@link RunReader}), an inner node the
 * 2-way merge of two inputs ({@link MergeNode}). The merge that consumes an input advances {@code position}
 * itself and calls {@link #refill} when the block is used up. The input owns its block; the consumer only reads
 * it, and only until the next refill. One thread.
 */
abstract sealed class MergeInput permits RunReader, MergeNode, ArrayRun {
    long[] block;
    int position;
    int limit;

    /** Unread longs in the current block. */
    final int remaining() {
        return limit - position;
    }

    /**
     * Makes the next block current; false (and the block empty) once the stream has ended. Called only when the
     * current block is used up; may be called again after the end.
     */
    abstract boolean refill() throws IOException;

    /**
     * Moves the next longs of the stream into {@code dst[from .. to)}: what is left of the current block, then
     * straight from further down (no copy into this input's own block); returns the index after the last long
     * written, which is {@code to} unless the stream ended.
     */
    final int fill(long[] dst, int from, int to) throws IOException {
        int n = Math.min(remaining(), to - from);
        System.arraycopy(block, position, dst, from, n);
        position += n;
        from += n;
        return from < to ? fillPastBlock(dst, from, to) : from;
    }

    /** {@link #fill} once the current block is used up. */
    abstract int fillPastBlock(long[] dst, int from, int to) throws IOException;
}
