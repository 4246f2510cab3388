package org.hpio.archive.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a file crash-safely: the content goes to a new temporary file in the target's directory, which is
 * forced to disk, renamed over the target in one atomic step, and then the directory is forced so the rename
 * itself is durable. A crash or an error at any point leaves the target as it was (absent, or its old content);
 * on an error the temporary file is deleted.
 */
public final class AtomicFile {
    /** The content of the file, written to a channel that the caller neither closes nor forces. */
    @FunctionalInterface
    public interface Content {
        /** Writes the whole content to {@code channel}, which {@link AtomicFile} owns. */
        void writeTo(FileChannel channel) throws IOException;
    }

    private AtomicFile() {
    }

    /** Replaces (or creates) {@code target} with what {@code content} writes, or leaves it as it was. */
    public static void write(Path target, Content content) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path directory = absolute.getParent();
        if (directory == null || !Files.isDirectory(directory)) {
            throw new IOException("cannot write " + target + ": its directory " + directory + " does not exist");
        }
        if (Files.isDirectory(absolute)) {
            throw new IOException("cannot write " + target + ": it is a directory");
        }
        Path temporary = directory.resolve("." + absolute.getFileName() + "."
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()) + ".tmp");
        boolean moved = false;
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                content.writeTo(channel);
                channel.force(true);
            }
            move(temporary, absolute);
            moved = true;
            forceDirectory(directory);
        } finally {
            if (!moved) {
                Files.deleteIfExists(temporary);
            }
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("cannot rename " + from + " to " + to + " atomically: " + e.getMessage(), e);
        }
    }

    /** Makes a rename in {@code directory} durable (fsync on the directory). */
    private static void forceDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
