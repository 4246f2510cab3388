package org.hpio.nio;

import org.hpio.internal.io.IoEngine;
import org.hpio.internal.sys.NativeFile;

import java.util.List;

/**
 * The engines one {@link HpioFileChannel}'s calls are spread over ({@link
 * org.hpio.internal.io.IoEngines#sharedRings}): each thread's calls go to one of them, chosen by its thread id,
 * so a thread's reads queue in one engine's admission order (in turn with the other threads there) and a
 * platform thread reaps the same ring every time. Each call uses the one engine it picked from start to end:
 * its staging memory, its request, its cancellation. Immutable: one instance serves every channel of a provider.
 */
final class EngineRings {
    private final IoEngine[] engines;

    /** Over {@code engines}, the first of them the one named for the channel. */
    EngineRings(List<IoEngine> engines) {
        if (engines.isEmpty()) {
            throw new IllegalArgumentException("no engine");
        }
        this.engines = engines.toArray(IoEngine[]::new);
    }

    /** The engine for the calling thread's calls. */
    IoEngine forCurrentThread() {
        if (engines.length == 1) {
            return engines[0];
        }
        return engines[(int) Long.remainderUnsigned(Thread.currentThread().threadId(), engines.length)];
    }

    /** The first engine: the one whose closing (the JVM's shutdown) makes new channels the JDK's. */
    IoEngine first() {
        return engines[0];
    }

    /** Cancels {@code file}'s requests on every engine; how many were cancelled. */
    int cancelAll(NativeFile file) {
        int cancelled = 0;
        for (IoEngine engine : engines) {
            cancelled += engine.cancelAll(file);
        }
        return cancelled;
    }

    /** The engines' kind ("uring" or "threads"): the first one's, which the others repeat. */
    String name() {
        return engines[0].name();
    }
}
