package org.hpio.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What /proc says of this process's descriptors, for tests. */
public final class Descriptors {
    private Descriptors() {
    }

    /** The status flags of the open file description of descriptor {@code fd}, from /proc/self/fdinfo (octal there). */
    public static int statusFlags(int fd) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/fdinfo/" + fd))) {
            if (line.startsWith("flags:")) {
                return Integer.parseInt(line.substring("flags:".length()).trim(), 8);
            }
        }
        throw new IOException("no flags in /proc/self/fdinfo/" + fd);
    }
}
