package org.hpio.archive;

import org.hpio.internal.sys.NativeAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * With native calls off ({@code ArchiveNativeAccessDeniedTest} runs this in a child JVM with native access
 * denied; elsewhere it skips), Zstandard and bzip2 entries, which need libzstd and libbz2, are refused by every
 * way of reading them with a message naming the archive, the entry, the method and why the library is off.
 */
class PortableArchiveTest {
    private static final String SEEDS =
            "/org/hpio/archive/fuzz/ArchiveOpenFuzzTestInputs/openingAnyBytesAsAnArchiveFailsCleanlyOrReadsEveryEntry/";

    @TempDir
    Path dir;

    private Path seed(String name) throws IOException {
        Path zip = dir.resolve(name + ".zip");
        try (InputStream in = PortableArchiveTest.class.getResourceAsStream(SEEDS + name)) {
            Files.copy(in, zip, StandardCopyOption.REPLACE_EXISTING);
        }
        return zip;
    }

    @Test
    void zstandardAndBzip2EntriesSayWhyTheyCannotBeReadHere() throws IOException {
        assumeFalse(NativeAccess.available(), "native calls are on: libzstd and libbz2 may be used");
        String[][] cases = {{"zstd-entry", "is Zstandard (method 93), which needs libzstd: native calls are off: "},
                {"bzip2-entry", "is bzip2 (method 12), which needs libbz2: native calls are off: "}};
        for (String[] c : cases) {
            Path zip = seed(c[0]);
            try (Archive archive = Archive.open(zip)) {
                ArchiveEntry entry = archive.entry("a.txt").orElseThrow();
                for (ThrowingRead read : new ThrowingRead[]{() -> archive.load("a.txt").close(),
                        () -> archive.openStream(entry).close(), () -> archive.read(entry)}) {
                    IOException e = assertThrows(IOException.class, read::run);
                    assertTrue(e.getMessage().contains(zip.toString()), e.getMessage());
                    assertTrue(e.getMessage().contains("entry a.txt"), e.getMessage());
                    assertTrue(e.getMessage().contains(c[1] + NativeAccess.unavailableReason()), e.getMessage());
                }
            }
        }
    }

    @FunctionalInterface
    private interface ThrowingRead {
        void run() throws IOException;
    }
}
