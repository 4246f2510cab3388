package org.hpio.bench.async;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;

import java.nio.file.Path;

/**
 * hpio's AsyncFile: readArray/writeArray of a long[] (big-endian in the file), then done(). With
 * {@code inline} false, every request goes to the engine: the file is opened with
 * {@code -Dhpio.async.inlineWriteBytes=0} and {@code -Dhpio.async.inlineReadBytes=0} (the switches AsyncFile
 * reads at open), the candidate the inline small-request paths replaced, kept in the report for comparison.
 */
final class HpioCost implements RequestCost {
    private static final String[] INLINE_PROPERTIES = {"hpio.async.inlineWriteBytes", "hpio.async.inlineReadBytes"};
    private final AsyncFile file;
    private AsyncFileRequest request;

    HpioCost(Path path, boolean inline) throws Exception {
        this.file = inline ? new AsyncFile(path, "rw") : openAllToEngine(path);
    }

    private static AsyncFile openAllToEngine(Path path) throws Exception {
        String[] before = new String[INLINE_PROPERTIES.length];
        for (int i = 0; i < before.length; i++) {
            before[i] = System.setProperty(INLINE_PROPERTIES[i], "0");
        }
        try {
            return new AsyncFile(path, "rw");
        } finally {
            for (int i = 0; i < before.length; i++) {
                if (before[i] == null) {
                    System.clearProperty(INLINE_PROPERTIES[i]);
                } else {
                    System.setProperty(INLINE_PROPERTIES[i], before[i]);
                }
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
