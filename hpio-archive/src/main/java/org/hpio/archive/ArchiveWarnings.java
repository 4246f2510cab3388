package org.hpio.archive;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What an archive holds that a strict reader would refuse but that is unambiguous, so is read anyway: bytes
 * after the end of central directory record, bytes after the end of an entry's compressed stream within the
 * compressed size the directory gives. Each is said once, in the order found; {@code hpio verify} prints them.
 * Thread-safe: loads on several threads may add at once.
 */
final class ArchiveWarnings {
    private final Set<String> said = new LinkedHashSet<>();

    /** Records {@code warning} (once). */
    synchronized void add(String warning) {
        said.add(warning);
    }

    /** The warnings so far, in the order found. */
    synchronized List<String> all() {
        return List.copyOf(said);
    }
}
