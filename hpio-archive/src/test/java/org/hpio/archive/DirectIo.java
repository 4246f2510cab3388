package org.hpio.archive;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileOptions;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Skips a test when the file system under a file refuses O_DIRECT (tmpfs, some overlays). */
final class DirectIo {
    private DirectIo() {
    }

    static void assumeSupported(Path file) {
        org.hpio.testing.NativeCalls.assumeOn("O_DIRECT");
        boolean supported;
        try (AsyncFile ignored = new AsyncFile(file, "r", AsyncFileOptions.defaults().withDirect(true))) {
            supported = true;
        } catch (IOException e) {
            supported = false;
        }
        assumeTrue(supported, "the file system of " + file + " refuses O_DIRECT; skipping");
    }
}
