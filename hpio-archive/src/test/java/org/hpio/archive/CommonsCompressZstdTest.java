package org.hpio.archive;

import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.apache.commons.compress.archivers.zip.ZipMethod;
import org.apache.commons.compress.compressors.zstandard.ZstdCompressorOutputStream;
import org.hpio.internal.sys.Libzstd;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Zstandard entries (method 93) both ways with Apache Commons Compress 1.28 (its Zstandard codec is zstd-jni's,
 * whose jar carries the JNI library for Linux x86-64): Commons Compress reads what hpio writes; hpio reads what
 * Commons Compress writes (as raw entries, since its Zip writer compresses only Deflate itself).
 */
class CommonsCompressZstdTest {
    @TempDir
    Path dir;

    @BeforeEach
    void needsLibzstd() throws IOException {
        assumeTrue(Libzstd.available(), "libzstd missing (Debian's libzstd1): " + Libzstd.unavailableReason());
        TestTrees.write(dir.resolve("tree"), ZstdInteropTest.files());
    }

    @Test
    void commonsCompressReadsWhatHpioWrites() throws IOException {
        Path zip = dir.resolve("hpio.zip");
        new ArchiveBuilder(dir.resolve("tree")).zstdLevel(3).addAll(ZstdInteropTest.files().keySet()).write(zip);
        commonsCompressReadsTheFiles(zip);
    }

    @Test
    void commonsCompressReadsFastDecodeEntries() throws IOException {
        assumeTrue(Libzstd.fastDecodeSupported(), "this libzstd cannot store literals raw");
        Path zip = dir.resolve("fast.zip");
        new ArchiveBuilder(dir.resolve("tree")).zstd(9, true).addAll(ZstdInteropTest.files().keySet()).write(zip);
        commonsCompressReadsTheFiles(zip);
    }

    private static void commonsCompressReadsTheFiles(Path zip) throws IOException {
        try (ZipFile z = ZipFile.builder().setPath(zip).get()) {
            for (Map.Entry<String, byte[]> file : ZstdInteropTest.files().entrySet()) {
                ZipArchiveEntry entry = z.getEntry(file.getKey());
                assertEquals(file.getKey().endsWith(".txt") && file.getValue().length > 0 ? ZipMethod.ZSTD.getCode()
                        : ZipMethod.STORED.getCode(), entry.getMethod(), file.getKey());
                try (InputStream in = z.getInputStream(entry)) {
                    assertArrayEquals(file.getValue(), in.readAllBytes(), file.getKey());
                }
            }
        }
    }

    @Test
    void hpioReadsWhatCommonsCompressWrites() throws IOException {
        Path zip = dir.resolve("commons.zip");
        try (ZipArchiveOutputStream out = new ZipArchiveOutputStream(zip)) {
            for (Map.Entry<String, byte[]> file : ZstdInteropTest.files().entrySet()) {
                byte[] compressed = zstd(file.getValue());
                ZipArchiveEntry entry = new ZipArchiveEntry(file.getKey());
                entry.setMethod(ZipMethod.ZSTD.getCode());
                entry.setSize(file.getValue().length);
                entry.setCompressedSize(compressed.length);
                CRC32 crc = new CRC32();
                crc.update(file.getValue());
                entry.setCrc(crc.getValue());
                out.addRawArchiveEntry(entry, new ByteArrayInputStream(compressed));
            }
        }
        try (Archive a = Archive.open(zip)) {
            assertEquals(List.of(), a.verifyAll());
            for (Map.Entry<String, byte[]> file : ZstdInteropTest.files().entrySet()) {
                try (LoadedFile f = a.load(file.getKey())) {
                    assertEquals(ArchiveEntry.ZSTD, a.entry(file.getKey()).orElseThrow().method());
                    assertArrayEquals(file.getValue(), f.segment().toArray(ValueLayout.JAVA_BYTE), file.getKey());
                }
            }
        }
    }

    private static byte[] zstd(byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZstdCompressorOutputStream z = ZstdCompressorOutputStream.builder().setOutputStream(bytes).get()) {
            z.write(data);
        }
        return bytes.toByteArray();
    }
}
