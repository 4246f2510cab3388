package org.hpio.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What /proc/self/smaps says of this process's mappings, for tests of huge-page memory. */
public final class Smaps {
    private Smaps() {
    }

    /** The AnonHugePages of the mapping of this process that holds {@code address}, in kB; -1 if none holds it. */
    public static long anonHugePagesKib(long address) throws IOException {
        String value = field(address, "AnonHugePages:");
        return value == null ? -1 : Long.parseLong(value.replaceAll("[^0-9]", ""));
    }

    /**
     * The VmFlags of the mapping that holds {@code address} (e.g. "rd wr mr mw me ac hg": hg is MADV_HUGEPAGE);
     * null if no mapping holds it.
     */
    public static String vmFlags(long address) throws IOException {
        String value = field(address, "VmFlags:");
        return value == null ? null : value.substring("VmFlags:".length()).trim();
    }

    /** The line starting with {@code name} in the entry of the mapping that holds {@code address}, or null. */
    private static String field(long address, String name) throws IOException {
        boolean inside = false;
        for (String line : Files.readAllLines(Path.of("/proc/self/smaps"))) {
            int dash = line.indexOf('-');
            int space = line.indexOf(' ');
            if (dash > 0 && space > dash && line.substring(0, dash).matches("[0-9a-f]+")) {
                long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
                long end = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                inside = start <= address && address < end;
            } else if (inside && line.startsWith(name)) {
                return line;
            }
        }
        return null;
    }
}
