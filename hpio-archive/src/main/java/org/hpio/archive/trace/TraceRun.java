package org.hpio.archive.trace;

import java.util.List;
import java.util.Objects;

/**
 * One run of a program within a trace: its events in the order they happened, with times that never decrease
 * (to microsecond precision, the precision of the text form).
 *
 * @param events the events, not empty; copied
 */
public record TraceRun(List<TraceEvent> events) {
    /** Copies the events and checks that there is at least one and that time never goes back. */
    public TraceRun {
        events = List.copyOf(Objects.requireNonNull(events, "events"));
        if (events.isEmpty()) {
            throw new IllegalArgumentException("a trace run needs at least one event");
        }
        for (int i = 1; i < events.size(); i++) {
            if (events.get(i).micros() < events.get(i - 1).micros()) {
                throw new IllegalArgumentException("trace run event " + i + " (" + events.get(i).path()
                        + " at " + events.get(i).seconds() + " s) is earlier than the one before it ("
                        + events.get(i - 1).seconds() + " s): a time that goes back starts a new run");
            }
        }
    }

    /** The loads of this run, in order. */
    public List<TraceEvent> loads() {
        return events.stream().filter(TraceEvent::isLoad).toList();
    }

    /** The first event's time in microseconds. */
    long firstMicros() {
        return events.getFirst().micros();
    }

    /** The last event's time in microseconds. */
    long lastMicros() {
        return events.getLast().micros();
    }
}
