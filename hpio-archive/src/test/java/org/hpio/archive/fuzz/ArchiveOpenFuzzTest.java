package org.hpio.archive.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.hpio.archive.Archive;
import org.hpio.archive.ArchiveEntry;
import org.hpio.archive.LoadedFile;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Hostile input, fuzzed with Jazzer: opening any bytes as an archive (end record, Zip64 locator and record,
 * central directory, local headers), then reading every entry both as a stream and by the block-split asynchronous
 * load (stored or Deflate, sizes and CRC checked; where both succeed they must agree) must end in a result or the
 * archive's own IOException saying what was wrong where; any other exception, a hang or an
 * OutOfMemoryError is a finding. Seeds: ArchiveOpenFuzzTestInputs (archives from Python's zipfile).
 *
 * <p>In {@code ./hpio test} this runs in fuzzing mode for a short bounded time (the hpio-archive pom's
 * {@code fuzz} execution, {@code jazzer.max_duration}); {@code ./hpio fuzz [DURATION]} runs it longer.
 */
class ArchiveOpenFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void openingAnyBytesAsAnArchiveFailsCleanlyOrReadsEveryEntry(byte[] data) throws IOException {
        Path file = Files.createTempFile("hpio-fuzz", ".zip");
        try {
            Files.write(file, data);
            try (Archive archive = Archive.open(file)) {
                for (ArchiveEntry entry : archive.entries()) {
                    byte[] streamed = null;
                    try (InputStream in = archive.openStream(entry)) {
                        streamed = in.readAllBytes();
                    } catch (IOException expected) {
                        // damaged entry data: reported
                    }
                    try (LoadedFile loaded = archive.load(entry)) {
                        byte[] bytes = loaded.segment().toArray(ValueLayout.JAVA_BYTE);
                        if (streamed != null && !Arrays.equals(streamed, bytes)) {
                            throw new AssertionError("load and openStream disagree on entry " + entry.name());
                        }
                    } catch (IOException expected) {
                        // damaged entry data: reported (sizes and CRC are checked before anything is returned)
                    }
                }
            } catch (IOException expected) {
                // not an archive, or a damaged one: reported
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
