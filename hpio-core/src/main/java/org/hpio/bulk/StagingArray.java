package org.hpio.bulk;

/**
 * The heap staging array of one bulk stream: allocated on first use at the size the first transfer wants (at
 * least 8 KiB, at most {@value #MAX_BYTES}), grown to that cap when a later transfer wants more, dropped at
 * close. Owned by its stream; not thread-safe.
 */
final class StagingArray {
    static final int MAX_BYTES = 128 * 1024;
    private static final int MIN_BYTES = 8192;

    private byte[] bytes;

    /** An array of at least min(bytesWanted, MAX_BYTES) bytes. */
    byte[] get(long bytesWanted) {
        int size = (int) Math.min(bytesWanted, MAX_BYTES);
        if (bytes == null || bytes.length < size) {
            bytes = new byte[Math.max(size, Math.min(MAX_BYTES, MIN_BYTES))];
        }
        return bytes;
    }

    void drop() {
        bytes = null;
    }
}
