package org.hpio.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses what {@code strace -f -ttt -y -s 4096 -e trace=openat,open} writes: the successful opens for reading
 * (O_RDONLY, not O_DIRECTORY or O_PATH), with the absolute path strace resolved from the returned descriptor
 * ({@code = 3</abs/path>}). Calls split across lines by another thread ({@code <unfinished ...>} and
 * {@code <... openat resumed>}) are joined by process id and take the time they returned, so times keep the
 * order of the log.
 */
final class StraceLog {
    /** One successful open for reading. */
    record Open(double epochSeconds, String path) {
    }

    private static final Pattern PREFIX = Pattern.compile("^(?:(?:\\[pid\\s+)?(\\d+)\\]?\\s+)?(\\d+\\.\\d+) (.*)$");
    private static final Pattern CALL = Pattern.compile("^(?:openat|open)\\((.*)$");
    private static final Pattern RESUMED = Pattern.compile("^<\\.\\.\\. (?:openat|open) resumed>(.*)$");
    private static final Pattern RESULT = Pattern.compile("^(.*)\\) += (\\d+)<(.*)>$");

    private final Map<String, String> unfinishedByPid = new HashMap<>();
    private final List<Open> opens = new ArrayList<>();

    /** The opens for reading in {@code lines}, in order. */
    static List<Open> parse(List<String> lines) {
        StraceLog log = new StraceLog();
        lines.forEach(log::accept);
        return List.copyOf(log.opens);
    }

    private void accept(String line) {
        Matcher m = PREFIX.matcher(line);
        if (!m.matches()) {
            return;
        }
        String pid = m.group(1) == null ? "" : m.group(1);
        String rest = m.group(3);
        Matcher resumed = RESUMED.matcher(rest);
        String call;
        if (resumed.matches()) {
            String start = unfinishedByPid.remove(pid);
            if (start == null) {
                return;
            }
            call = start + resumed.group(1);
        } else {
            Matcher c = CALL.matcher(rest);
            if (!c.matches()) {
                return;
            }
            if (rest.endsWith("<unfinished ...>")) {
                unfinishedByPid.put(pid, c.group(1).substring(0, c.group(1).length() - "<unfinished ...>".length()));
                return;
            }
            call = c.group(1);
        }
        Matcher r = RESULT.matcher(call);
        if (r.matches() && readOnly(r.group(1))) {
            opens.add(new Open(Double.parseDouble(m.group(2)), unescape(r.group(3))));
        }
    }

    private static boolean readOnly(String arguments) {
        return arguments.contains("O_RDONLY") && !arguments.contains("O_DIRECTORY") && !arguments.contains("O_PATH");
    }

    /** Undoes strace's C-style escapes (\", \\, \n, \t, \ooo, \xhh) in a path, read as UTF-8 bytes. */
    static String unescape(String s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        byte[] raw = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] != '\\' || i + 1 == raw.length) {
                bytes.write(raw[i]);
                continue;
            }
            char c = (char) raw[++i];
            switch (c) {
                case 'n' -> bytes.write('\n');
                case 't' -> bytes.write('\t');
                case 'r' -> bytes.write('\r');
                case 'x' -> {
                    bytes.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                    i += 2;
                }
                default -> {
                    if (c >= '0' && c <= '7') {
                        int end = i;
                        while (end < raw.length && end < i + 3 && raw[end] >= '0' && raw[end] <= '7') {
                            end++;
                        }
                        bytes.write(Integer.parseInt(new String(raw, i, end - i, StandardCharsets.US_ASCII), 8));
                        i = end - 1;
                    } else {
                        bytes.write(c);
                    }
                }
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
