package org.hpio.bench.report;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a report file all at once, through the archive's {@link org.hpio.archive.internal.AtomicFile} (a
 * temporary sibling, forced, renamed over the target, the directory forced: a reader or a crash mid-run never
 * sees half a report), as a stream: the report writers produce streams. The directory is created first.
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
        Files.createDirectories(file.toAbsolutePath().getParent());
        // qualified: the archive's AtomicFile, which this class of the same name delegates to
        org.hpio.archive.internal.AtomicFile.write(file, channel -> {
            // Content may close its stream (JSON generators do); the channel must stay open to be forced.
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
        });
    }
}
