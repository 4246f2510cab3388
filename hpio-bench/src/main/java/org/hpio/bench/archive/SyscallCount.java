package org.hpio.bench.archive;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The system calls of (the first loads of) one replay, as {@code strace -c} summed them over every thread of the
 * JVM: how many in all and how many of each, most frequent first, and over how many loads.
 *
 * @param total  every system call
 * @param byName calls of each system call, most frequent first
 * @param loads  the loads replayed while counting (0 until {@link #over(int)} says)
 */
record SyscallCount(long total, Map<String, Long> byName, int loads) {
    SyscallCount {
        byName = byName.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, Long::sum, LinkedHashMap::new));
    }

    /**
     * Parses the table {@code strace -c} writes: a header, a rule, one line per system call
     * ({@code % time, seconds, usecs/call, calls, [errors,] name}), a rule and the total line.
     */
    static SyscallCount parse(List<String> lines) {
        Map<String, Long> byName = new LinkedHashMap<>();
        for (String line : lines) {
            String[] f = line.strip().split("\\s+");
            if (f.length >= 5 && isNumber(f[0]) && !f[f.length - 1].equals("total")) {
                byName.merge(f[f.length - 1], Long.parseLong(f[3]), Long::sum);
            }
        }
        return new SyscallCount(byName.values().stream().mapToLong(Long::longValue).sum(), byName, 0);
    }

    /** These counts over {@code replayedLoads} loads. */
    SyscallCount over(int replayedLoads) {
        return new SyscallCount(total, byName, replayedLoads);
    }

    double perLoad() {
        return (double) total / loads;
    }

    /** The {@code n} most frequent system calls per load, e.g. "openat 1.00, read 2.01, close 1.00". */
    String mostFrequentPerLoad(int n) {
        return byName.entrySet().stream().limit(n)
                .map(e -> String.format(Locale.ROOT, "%s %.2f", e.getKey(), (double) e.getValue() / loads))
                .collect(Collectors.joining(", "));
    }

    private static boolean isNumber(String s) {
        try {
            Double.parseDouble(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
