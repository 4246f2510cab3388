package org.hpio.bench.engine;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The engine suite's data: a file of 4 KiB blocks, each starting with its block number (a native-order long)
 * and a tag derived from it, the rest zero. A read of block {@code b} is right when its first two longs are
 * {@code b} and {@code tag(b)}: data from another offset, a page of zeros (even for block 0) or a stale buffer
 * all fail. Stateless; the segments passed in stay the caller's.
 */
final class BlockPattern {
    static final int BLOCK = 4096;
    /** Written over a buffer's blocks before a read, so that a read that moved nothing cannot pass. */
    private static final long POISON = 0xDEAD_BEEF_DEAD_BEEFL;

    private BlockPattern() {
    }

    static long tag(long block) {
        long z = (block + 0x9E37_79B9_7F4A_7C15L) * 0xBF58_476D_1CE4_E5B9L;
        return (z ^ (z >>> 31)) | 1;
    }

    /** Writes the pattern of the blocks at file offset {@code position} into {@code buffer} (a whole number of blocks). */
    static void fill(MemorySegment buffer, long position) {
        for (long at = 0; at < buffer.byteSize(); at += BLOCK) {
            long block = (position + at) / BLOCK;
            buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, at, block);
            buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, at + 8, tag(block));
        }
    }

    /** Spoils the head of every block of {@code buffer}. */
    static void poison(MemorySegment buffer) {
        for (long at = 0; at < buffer.byteSize(); at += BLOCK) {
            buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, at, POISON);
        }
    }

    /** How many of the blocks in {@code buffer} do not hold the pattern of file offset {@code position}. */
    static int mismatches(MemorySegment buffer, long position) {
        int wrong = 0;
        for (long at = 0; at + 16 <= buffer.byteSize(); at += BLOCK) {
            long block = (position + at) / BLOCK;
            if (buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, at) != block
                    || buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, at + 8) != tag(block)) {
                wrong++;
            }
        }
        return wrong;
    }
}
