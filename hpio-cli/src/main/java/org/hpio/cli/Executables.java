package org.hpio.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/** Finds programs on the PATH. */
final class Executables {
    private Executables() {
    }

    /** The executable {@code name} on the PATH, if there is one. */
    static Optional<Path> find(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Arrays.stream(path.split(File.pathSeparator)).filter(d -> !d.isEmpty())
                .map(d -> Path.of(d, name)).filter(Files::isExecutable).findFirst();
    }
}
