package org.hpio.bench.async;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;

import java.nio.file.Path;

/**
 * hpio's AsyncFile: readArray/writeArray of a long[] (big-endian in the file), then done(). With
 * {@code inlineWrites} false, every write goes to the engine (the file is opened with
 * {@code -Dhpio.async.inlineWriteBytes=0}, the switch AsyncFile reads at open): the candidate the inline
 * small-write path replaced, kept in the report for comparison.
 */
final class HpioCost implements RequestCost {
    private static final String INLINE_PROPERTY = "hpio.async.inlineWriteBytes";
    private final AsyncFile file;
    private AsyncFileRequest request;

    HpioCost(Path path, boolean inlineWrites) throws Exception {
        this.file = inlineWrites ? new AsyncFile(path, "rw") : openWithoutInlineWrites(path);
    }

    private static AsyncFile openWithoutInlineWrites(Path path) throws Exception {
        String before = System.getProperty(INLINE_PROPERTY);
        System.setProperty(INLINE_PROPERTY, "0");
        try {
            return new AsyncFile(path, "rw");
        } finally {
            if (before == null) {
                System.clearProperty(INLINE_PROPERTY);
            } else {
                System.setProperty(INLINE_PROPERTY, before);
            }
        }
    }

    @Override
    public void start(long position, long[] longs, boolean write) throws Exception {
        request = write ? file.writeArray(position, longs) : file.readArray(position, longs);
    }

    @Override
    public void finish(long[] longs) throws Exception {
        request.done();
    }

    @Override
    public void close() throws Exception {
        file.close();
    }
}
