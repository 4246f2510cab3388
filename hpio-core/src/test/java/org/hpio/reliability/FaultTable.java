package org.hpio.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The reliability report: per fault kind, operations run, faults injected (or met, for real kernel errors and
 * crashes), acknowledged bytes lost and leaks found; the last two must be 0. Rows of the same kind are added
 * up. Every test that adds a row rewrites {@value #FILE} (under the module's target directory), so the file
 * holds the whole table once the suite ran; {@code ./hpio test} prints it at the end.
 */
public final class FaultTable {
    public static final String FILE = "target/reliability/faults.txt";
    /** Where the table goes instead of {@link #FILE} (the seccomp child keeps its own). */
    public static final String FILE_PROPERTY = "hpio.faultTable";

    /** One line of the table. */
    public record Row(String fault, long operations, long faults, long acknowledgedBytesLost, long leaks) {
        Row plus(Row o) {
            return new Row(fault, operations + o.operations, faults + o.faults,
                    acknowledgedBytesLost + o.acknowledgedBytesLost, leaks + o.leaks);
        }
    }

    private static final Map<String, Row> ROWS = new LinkedHashMap<>();

    private FaultTable() {
    }

    /** Adds {@code row} (to the row of the same fault, if any) and rewrites the report file. */
    public static synchronized void add(Row row) {
        ROWS.merge(row.fault(), row, Row::plus);
        try {
            Path file = Path.of(System.getProperty(FILE_PROPERTY, FILE));
            Files.createDirectories(file.getParent());
            Files.writeString(file, render());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The table as text. */
    public static synchronized String render() {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[]{"fault", "operations run", "faults injected", "ack. bytes lost", "leaks found"});
        for (Row r : ROWS.values()) {
            lines.add(new String[]{r.fault(), Long.toString(r.operations()), Long.toString(r.faults()),
                    Long.toString(r.acknowledgedBytesLost()), Long.toString(r.leaks())});
        }
        int[] widths = new int[5];
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (String[] line : lines) {
            out.append(String.format(Locale.ROOT, "| %-" + widths[0] + "s |", line[0]));
            for (int i = 1; i < line.length; i++) {
                out.append(String.format(Locale.ROOT, " %" + widths[i] + "s |", line[i]));
            }
            out.append('\n');
            if (line == lines.getFirst()) {
                out.append("|-").append("-".repeat(widths[0])).append("-|");
                for (int i = 1; i < line.length; i++) {
                    out.append("-".repeat(widths[i] + 1)).append(":|");
                }
                out.append('\n');
            }
        }
        return out.toString();
    }
}
