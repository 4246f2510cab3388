package org.hpio.bench.ranks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * The small text files ranks leave for each other in the shared directory. A marker appears whole or not at
 * all: it is written under a temporary name and renamed into place, which POSIX (and NFS, Lustre, BeeGFS,
 * CephFS) make atomic, so a reader never sees half of one.
 */
final class MarkerFile {
    private MarkerFile() {
    }

    /** Writes {@code text} to {@code file} atomically, replacing what was there. */
    static void write(Path file, String text) throws IOException {
        Path temporary = file.resolveSibling(".tmp-" + file.getFileName() + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        Files.writeString(temporary, text, StandardCharsets.UTF_8);
        try {
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.deleteIfExists(temporary);
            throw new IOException("the file system of " + file.getParent() + " cannot rename atomically, which the "
                    + "ranks' meetings need", e);
        }
    }

    /** The marker's text, or empty when it is not there (yet). */
    static Optional<String> read(Path file) throws IOException {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /** A fresh random name part, for sessions and joins. */
    static String nonce() {
        return Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE);
    }

    /** Deletes {@code dir} and everything under it, if it is there. */
    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
