package org.hpio.archive.trace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Records the loads and releases of one run in memory, as they happen (002 §3.3.2): recording does no I/O, so
 * it does not skew what it measures; the trace is written on demand. Times are measured from the recorder's
 * creation. Thread-safe: events from several threads are kept in the order they were recorded, and their
 * times never go back.
 */
public final class TraceRecorder {
    private final LongSupplier nanoClock;
    private final long startNanos;
    private final List<TraceEvent> events = new ArrayList<>();

    /** A recorder on the system's monotonic clock ({@link System#nanoTime()}). */
    public TraceRecorder() {
        this(System::nanoTime);
    }

    /** A recorder on {@code nanoClock}, a monotonic clock in nanoseconds (tests use a fake one). */
    public TraceRecorder(LongSupplier nanoClock) {
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.startNanos = nanoClock.getAsLong();
    }

    /** Records that the whole file {@code path} of {@code size} bytes was loaded. */
    public void onLoad(String path, long size) {
        record(TraceEvent.Kind.LOAD, path, size);
    }

    /** Records that the buffer a load of {@code path} ({@code size} bytes) returned was released. */
    public void onFree(String path, long size) {
        record(TraceEvent.Kind.FREE, path, size);
    }

    private synchronized void record(TraceEvent.Kind kind, String path, long size) {
        long micros = Math.max(0, (nanoClock.getAsLong() - startNanos) / 1_000);
        if (!events.isEmpty()) {
            micros = Math.max(micros, events.getLast().micros());
        }
        events.add(new TraceEvent(micros / 1e6, kind, path, size));
    }

    /** The events so far as a trace of one run (of no run when nothing was recorded). */
    public synchronized Trace snapshot() {
        return new Trace(events.isEmpty() ? List.of() : List.of(new TraceRun(new ArrayList<>(events))));
    }

    /** Writes the events so far to {@code file} in the text form (crash-safely, see {@link Trace#write(Path)}). */
    public void write(Path file) throws IOException {
        snapshot().write(file);
    }
}
