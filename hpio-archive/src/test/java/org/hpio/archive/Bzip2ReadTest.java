package org.hpio.archive;

import org.hpio.internal.sys.Libbz2;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * bzip2 entries (method 12, issue 20), as Python's {@code zipfile} writes them, read through libbz2 with the right
 * bytes by every path ({@link CompressedEntryContractTest#everyWay}), and damaged ones refused the same way.
 */
class Bzip2ReadTest {
    @TempDir
    Path dir;

    @BeforeEach
    void needsLibbz2AndPython() throws IOException {
        assumeTrue(Libbz2.available(), "libbz2 missing (Debian's libbz2-1.0): " + Libbz2.unavailableReason());
        Tools.assumeInstalled("python3", "python3");
        TestTrees.write(dir.resolve("tree"), CompressedEntryContractTest.files());
    }

    private Path pythonBzip2Zip() throws Exception {
        Path zip = dir.resolve("bz2.zip");
        Tools.Result r = Tools.run(dir.resolve("tree"), List.of("python3", "-c", """
                import sys, zipfile
                with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_BZIP2) as z:
                    for n in sys.argv[2:]: z.write(n)
                """, zip.toString(), "small.txt", "large/text.txt", "noise.bin"));
        assertEquals(0, r.exitCode(), r.output());
        return zip;
    }

    @Test
    void everyPathReadsPythonsBzip2Entries() throws Exception {
        Path zip = pythonBzip2Zip();
        try (Archive a = Archive.open(zip)) {
            assertEquals(ArchiveEntry.BZIP2, a.entry("large/text.txt").orElseThrow().method());
            assertEquals(List.of(), a.verifyAll());
        }
        for (Map.Entry<String, byte[]> file : CompressedEntryContractTest.files().entrySet()) {
            CompressedEntryContractTest.everyWay(zip, file.getKey()).forEach((way, result) -> assertEquals(
                    CompressedEntryContractTest.expected(file.getValue()), result, way + ": " + file.getKey()));
        }
    }

    @Test
    void aDamagedBzip2EntryFailsTheSameEveryWay() throws Exception {
        Path zip = pythonBzip2Zip();
        byte[] b = Files.readAllBytes(zip);
        long data;
        try (Archive a = Archive.open(zip)) {
            ArchiveEntry e = a.entry("small.txt").orElseThrow();
            ByteBuffer local = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            data = e.localHeaderOffset() + ZipFormat.LOCAL_HEADER_SIZE
                    + Short.toUnsignedInt(local.getShort((int) e.localHeaderOffset() + 26))
                    + Short.toUnsignedInt(local.getShort((int) e.localHeaderOffset() + 28));
        }
        for (int i = 0; i < 16; i++) {
            b[(int) data + 20 + i] ^= (byte) 0x5a; // inside the first block, past the stream and block headers
        }
        Path bad = dir.resolve("bad.zip");
        Files.write(bad, b);
        CompressedEntryContractTest.assertSameErrorEveryWay(bad, "small.txt", "bad.zip", "entry small.txt",
                "bad bzip2 data: BZ_DATA_ERROR");
    }

    /**
     * bzip2 has no useful expansion bound, so a claimed size of 2 GiB from a few hundred compressed bytes (what
     * {@code ArchiveOpenFuzzTest} found) must be refused from the data, not by allocating 2 GiB first: with the
     * tests' 2 GiB heap the old whole-entry read died of an OutOfMemoryError.
     */
    @Test
    void aBzip2EntryClaimingTwoGibibytesIsRefusedWithoutAllocatingThem() throws Exception {
        Path zip = pythonBzip2Zip();
        byte[] b = Files.readAllBytes(zip);
        HostileArchiveTest.Zip z = HostileArchiveTest.Zip.of(b);
        z.putInt(z.headers()[0] + 24, 0x7fff_fff0L);
        Path bad = dir.resolve("bad.zip");
        Files.write(bad, b);
        CompressedEntryContractTest.assertSameErrorEveryWay(bad, "small.txt", "bad.zip", "entry small.txt",
                "the directory says 2147483632");
    }
}
