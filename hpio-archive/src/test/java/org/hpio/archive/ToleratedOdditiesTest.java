package org.hpio.archive;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 20: archives that Python's {@code zipfile} and Info-ZIP read, and that are unambiguous, are read with
 * the right bytes by every load path, and what a strict reader would refuse is said in {@link Archive#warnings()}.
 * Python builds one archive of each oddity ({@code tolerated_oddities.py}: a trailer after the end record, an
 * entry name holding the Zip64 locator signature, bytes after the end of Deflate streams, a self-extractor's
 * stub before the archive).
 */
class ToleratedOdditiesTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void buildWithPython() throws Exception {
        Tools.assumeInstalled("python3", "python3");
        Path script = Path.of(ToleratedOdditiesTest.class.getResource("tolerated_oddities.py").toURI());
        Tools.Result r = Tools.run(dir, List.of("python3", script.toString(), dir.toString()));
        assertEquals(0, r.exitCode(), r.output());
    }

    /** Each way of loading an entry; all must give the same bytes. */
    private static final Map<String, LoadOptions> LOADS = Map.of(
            "whole read, libdeflate", LoadOptions.defaults(),
            "whole read, Inflater", LoadOptions.defaults().withInflation(LoadOptions.Inflation.BLOCKS),
            "block pipeline, whole inflate", LoadOptions.defaults().withWholeReadBytes(0),
            "block pipeline, per-block inflate", LoadOptions.defaults().withWholeReadBytes(0)
                    .withInflation(LoadOptions.Inflation.BLOCKS));

    private static List<byte[]> expected(String name) throws IOException {
        List<byte[]> files = new ArrayList<>();
        for (int i = 0; Files.exists(dir.resolve(name + ".expected/" + i)); i++) {
            files.add(Files.readAllBytes(dir.resolve(name + ".expected/" + i)));
        }
        return files;
    }

    /** Reads every entry of {@code name}.zip by every path, checks the bytes; returns the warnings. */
    private static List<String> readsRightEverywhere(String name) throws IOException {
        Path zip = dir.resolve(name + ".zip");
        List<byte[]> expected = expected(name);
        List<String> warnings = new ArrayList<>();
        for (Map.Entry<String, LoadOptions> load : LOADS.entrySet()) {
            try (Archive archive = Archive.open(zip, load.getValue())) {
                List<ArchiveEntry> entries = archive.entries();
                assertEquals(expected.size(), entries.size());
                List<String> names = new ArrayList<>();
                for (int i = 0; i < entries.size(); i++) {
                    names.add(entries.get(i).name());
                    try (LoadedFile f = archive.load(entries.get(i))) {
                        assertArrayEquals(expected.get(i), f.segment().toArray(ValueLayout.JAVA_BYTE),
                                load.getKey() + ": " + entries.get(i).name());
                    }
                    try (InputStream in = archive.openStream(entries.get(i))) {
                        assertArrayEquals(expected.get(i), in.readAllBytes(), "stream: " + entries.get(i).name());
                    }
                }
                try (ArchiveLoader loader = archive.loader(names, LookAhead.defaults())) {
                    for (int i = 0; i < names.size(); i++) {
                        try (LoadedFile f = loader.next()) {
                            assertArrayEquals(expected.get(i), f.segment().toArray(ValueLayout.JAVA_BYTE),
                                    "look-ahead: " + names.get(i));
                        }
                    }
                }
                assertEquals(List.of(), archive.verifyAll());
                warnings = archive.warnings();
            }
        }
        return warnings;
    }

    private static void assertSays(List<String> warnings, String... parts) {
        String all = String.join("\n", warnings);
        for (String part : parts) {
            assertTrue(all.contains(part), "warnings '" + all + "' should say '" + part + "'");
        }
    }

    @Test
    void aTrailerAfterTheEndRecordIsReadAndSaid() throws IOException {
        List<String> warnings = readsRightEverywhere("trailer");
        assertSays(warnings, "trailer.zip", "320 bytes after the end of central directory record at offset");
    }

    @Test
    void anEntryNameHoldingTheZip64LocatorSignatureIsAName() throws IOException {
        assertEquals(List.of(), readsRightEverywhere("locator-name"));
        try (Archive archive = Archive.open(dir.resolve("locator-name.zip"))) {
            assertEquals("names/PK\u0006\u0007", archive.entries().get(1).name());
        }
    }

    @Test
    void bytesAfterTheEndOfADeflateStreamAreReadAndSaid() throws IOException {
        List<String> warnings = readsRightEverywhere("deflate-tail");
        assertSays(warnings, "deflate-tail.zip: entry tail/0.txt (local header at offset 0) has 3 bytes after "
                + "the end of its compressed stream", "entry tail/1.txt", "has 16 bytes after");
    }

    @Test
    void bytesBeforeTheArchiveAreAPrefixItsOffsetsCountFrom() throws IOException {
        List<String> warnings = readsRightEverywhere("prefix");
        assertSays(warnings, "prefix.zip: 166 bytes before the archive (a prefix such as a self-extractor's stub)");
    }
}
