package org.hpio.reliability;

import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;
import org.hpio.internal.io.IoOperation;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Opening the engines the reliability tests run on; io_uring cases skip (saying why) where it is refused. */
public final class TestEngines {
    public static final List<String> BOTH = List.of("uring", "threads");

    private TestEngines() {
    }

    /** "uring" or "threads"; a uring case is skipped where io_uring cannot start (e.g. under seccomp). */
    public static IoEngine open(String name, EngineConfig config) throws IOException {
        if (name.equals("threads")) {
            return IoEngines.openThreads(config);
        }
        try {
            return IoEngines.openUring(config);
        } catch (IOException e) {
            System.out.println("SKIPPED (io_uring): " + e.getMessage());
            Assumptions.abort("io_uring is not available here: " + e.getMessage());
            throw e;
        }
    }

    /** A fault hook that injects nothing and counts the operations it sees (operations run, for the table). */
    public static final class Counter implements EngineConfig.FaultHook {
        private final AtomicLong operations = new AtomicLong();

        @Override
        public int errnoFor(IoOperation operation) {
            operations.incrementAndGet();
            return 0;
        }

        public long operations() {
            return operations.get();
        }
    }
}
