package org.hpio.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;

/**
 * A failure in words for the person at the terminal: the file it concerns and what is wrong with it. The JDK's
 * file-system exceptions carry the file and a terse reason (a bare {@code NoSuchFileException} message is only
 * the path); these are spelled out here. Other exceptions already say what went wrong in their message.
 */
final class ErrorText {
    private ErrorText() {
    }

    /** What {@code failure} means, naming the file where it concerns one. */
    static String of(Throwable failure) {
        Throwable t = failure instanceof UncheckedIOException u && u.getCause() != null ? u.getCause() : failure;
        if (t instanceof FileSystemException f) {
            return ofFileSystem(f);
        }
        if (t.getMessage() == null || t.getMessage().isBlank()) {
            return t instanceof IOException ? "I/O error (" + t.getClass().getSimpleName() + ")" : t.toString();
        }
        return t.getMessage();
    }

    private static String ofFileSystem(FileSystemException f) {
        String problem = f.getReason() != null && !f.getReason().isBlank() ? reason(f) : switch (f) {
            case NoSuchFileException e -> "no such file";
            case AccessDeniedException e -> "permission denied";
            case NotDirectoryException e -> "not a directory";
            case FileAlreadyExistsException e -> "already exists";
            case DirectoryNotEmptyException e -> "directory not empty";
            default -> "I/O error";
        };
        String file = f.getFile();
        String other = f.getOtherFile() == null ? "" : " (and " + f.getOtherFile() + ")";
        return file == null ? problem : file + other + ": " + problem;
    }

    /** The exception's own reason, in lower case as the rest of the message ("Is a directory" reads "is a directory"). */
    private static String reason(FileSystemException f) {
        String reason = f.getReason();
        return reason.substring(0, 1).toLowerCase(Locale.ROOT) + reason.substring(1);
    }
}
