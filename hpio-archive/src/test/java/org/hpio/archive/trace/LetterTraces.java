package org.hpio.archive.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Traces small enough to work out by hand: files named by one letter, each of size 1. */
public final class LetterTraces {
    private LetterTraces() {
    }

    /** A trace of runs, each a string of one-letter file names of size 1. */
    public static Trace runs(String... runs) {
        List<TraceRun> list = new ArrayList<>();
        for (int r = 0; r < runs.length; r++) {
            List<TraceEvent> events = new ArrayList<>();
            for (int i = 0; i < runs[r].length(); i++) {
                // Later runs start earlier than earlier runs end, so the text form tells them apart.
                events.add(TraceEvent.load((runs.length - r) * 0.001 + i, runs[r].substring(i, i + 1), 1));
            }
            list.add(new TraceRun(events));
        }
        return new Trace(list);
    }

    /** The letters of {@code s}, one file name each. */
    public static List<String> letters(String s) {
        return Arrays.asList(s.split(""));
    }
}
