package org.hpio.bench.engine;

import java.io.IOException;
import java.nio.file.Path;

/** The ways to do the I/O that the suite compares; {@link #key()} starts every configuration name. */
enum Mechanism {
    URING("uring", "hpio io_uring engine"),
    THREADS("threads", "hpio portable engine, QD threads"),
    AFC_DEFAULT("afc-default", "AsynchronousFileChannel, the JDK's default pool"),
    AFC_POOL("afc-pool", "AsynchronousFileChannel, a pool of QD threads"),
    FILECHANNEL("filechannel", "FileChannel, one thread"),
    FIO("fio-uring", "fio --ioengine=io_uring (the C reference, its default buffers)");

    private final String key;
    private final String description;

    Mechanism(String key, String description) {
        this.key = key;
        this.description = description;
    }

    String key() {
        return key;
    }

    String description() {
        return description;
    }

    /** Opens this mechanism's driver on {@code file}; fio runs as its own process instead ({@link Fio}). */
    Driver open(Path file, Workload workload, int depth) throws IOException {
        return switch (this) {
            case URING -> EngineDriver.uring(file, workload, depth);
            case THREADS -> EngineDriver.threads(file, workload, depth);
            case AFC_DEFAULT -> AfcDriver.open(file, workload, depth, false);
            case AFC_POOL -> AfcDriver.open(file, workload, depth, true);
            case FILECHANNEL -> {
                if (depth != 1) {
                    throw new IllegalArgumentException("FileChannel from one thread has queue depth 1, not " + depth);
                }
                yield FileChannelDriver.open(file, workload);
            }
            case FIO -> throw new UnsupportedOperationException("fio is run as a process by Fio");
        };
    }
}
