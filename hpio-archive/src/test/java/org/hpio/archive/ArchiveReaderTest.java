package org.hpio.archive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Archive} reads what other tools write and finds damage, naming the entry or offset. */
class ArchiveReaderTest {
    @TempDir
    Path dir;

    private Map<String, byte[]> writeTree() throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("docs/readme.txt", TestTrees.text(20_000, 1));
        files.put("docs/noise.bin", TestTrees.random(3_000, 2));
        files.put("top.txt", TestTrees.text(10, 3));
        files.put("empty.txt", new byte[0]);
        TestTrees.write(dir.resolve("tree"), files);
        return files;
    }

    private static void assertReadsAll(Path zip, Map<String, byte[]> files) throws IOException {
        try (Archive archive = Archive.open(zip)) {
            int seen = 0;
            for (ArchiveEntry e : archive.entries()) {
                if (!e.isDirectory()) {
                    assertArrayEquals(files.get(e.name()), archive.read(e), e.name());
                    seen++;
                }
            }
            assertEquals(files.size(), seen);
            assertEquals(List.of(), archive.verifyAll());
        }
    }

    @Test
    void readsWhatZipDashRWrites() throws Exception {
        Tools.assumeInstalled("zip", "zip");
        Map<String, byte[]> files = writeTree();
        for (String level : List.of("-0", "-6")) {
            Path zip = dir.resolve("zip" + level + ".zip");
            Tools.Result r = Tools.run(dir.resolve("tree"), List.of("zip", "-r", "-q", level, zip.toString(), "."));
            assertEquals(0, r.exitCode(), r.output());
            assertReadsAll(zip, files);
        }
        try (Archive archive = Archive.open(dir.resolve("zip-6.zip"))) {
            assertEquals(ArchiveEntry.DEFLATED, archive.entry("docs/readme.txt").orElseThrow().method());
            assertTrue(archive.entries().stream().anyMatch(ArchiveEntry::isDirectory), "zip -r adds directories");
        }
    }

    @Test
    void readsWhatZipWritesToAPipeWithDataDescriptors() throws Exception {
        Tools.assumeInstalled("zip", "zip");
        Map<String, byte[]> files = writeTree();
        Path zip = dir.resolve("piped.zip");
        Tools.Result r = Tools.run(dir.resolve("tree"), List.of("sh", "-c",
                "zip -q -r - . | cat > " + zip));
        assertEquals(0, r.exitCode(), r.output());
        assertReadsAll(zip, files);
    }

    @Test
    void readsWhatPythonWrites() throws Exception {
        Tools.assumeInstalled("python3", "python3");
        Map<String, byte[]> files = writeTree();
        for (String method : List.of("ZIP_STORED", "ZIP_DEFLATED")) {
            Path zip = dir.resolve(method + ".zip");
            String script = "import zipfile,os,sys\n"
                    + "with zipfile.ZipFile(sys.argv[1], 'w', zipfile." + method + ") as z:\n"
                    + "  for d, _, fs in sorted(os.walk('.')):\n"
                    + "    for f in sorted(fs): z.write(os.path.join(d, f), os.path.relpath(os.path.join(d, f)))\n";
            Tools.Result r = Tools.run(dir.resolve("tree"), List.of("python3", "-c", script, zip.toString()));
            assertEquals(0, r.exitCode(), r.output());
            assertReadsAll(zip, files);
        }
    }

    @Test
    void aDamagedEntryFailsVerifyNamingIt() throws IOException {
        Map<String, byte[]> files = writeTree();
        Path zip = dir.resolve("out.zip");
        new ArchiveBuilder(dir.resolve("tree")).addAll(files.keySet()).write(zip);
        long offset;
        try (Archive archive = Archive.open(zip)) {
            offset = archive.dataOffset(archive.entry("docs/noise.bin").orElseThrow()) + 100;
        }
        flipByte(zip, offset);
        try (Archive archive = Archive.open(zip)) {
            List<IOException> problems = archive.verifyAll();
            assertEquals(1, problems.size());
            assertTrue(problems.getFirst().getMessage().contains("entry docs/noise.bin (local header at offset ")
                            && problems.getFirst().getMessage().contains(") has CRC-32"),
                    problems.getFirst().getMessage());
        }
    }

    @Test
    void damagedDeflateDataIsAnErrorNamingTheEntry() throws IOException {
        Map<String, byte[]> files = writeTree();
        Path zip = dir.resolve("out.zip");
        new ArchiveBuilder(dir.resolve("tree")).addAll(files.keySet()).write(zip);
        try (Archive archive = Archive.open(zip)) {
            ArchiveEntry e = archive.entry("docs/readme.txt").orElseThrow();
            assertEquals(ArchiveEntry.DEFLATED, e.method());
            for (long at = 0; at < e.compressedSize(); at++) {
                flipByte(zip, archive.dataOffset(e) + at);
                IOException problem = assertThrows(IOException.class, () -> archive.verify(e), "byte " + at);
                assertTrue(problem.getMessage().contains("docs/readme.txt"), problem.getMessage());
                flipByte(zip, archive.dataOffset(e) + at);
            }
            archive.verify(e);
        }
    }

    @Test
    void notAZipFileIsAClearError() throws IOException {
        Path file = dir.resolve("not.zip");
        Files.writeString(file, "hello");
        assertTrue(assertThrows(ArchiveFormatException.class, () -> Archive.open(file)).getMessage()
                .contains("too short"));
        Files.write(file, TestTrees.random(1000, 1));
        assertTrue(assertThrows(ArchiveFormatException.class, () -> Archive.open(file)).getMessage()
                .contains("no end of central directory"));
    }

    @Test
    void aTruncatedArchiveIsAClearError() throws IOException {
        Map<String, byte[]> files = writeTree();
        Path zip = dir.resolve("out.zip");
        new ArchiveBuilder(dir.resolve("tree")).addAll(files.keySet()).write(zip);
        byte[] bytes = Files.readAllBytes(zip);
        Path cut = dir.resolve("cut.zip");
        Files.write(cut, Arrays.copyOfRange(bytes, 200, bytes.length));
        assertThrows(ArchiveFormatException.class, () -> {
            try (Archive archive = Archive.open(cut)) {
                archive.verify(archive.entries().getFirst());
            }
        });
    }

    private static void flipByte(Path file, long offset) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, offset);
            b.put(0, (byte) (b.get(0) ^ 0x5a)).rewind();
            ch.write(b, offset);
        }
    }
}
