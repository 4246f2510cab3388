package org.hpio.archive;

import org.hpio.internal.sys.NativeAccess;
import org.hpio.internal.sys.Libdeflate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link WholeEntryDecoder}: libdeflate and {@code java.util.zip.Inflater} give the same bytes for good data and
 * the same verdict (an error naming the entry) for bad data: corrupt streams, truncated ones, trailing bytes,
 * sizes that lie, a wrong CRC-32. Each case runs on both paths ({@code native} true needs Debian's
 * libdeflate0; the test is skipped for that path without it).
 */
class WholeEntryDecoderTest {
    static byte[] deflate(byte[] data, int level) {
        Deflater d = new Deflater(level, true);
        d.setInput(data);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return out.toByteArray();
    }

    static long crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }

    private static ArchiveEntry entry(byte[] compressed, long size, long crc) {
        return new ArchiveEntry("dir/file.bin", ZipFormat.DEFLATED, 0, crc, compressed.length, size, 0, 0);
    }

    /** Decodes {@code compressed} as the entry says into a destination of its claimed size; returns the bytes. */
    private static byte[] decode(ArchiveEntry e, byte[] compressed, boolean nativeInflate) throws ArchiveFormatException {
        return decode(e, compressed, nativeInflate, new ArchiveWarnings());
    }

    private static byte[] decode(ArchiveEntry e, byte[] compressed, boolean nativeInflate, ArchiveWarnings warnings)
            throws ArchiveFormatException {
        if (nativeInflate && NativeAccess.available()) { // off: Inflater, the fallback under test
            assumeTrue(Libdeflate.available(), "libdeflate missing (install Debian's libdeflate0): "
                    + Libdeflate.unavailableReason());
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocate(Math.max(1, compressed.length)).asSlice(0, compressed.length);
            in.copyFrom(MemorySegment.ofArray(compressed));
            MemorySegment out = arena.allocate(Math.max(1, e.uncompressedSize())).asSlice(0, e.uncompressedSize());
            WholeEntryDecoder.decode("test.zip", e, in, out, nativeInflate, warnings);
            return out.toArray(ValueLayout.JAVA_BYTE);
        }
    }

    private static void assertFails(ArchiveEntry e, byte[] compressed, boolean nativeInflate, String what) {
        ArchiveFormatException x = assertThrows(ArchiveFormatException.class, () -> decode(e, compressed, nativeInflate));
        assertTrue(x.getMessage().contains("test.zip") && x.getMessage().contains("entry dir/file.bin"), x.getMessage());
        assertTrue(x.getMessage().contains(what), x.getMessage() + " should say " + what);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void bothPathsGiveTheOriginalBytes(boolean nativeInflate) throws ArchiveFormatException {
        for (int size : new int[]{0, 1, 17, 4096, 65_537, 1_000_003}) {
            for (int level : new int[]{0, 1, 9}) {
                byte[] data = size % 2 == 1 ? TestTrees.text(size, size) : TestTrees.random(size, size);
                byte[] c = deflate(data, level);
                assertArrayEquals(data, decode(entry(c, size, crc(data)), c, nativeInflate), size + " at " + level);
            }
        }
    }

    @Test
    void bothPathsAgreeOnEveryTruncationAndBitFlip() {
        assumeTrue(Libdeflate.available(), "libdeflate missing (install Debian's libdeflate0)");
        byte[] data = ArchiveLoadTest.mixed(20_000, 7);
        byte[] c = deflate(data, 6);
        for (int i = 0; i < c.length; i += 37) {
            byte[] flipped = c.clone();
            flipped[i] ^= (byte) (1 << (i % 8));
            assertSameVerdict(entry(flipped, data.length, crc(data)), flipped, data);
            byte[] cut = Arrays.copyOf(c, i);
            assertSameVerdict(entry(cut, data.length, crc(data)), cut, data);
        }
    }

    private static void assertSameVerdict(ArchiveEntry e, byte[] compressed, byte[] original) {
        byte[] a = null;
        byte[] b = null;
        try {
            a = decode(e, compressed, true);
        } catch (ArchiveFormatException x) {
            assertTrue(x.getMessage().contains("entry dir/file.bin"), x.getMessage());
        }
        try {
            b = decode(e, compressed, false);
        } catch (ArchiveFormatException x) {
            assertTrue(x.getMessage().contains("entry dir/file.bin"), x.getMessage());
        }
        assertTrue((a == null) == (b == null), "libdeflate " + (a == null ? "refused" : "accepted")
                + " what Inflater " + (b == null ? "refused" : "accepted"));
        if (a != null) { // accepted: the CRC matched, so both are the original
            assertArrayEquals(original, a);
            assertArrayEquals(original, b);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void corruptDataIsAnErrorNamingTheEntry(boolean nativeInflate) {
        byte[] data = TestTrees.text(10_000, 3);
        byte[] c = deflate(data, 6);
        byte[] bad = c.clone();
        bad[0] = (byte) 0xFF; // block type 3: reserved
        assertFails(entry(bad, data.length, crc(data)), bad, nativeInflate, "Deflate");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aTruncatedStreamIsAnError(boolean nativeInflate) {
        byte[] data = TestTrees.random(10_000, 3);
        byte[] c = deflate(data, 6);
        byte[] cut = Arrays.copyOf(c, c.length / 2);
        assertFails(entry(cut, data.length, crc(data)), cut, nativeInflate, "compressed bytes do");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void bytesAfterTheStreamAreReadAndSaid(boolean nativeInflate) throws ArchiveFormatException {
        byte[] data = TestTrees.text(10_000, 3);
        byte[] c = Arrays.copyOf(deflate(data, 6), deflate(data, 6).length + 5);
        ArchiveWarnings warnings = new ArchiveWarnings();
        assertArrayEquals(data, decode(entry(c, data.length, crc(data)), c, nativeInflate, warnings));
        assertEquals(1, warnings.all().size());
        assertTrue(warnings.all().getFirst().contains("test.zip: entry dir/file.bin")
                && warnings.all().getFirst().contains("has 5 bytes after the end of its compressed stream"),
                warnings.all().getFirst());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void bytesAfterTheStreamOfAnEntryWhoseSizeLiesAreAnError(boolean nativeInflate) {
        byte[] data = TestTrees.text(10_000, 3);
        byte[] c = Arrays.copyOf(deflate(data, 6), deflate(data, 6).length + 5);
        assertFails(entry(c, data.length + 1, crc(data)), c, nativeInflate, "the directory says 10001");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aSizeThatLiesIsAnError(boolean nativeInflate) {
        byte[] data = TestTrees.text(10_000, 3);
        byte[] c = deflate(data, 6);
        assertFails(entry(c, data.length - 1, crc(data)), c, nativeInflate, "more than its size of 9999 bytes");
        assertFails(entry(c, data.length + 1, crc(data)), c, nativeInflate, "holds 10000 bytes, the directory says 10001");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aWrongCrcIsAnError(boolean nativeInflate) {
        byte[] data = TestTrees.text(10_000, 3);
        byte[] c = deflate(data, 6);
        assertFails(entry(c, data.length, crc(data) ^ 1), c, nativeInflate, "CRC-32");
    }
}
