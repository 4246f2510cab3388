package org.hpio.bench.engine;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;

/**
 * {@link FileChannel} from one thread, one positional read or write at a time (queue depth 1): what a
 * developer writes without an asynchronous API. O_DIRECT through {@link ExtendedOpenOption#DIRECT}.
 */
final class FileChannelDriver implements Driver {
    private final Workload workload;
    private final FileChannel channel;
    private final ByteBuffer buffer;
    private final MemorySegment segment;

    private FileChannelDriver(Workload workload, FileChannel channel) {
        this.workload = workload;
        this.channel = channel;
        this.buffer = ByteBuffer.allocateDirect(workload.blockSize() + BlockPattern.BLOCK).alignedSlice(BlockPattern.BLOCK)
                .limit(workload.blockSize()).slice();
        this.segment = MemorySegment.ofBuffer(buffer);
    }

    static FileChannelDriver open(Path path, Workload workload) throws IOException {
        Set<OpenOption> options = new HashSet<>();
        options.add(workload.writes() ? StandardOpenOption.WRITE : StandardOpenOption.READ);
        if (workload.direct()) {
            options.add(ExtendedOpenOption.DIRECT);
        }
        return new FileChannelDriver(workload, FileChannel.open(path, options));
    }

    @Override
    public Measurement run(String configuration, Workload.Offsets offsets, long nanos) {
        Measurement m = new Measurement(configuration);
        long start = System.nanoTime();
        long deadline = start + nanos;
        long now = start;
        while (now < deadline) {
            long position = offsets.next();
            if (workload.writes()) {
                BlockPattern.fill(segment, position);
            } else {
                BlockPattern.poison(segment);
            }
            buffer.clear();
            long begin = System.nanoTime();
            long moved;
            try {
                moved = workload.writes() ? channel.write(buffer, position) : channel.read(buffer, position);
            } catch (IOException e) {
                m.failed(e);
                break;
            }
            long done = System.nanoTime();
            int wrong = workload.writes() || moved != workload.blockSize() ? 0 : BlockPattern.mismatches(segment, position);
            m.completed(done - begin, moved, workload.blockSize(), wrong);
            now = done;
        }
        m.elapsed(System.nanoTime() - start);
        return m;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
