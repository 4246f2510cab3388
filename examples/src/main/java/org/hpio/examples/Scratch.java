package org.hpio.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the examples write: a fresh directory under target/ (a real disk, where O_DIRECT works; not /tmp's tmpfs). */
final class Scratch {
    private Scratch() {
    }

    static Path directory(String name) throws IOException {
        return Files.createTempDirectory(Files.createDirectories(Path.of("target", "scratch")), name);
    }
}
