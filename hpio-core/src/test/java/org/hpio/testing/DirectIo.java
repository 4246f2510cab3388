package org.hpio.testing;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Whether hpio can open a file with O_DIRECT here, for tests that need it: native calls must be on and the file
 * system must take it (tmpfs does not). One helper for every module's tests.
 */
public final class DirectIo {
    private DirectIo() {
    }

    /** Whether {@code file} (an existing file) opens with O_DIRECT through hpio. */
    public static boolean supported(Path file) {
        try (AsyncFile ignored = new AsyncFile(file, "r", AsyncFileOptions.defaults().withDirect(true))) {
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Whether a file in directory {@code dir} opens with O_DIRECT through hpio (a probe file, deleted again). */
    public static boolean supportedIn(Path dir) throws IOException {
        Path probe = Files.write(dir.resolve("direct-probe"), new byte[4096]);
        try {
            return supported(probe);
        } finally {
            Files.delete(probe);
        }
    }

    /** Skips the calling test unless {@code file} opens with O_DIRECT, saying why. */
    public static void assumeSupported(Path file) {
        NativeCalls.assumeOn("O_DIRECT");
        assumeTrue(supported(file), "the file system of " + file + " refuses O_DIRECT; skipping");
    }
}
