package org.hpio.archive;

import org.hpio.internal.sys.Libzstd;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Zstandard entries (method 93) both ways with Python's {@code zipfile} and the {@code zipfile-zstd} package
 * from PyPI ({@code ./hpio test} installs it; the test skips, saying so, without it): Python reads what hpio
 * writes, and hpio reads what Python writes, to a file (sizes in the local headers) and to a stream (data
 * descriptors after each entry, APPNOTE §4.3.9).
 */
class ZstdInteropTest {
    @TempDir
    Path dir;

    static Map<String, byte[]> files() {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("a/small.txt", TestTrees.text(20_000, 1));
        files.put("a/large.txt", TestTrees.text(2_000_000, 2));
        files.put("noise.bin", TestTrees.random(100_000, 3));
        files.put("empty.txt", new byte[0]);
        return files;
    }

    @BeforeEach
    void needsPythonZstd() throws Exception {
        assumeTrue(Libzstd.available(), "libzstd missing (Debian's libzstd1): " + Libzstd.unavailableReason());
        Tools.assumeInstalled("python3", "python3");
        Tools.Result r = Tools.run(dir, List.of("python3", "-c", "import zipfile_zstd"));
        assumeTrue(r.exitCode() == 0, "Python's zipfile-zstd (PyPI) is not installed; ./hpio test installs it");
        TestTrees.write(dir.resolve("tree"), files());
    }

    @Test
    void pythonReadsWhatHpioWrites() throws Exception {
        Path zip = dir.resolve("hpio.zip");
        new ArchiveBuilder(dir.resolve("tree")).zstdLevel(5).addAll(files().keySet()).write(zip);
        pythonReadsTheSameFiles(zip);
    }

    @Test
    void fastDecodeEntriesAreOrdinaryZstandardThatPythonAndHpioRead() throws Exception {
        assumeTrue(Libzstd.fastDecodeSupported(), "this libzstd cannot store literals raw");
        Path zip = dir.resolve("fast.zip");
        new ArchiveBuilder(dir.resolve("tree")).zstd(9, true).inMemoryLimit(1 << 20) // a/large.txt streams
                .addAll(files().keySet()).write(zip);
        pythonReadsTheSameFiles(zip);
        readsEveryWay(zip);
    }

    /** Python reads {@code zip} (hpio's archive of {@link #files()}) and finds the files' bytes. */
    private void pythonReadsTheSameFiles(Path zip) throws Exception {
        try (Archive a = Archive.open(zip)) {
            assertEquals(ArchiveEntry.ZSTD, a.entry("a/large.txt").orElseThrow().method());
        }
        Tools.Result r = Tools.run(dir.resolve("tree"), List.of("python3", "-c", """
                import sys, zipfile_zstd as zipfile
                with zipfile.ZipFile(sys.argv[1]) as z:
                    assert z.testzip() is None
                    for info in z.infolist():
                        assert z.read(info) == open(info.filename, 'rb').read(), info.filename
                        print(info.filename, info.compress_type)
                """, zip.toString()));
        assertEquals(0, r.exitCode(), r.output());
        assertEquals("a/small.txt 93\na/large.txt 93\nnoise.bin 0\nempty.txt 0\n", r.output());
    }

    @Test
    void hpioReadsWhatPythonWritesToAFileAndToAStream() throws Exception {
        Tools.Result r = Tools.run(dir.resolve("tree"), List.of("python3", "-c", """
                import sys, zipfile_zstd as zipfile
                class Stream:  # no seek, no tell: zipfile writes data descriptors
                    def __init__(self, f): self.f = f
                    def write(self, b): return self.f.write(b)
                    def flush(self): self.f.flush()
                names = sys.argv[3:]
                with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_ZSTANDARD, compresslevel=3) as z:
                    for n in names: z.write(n)
                with open(sys.argv[2], 'wb') as f, zipfile.ZipFile(Stream(f), 'w', zipfile.ZIP_ZSTANDARD) as z:
                    for n in names: z.write(n)
                """, dir.resolve("py-file.zip").toString(), dir.resolve("py-stream.zip").toString(),
                "a/small.txt", "a/large.txt", "noise.bin", "empty.txt"));
        assertEquals(0, r.exitCode(), r.output());
        for (String zip : List.of("py-file.zip", "py-stream.zip")) {
            readsEveryWay(dir.resolve(zip));
        }
    }

    @Test
    void aZip64ArchiveOfZstdEntriesReadsBothWays() throws Exception {
        Path root = dir.resolve("many");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 70_000; i++) { // past the 16-bit entry count: Zip64 end records
            String name = "d" + (i % 100) + "/f" + i + ".txt";
            if (i < 100) {
                Files.createDirectories(root.resolve(name).getParent());
            }
            Files.writeString(root.resolve(name), ("file " + i + " of many, ").repeat(8));
            names.add(name);
        }
        Path zip = dir.resolve("many.zip");
        new ArchiveBuilder(root).zstdLevel(3).addAll(names).write(zip);
        try (Archive a = Archive.open(zip)) {
            assertEquals(70_000, a.entries().size());
            ArchiveEntry last = a.entry("d99/f69999.txt").orElseThrow();
            assertEquals(ArchiveEntry.ZSTD, last.method());
            try (LoadedFile f = a.load(last)) {
                assertEquals("file 69999 of many, ".repeat(8), new String(f.toByteArray()));
            }
        }
        Tools.Result r = Tools.run(dir, List.of("python3", "-c", """
                import sys, zipfile_zstd as zipfile
                with zipfile.ZipFile(sys.argv[1]) as z:
                    infos = z.infolist()
                    print(len(infos), infos[-1].compress_type, z.read('d99/f69999.txt').decode()[:16])
                """, zip.toString()));
        assertEquals(0, r.exitCode(), r.output());
        assertEquals("70000 93 file 69999 of ma\n", r.output());
    }

    private static void readsEveryWay(Path zip) throws IOException {
        for (LoadOptions options : List.of(LoadOptions.defaults(), LoadOptions.defaults().withWholeReadBytes(0))) {
            try (Archive a = Archive.open(zip, options)) {
                assertEquals(List.of(), a.verifyAll(), zip.toString());
                for (Map.Entry<String, byte[]> file : files().entrySet()) {
                    ArchiveEntry entry = a.entry(file.getKey()).orElseThrow();
                    try (LoadedFile f = a.load(entry)) {
                        assertArrayEquals(file.getValue(), f.segment().toArray(ValueLayout.JAVA_BYTE),
                                zip + ": " + entry.name());
                    }
                    try (InputStream in = a.openStream(entry)) {
                        assertArrayEquals(file.getValue(), in.readAllBytes(), zip + ", stream: " + entry.name());
                    }
                }
                try (ArchiveLoader loader = a.loader(List.copyOf(files().keySet()), LookAhead.defaults())) {
                    for (byte[] expected : files().values()) {
                        try (LoadedFile f = loader.next()) {
                            assertArrayEquals(expected, f.segment().toArray(ValueLayout.JAVA_BYTE), zip + ": look-ahead");
                        }
                    }
                }
            }
        }
    }
}
