package org.hpio.bench.engine;

import org.hpio.IoMemory;
import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;
import org.hpio.internal.io.IoOperation;
import org.hpio.internal.io.IoRequest;
import org.hpio.internal.io.IoRequests;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An hpio engine ({@code uring} or {@code threads}) driven at a queue depth: one engine per driver, sized
 * for that depth; off-heap buffers from {@link IoMemory} (what hpio gives its users for direct I/O), one segment
 * sliced into one buffer per slot, so that 1 MiB reads land in huge pages where the kernel grants them. The running thread waits
 * for any of its requests with {@link IoRequests#awaitAny} (on io_uring it reaps the ring itself, as an
 * application thread using hpio would); the first I/Os go out in one {@link IoEngine#submitAll}, then each slot
 * is resubmitted on its own as soon as its completion is checked (see {@link InFlightDriver}).
 *
 * <p>Close order: the engine first (it waits for every request in flight), then the file, then the arena, so
 * no buffer is freed while the kernel or a worker may still write it.
 */
final class EngineDriver extends InFlightDriver {
    private final Arena arena;
    private final MemorySegment[] buffers;
    private final IoRequest[] requests;
    /** The completed request of each slot, until the slot is resubmitted. */
    private final IoRequest[] results;
    /** Requests in flight, in the order of their slots; rebuilt for each wait. */
    private final List<IoRequest> pending;
    private final List<IoOperation> operations;
    private final NativeFile file;
    private final IoEngine engine;

    private EngineDriver(Workload workload, int depth, NativeFile file, IoEngine engine) {
        super(workload, depth);
        this.file = file;
        this.engine = engine;
        this.arena = Arena.ofShared();
        this.buffers = new MemorySegment[depth];
        this.requests = new IoRequest[depth];
        this.results = new IoRequest[depth];
        this.pending = new ArrayList<>(depth);
        this.operations = new ArrayList<>(depth);
        MemorySegment memory = IoMemory.allocate((long) depth * workload.blockSize(), arena);
        for (int slot = 0; slot < depth; slot++) {
            buffers[slot] = memory.asSlice((long) slot * workload.blockSize(), workload.blockSize());
        }
    }

    /** The io_uring engine: throws (IOException or an unchecked exception) with the reason where it cannot start. */
    static EngineDriver uring(Path path, Workload workload, int depth) throws IOException {
        return open(path, workload, depth, false);
    }

    /** The portable engine with {@code depth} threads. */
    static EngineDriver threads(Path path, Workload workload, int depth) throws IOException {
        return open(path, workload, depth, true);
    }

    private static EngineDriver open(Path path, Workload workload, int depth, boolean threads) throws IOException {
        int flags = (workload.writes() ? Syscalls.O_WRONLY : Syscalls.O_RDONLY) | (workload.direct() ? Syscalls.O_DIRECT : 0);
        NativeFile file = NativeFile.open(path, flags | Syscalls.O_CLOEXEC);
        try {
            EngineConfig config = EngineConfig.defaults().withMaxInFlight(depth);
            IoEngine engine = threads ? IoEngines.openThreads(config.withThreads(depth)) : IoEngines.openUring(config);
            return new EngineDriver(workload, depth, file, engine);
        } catch (IOException | RuntimeException | Error e) {
            file.close();
            throw e;
        }
    }

    @Override
    protected MemorySegment buffer(int slot) {
        return buffers[slot];
    }

    @Override
    protected void submit(int[] slots, int count) throws IOException {
        if (count == 1) {
            requests[slots[0]] = engine.submit(operation(slots[0]));
        } else {
            operations.clear();
            for (int i = 0; i < count; i++) {
                operations.add(operation(slots[i]));
            }
            List<IoRequest> submitted = engine.submitAll(operations);
            for (int i = 0; i < count; i++) {
                requests[slots[i]] = submitted.get(i);
            }
        }
    }

    @Override
    protected boolean awaitArrivals(List<Integer> arrived) throws InterruptedException {
        pending.clear();
        for (IoRequest r : requests) {
            if (r != null) {
                pending.add(r);
            }
        }
        if (!IoRequests.awaitAny(pending, TimeUnit.SECONDS.toNanos(STALL_SECONDS))) {
            return false;
        }
        long now = System.nanoTime();
        for (int slot = 0; slot < depth; slot++) {
            if (requests[slot] != null && requests[slot].isDone()) {
                arrived(slot, now, arrived);
                results[slot] = requests[slot];
                requests[slot] = null;
            }
        }
        return true;
    }

    private IoOperation operation(int slot) {
        return workload.writes() ? IoOperation.write(file, buffers[slot], position(slot))
                : IoOperation.read(file, buffers[slot], position(slot));
    }

    @Override
    protected long result(int slot) throws IOException {
        return results[slot].resultOrThrow();
    }

    @Override
    public void close() throws IOException {
        try (arena; file) {
            engine.close();
        }
    }
}
