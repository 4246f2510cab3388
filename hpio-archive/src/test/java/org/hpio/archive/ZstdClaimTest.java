package org.hpio.archive;

import org.hpio.internal.sys.Libzstd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Found by review (session 29): Zstandard's expansion bound (32768:1) still lets 128 KiB of data claim 4 GiB, which
 * a load allocated before decoding showed the claim false (an OutOfMemoryError in the tests' 2 GiB heap, or
 * direct memory refused). Such a claim is checked against the data first, as bzip2's is.
 */
class ZstdClaimTest {
    @TempDir
    Path dir;

    @Test
    void aZstandardEntryClaimingFourGibibytesIsRefusedWithoutAllocatingThem() throws Exception {
        assumeTrue(Libzstd.available(), "libzstd missing (install Debian's libzstd1): " + Libzstd.unavailableReason());
        ByteArrayOutputStream data = new ByteArrayOutputStream();   // compresses, to at least 128 KiB
        data.writeBytes(TestTrees.random(150_000, 5));
        data.writeBytes(TestTrees.text(100_000, 6));
        Map<String, byte[]> files = Map.of("noise.bin", data.toByteArray());
        TestTrees.write(dir.resolve("tree"), files);
        Path zip = dir.resolve("z.zip");
        new ArchiveBuilder(dir.resolve("tree")).zstdLevel(3).addAll(files.keySet()).write(zip);
        byte[] b = Files.readAllBytes(zip);
        HostileArchiveTest.Zip z = HostileArchiveTest.Zip.of(b);
        z.putInt(z.headers()[0] + 24, 0xffff_fff0L);   // 4 GiB, more than the direct memory the tests may use
        Path bad = dir.resolve("bad.zip");
        Files.write(bad, b);
        CompressedEntryContractTest.assertSameErrorEveryWay(bad, "noise.bin", "bad.zip", "entry noise.bin",
                "the directory says 4294967280");
    }
}
