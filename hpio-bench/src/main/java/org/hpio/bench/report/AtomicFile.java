package org.hpio.bench.report;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a file all at once: into a temporary sibling, forced to disk, then renamed over the target, so a
 * reader (or a crash mid-run) never sees half a report. The temporary file is created with the ordinary
 * umask-governed permissions (not {@code createTempFile}'s 0600), so the renamed file is as readable as any other.
 */
final class AtomicFile {
    /** Produces the content; may throw {@link IOException}. */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private AtomicFile() {
    }

    static void write(Path file, Content content) throws IOException {
        Path target = file.toAbsolutePath();
        Path dir = target.getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve("." + target.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                // Content may close its stream (JSON generators do); the channel must stay open for force().
                OutputStream out = new BufferedOutputStream(new FilterOutputStream(Channels.newOutputStream(channel)) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        this.out.write(b, off, len);
                    }

                    @Override
                    public void close() throws IOException {
                        flush();
                    }
                }, 1 << 16);
                content.writeTo(out);
                out.flush();
                channel.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
