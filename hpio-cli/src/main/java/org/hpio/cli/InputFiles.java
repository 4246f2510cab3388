package org.hpio.cli;

import org.hpio.archive.trace.Trace;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Checks of the files a command is given, before any work, so that a bad one is reported by name with what is
 * wrong ("no such file", "is a directory, not a Zip archive") instead of as a system call's bare reason.
 */
final class InputFiles {
    private InputFiles() {
    }

    /** A Zip archive to read: an existing, readable file. */
    static Path archive(Path file) throws IOException {
        return regularFile(file, "a Zip archive");
    }

    /** A load trace to read: an existing, readable file. */
    static Path trace(Path file) throws IOException {
        return regularFile(file, "a load trace");
    }

    /** The load trace in {@code file}; an error naming the file when it is missing, not a trace, or holds no load. */
    static Trace readTrace(Path file) throws IOException {
        Trace trace = Trace.read(trace(file));
        if (trace.loadCount() == 0) {
            throw new IllegalArgumentException(file + ": the trace holds no loads"
                    + (Files.size(file) == 0 ? " (the file is empty)" : ""));
        }
        return trace;
    }

    /** A file of {@code what} to read (what it should be, for the message: "a list of paths"). */
    static Path regularFile(Path file, String what) throws IOException {
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString(), null, "no such file");
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(file + " is a directory, not " + what);
        }
        if (!Files.isReadable(file)) {
            throw new AccessDeniedException(file.toString());
        }
        return file;
    }

    /** A directory to read: it exists and is one. */
    static Path directory(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "no such directory");
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is a file, not a directory");
        }
        return dir;
    }

    /** A file to write: its directory exists, and it is not itself a directory. */
    static Path output(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(file + " is a directory; give the file to write");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new NoSuchFileException(file.toString(), null, "cannot write it: no such directory " + parent);
        }
        return file;
    }

    /** A directory to write into, created if missing; {@code option} names where it came from. */
    static Path outputDirectory(Path dir, String option) throws IOException {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(option + " " + dir + ": exists and is not a directory");
        }
        return Files.createDirectories(dir);
    }
}
