package org.hpio.bench.async;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileRequest;

import java.nio.file.Path;

/** hpio's AsyncFile: readArray/writeArray of a long[] (big-endian in the file), then done(). */
final class HpioCost implements RequestCost {
    private final AsyncFile file;
    private AsyncFileRequest request;

    HpioCost(Path path) throws Exception {
        this.file = new AsyncFile(path, "rw");
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
