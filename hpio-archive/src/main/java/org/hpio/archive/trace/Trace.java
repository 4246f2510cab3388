package org.hpio.archive.trace;

import org.hpio.archive.internal.AtomicFile;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A load trace (002 §3.3.2): the loads and releases of one or more runs of a program, in the text form that
 * Pyrogenesis writes, one event a line:
 * <pre>{@code <seconds, printf %#010f>: <L|F> "<path>" <size in bytes>}</pre>
 * A time smaller than the one on the line before starts a new run. Empty lines are allowed and skipped; any
 * other line that is not an event is an error naming its line number (nothing is guessed). Text is UTF-8.
 * Immutable.
 */
public final class Trace {
    private static final Pattern EVENT = Pattern.compile("(\\d+(?:\\.\\d*)?): ([A-Za-z]) \"(.+)\" (\\d+)");
    private static final String FORM = "expected <seconds>: <L|F> \"<path>\" <size>";

    private final List<TraceRun> runs;

    /**
     * A trace of these runs. Consecutive runs must be told apart in the text form: each run must start earlier
     * than the run before it ended.
     */
    public Trace(List<TraceRun> runs) {
        this.runs = List.copyOf(Objects.requireNonNull(runs, "runs"));
        for (int i = 1; i < this.runs.size(); i++) {
            if (this.runs.get(i).firstMicros() >= this.runs.get(i - 1).lastMicros()) {
                throw new IllegalArgumentException("trace run " + i + " starts at "
                        + this.runs.get(i).events().getFirst().seconds() + " s, not before run " + (i - 1)
                        + " ended (" + this.runs.get(i - 1).events().getLast().seconds()
                        + " s): the text form could not tell the two runs apart");
            }
        }
    }

    /** Reads the trace file at {@code file}. */
    public static Trace read(Path file) throws IOException {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(reader, file.toString());
        }
    }

    /**
     * Parses the text form from {@code reader} (which the caller closes); {@code sourceName} names it in
     * errors.
     */
    public static Trace parse(Reader reader, String sourceName) throws IOException {
        BufferedReader lines = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
        List<TraceRun> runs = new ArrayList<>();
        List<TraceEvent> current = new ArrayList<>();
        long lineNumber = 0;
        long lastMicros = -1;
        while (true) {
            String line;
            try {
                line = lines.readLine();
            } catch (CharacterCodingException e) {
                throw new TraceFormatException(sourceName, lineNumber + 1, "not UTF-8 text (" + e + ")");
            }
            if (line == null) {
                break;
            }
            lineNumber++;
            if (line.isEmpty()) {
                continue;
            }
            TraceEvent event = parseLine(line, sourceName, lineNumber);
            if (event.micros() < lastMicros) {
                runs.add(new TraceRun(current));
                current = new ArrayList<>();
            }
            current.add(event);
            lastMicros = event.micros();
        }
        if (!current.isEmpty()) {
            runs.add(new TraceRun(current));
        }
        return new Trace(runs);
    }

    private static TraceEvent parseLine(String line, String sourceName, long lineNumber)
            throws TraceFormatException {
        Matcher m = EVENT.matcher(line);
        if (!m.matches()) {
            throw new TraceFormatException(sourceName, lineNumber, FORM + ", found '" + line + "'");
        }
        TraceEvent.Kind kind = TraceEvent.Kind.ofLetter(m.group(2).charAt(0));
        if (kind == null) {
            throw new TraceFormatException(sourceName, lineNumber,
                    "event kind must be L (load) or F (free), found '" + m.group(2) + "'");
        }
        long size;
        try {
            size = Long.parseLong(m.group(4));
        } catch (NumberFormatException e) {
            throw new TraceFormatException(sourceName, lineNumber, "size " + m.group(4) + " is too large");
        }
        double seconds = Double.parseDouble(m.group(1));
        if (!Double.isFinite(seconds)) {
            throw new TraceFormatException(sourceName, lineNumber, "time " + m.group(1) + " is too large");
        }
        return new TraceEvent(seconds, kind, m.group(3), size);
    }

    /** The runs, in the order they were recorded. */
    public List<TraceRun> runs() {
        return runs;
    }

    /** The number of loads in all runs. */
    public int loadCount() {
        return runs.stream().mapToInt(r -> (int) r.events().stream().filter(TraceEvent::isLoad).count()).sum();
    }

    /** Writes the text form to {@code file} crash-safely (a temporary file renamed into place). */
    public void write(Path file) throws IOException {
        AtomicFile.write(file, channel -> {
            Writer writer = new BufferedWriter(new OutputStreamWriter(Channels.newOutputStream(channel),
                    StandardCharsets.UTF_8.newEncoder()));
            write(writer);
            writer.flush();
        });
    }

    /** Writes the text form to {@code writer}, which the caller flushes and closes. */
    public void write(Writer writer) throws IOException {
        for (TraceRun run : runs) {
            for (TraceEvent e : run.events()) {
                writer.write(formatLine(e));
                writer.write('\n');
            }
        }
    }

    /** One event as a line of the text form (without the line break). */
    static String formatLine(TraceEvent e) {
        long micros = e.micros();
        return String.format(Locale.ROOT, "%03d.%06d: %c \"%s\" %d", micros / 1_000_000, micros % 1_000_000,
                e.kind().letter(), e.path(), e.size());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Trace t && t.runs.equals(runs);
    }

    @Override
    public int hashCode() {
        return runs.hashCode();
    }

    @Override
    public String toString() {
        return "Trace[" + runs.size() + " runs, " + loadCount() + " loads]";
    }
}
