package org.hpio.internal.sys;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.hpio.internal.sys.CStructOffsets.offsetof;
import static org.hpio.internal.sys.CStructOffsets.sizeof;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Libzstd and Libbz2 (issue 20): round trips, errors, and bz_stream's layout against bzlib.h. */
class NativeCodecsTest {
    /** Python's {@code bz2.compress(b'hello bzip2 ' * 100)}. */
    private static final byte[] BZIP2 = HexFormat.of().parseHex("425a6839314159265359a826874c00012b9980400010001264"
            + "c0102000508018052a8d193d4e117645f11688b645d11611708b045845845f8bb9229c2848541343a600");

    private static byte[] text(int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) "the quick brown fox jumps over the lazy dog ".charAt((i * 7 + i / 97) % 44);
        }
        return b;
    }

    @Test
    void zstdWholeBuffersRoundTripAndSayWhatIsWrong() {
        assumeTrue(Libzstd.available(), Libzstd.unavailableReason());
        byte[] data = text(300_000);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocateFrom(ValueLayout.JAVA_BYTE, data);
            MemorySegment frame = arena.allocate(Libzstd.compressBound(data.length));
            long n = Libzstd.compress(in, frame, 3);
            assertTrue(n > 0 && n < data.length / 4, "compressed to " + n);
            MemorySegment withTail = arena.allocate(n + 5);
            withTail.copyFrom(frame.asSlice(0, n));
            MemorySegment out = arena.allocate(data.length);
            Libzstd.Decoded d = Libzstd.decompress(withTail, out);
            assertNull(d.error());
            assertEquals(n, d.consumed(), "the first frame ends where it ends; the 5 bytes after are not read");
            assertEquals(data.length, d.produced());
            assertArrayEquals(data, out.toArray(ValueLayout.JAVA_BYTE));
            Libzstd.Decoded small = Libzstd.decompress(frame.asSlice(0, n), out.asSlice(0, data.length - 1));
            assertTrue(small.tooSmall(), small.toString());
            Libzstd.Decoded cut = Libzstd.decompress(frame.asSlice(0, n / 2), out);
            assertNotNull(cut.error());
            assertFalse(cut.tooSmall());
            Libzstd.Decoded heap = Libzstd.decompress(MemorySegment.ofArray(frame.asSlice(0, n)
                    .toArray(ValueLayout.JAVA_BYTE)), MemorySegment.ofArray(new byte[data.length]));
            assertNull(heap.error(), "heap segments go through a critical downcall");
        }
    }

    @Test
    void zstdStreamsRoundTrip() {
        assumeTrue(Libzstd.available(), Libzstd.unavailableReason());
        byte[] data = text(1_000_000);
        try (Arena arena = Arena.ofConfined();
             Libzstd.Compressor c = new Libzstd.Compressor(5, data.length);
             Libzstd.Decompressor d = new Libzstd.Decompressor()) {
            MemorySegment in = arena.allocateFrom(ValueLayout.JAVA_BYTE, data);
            MemorySegment frame = arena.allocate(Libzstd.compressBound(data.length));
            long left = c.step(in, frame, true);
            assertEquals(0, left);
            assertEquals(data.length, c.consumed());
            long n = c.produced();
            MemorySegment out = arena.allocate(data.length);
            long produced = 0;
            for (long at = 0; !d.frameEnded(); ) { // 1000-byte pieces of input
                long piece = Math.min(1000, n - at);
                assertNull(d.step(frame.asSlice(at, piece), out.asSlice(produced)));
                at += d.consumed();
                produced += d.produced();
            }
            assertEquals(data.length, produced);
            assertArrayEquals(data, out.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /**
     * Decoding into one fixed output (the stable output buffer the look-ahead loader decodes arriving pieces
     * with), fed in uneven pieces, gives the frame's bytes; an output one byte short is an error, not a wait.
     */
    @Test
    void zstdDecodesInPlaceIntoAStableOutput() {
        assumeTrue(Libzstd.stableOutputSupported(), "libzstd 1.4.4 to 1.5 is needed");
        byte[] data = new byte[1_500_000];
        byte[] noise = new byte[50_000];
        new Random(7).nextBytes(noise);
        for (int at = 0; at < data.length; at += 100_000) {   // text with incompressible stretches
            System.arraycopy(text(100_000), 0, data, at, 100_000);
            System.arraycopy(noise, 0, data, at + 20_000, noise.length);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocateFrom(ValueLayout.JAVA_BYTE, data);
            MemorySegment frame = arena.allocate(Libzstd.compressBound(data.length));
            long n = Libzstd.compress(in, frame, new Libzstd.Settings(9, Libzstd.fastDecodeSupported()));
            MemorySegment out = arena.allocate(data.length);
            try (Libzstd.Decompressor d = new Libzstd.Decompressor()) {
                long produced = 0;
                int piece = 1;
                for (long at = 0; !d.frameEnded(); piece = piece * 3 % 70_001 + 1) {
                    assertNull(d.stepInto(frame.asSlice(at, Math.min(piece, n - at)), out, produced));
                    at += d.consumed();
                    assertTrue(d.produced() >= produced);
                    produced = d.produced();
                }
                assertEquals(data.length, produced);
            }
            assertArrayEquals(data, out.toArray(ValueLayout.JAVA_BYTE));
            try (Libzstd.Decompressor d = new Libzstd.Decompressor()) {
                assertNotNull(d.stepInto(frame.asSlice(0, n), out.asSlice(0, data.length - 1), 0),
                        "a frame longer than its output fails");
            }
        }
    }

    @Test
    void zstdFastDecodeFramesStoreLiteralsRawAndRoundTrip() {
        assumeTrue(Libzstd.available(), Libzstd.unavailableReason());
        byte[] data = words(400_000);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocateFrom(ValueLayout.JAVA_BYTE, data);
            byte[] plain = frame(arena, in, new Libzstd.Settings(9, false));
            byte[] fast = frame(arena, in, new Libzstd.Settings(9, true));
            assertTrue(literalTypes(plain).contains(HUFFMAN_LITERALS),
                    "a default frame Huffman-codes some literals: " + literalTypes(plain));
            assertTrue(!literalTypes(fast).isEmpty() && literalTypes(fast).stream().allMatch(t -> t <= RLE_LITERALS),
                    "fast decode keeps every literal section raw (or RLE): " + literalTypes(fast));
            assertTrue(fast.length > plain.length && fast.length < data.length / 2,
                    "fast decode costs some size, not all: " + plain.length + " -> " + fast.length);
            MemorySegment out = arena.allocate(data.length);
            Libzstd.Decoded d = Libzstd.decompress(arena.allocateFrom(ValueLayout.JAVA_BYTE, fast), out);
            assertNull(d.error());
            assertArrayEquals(data, out.toArray(ValueLayout.JAVA_BYTE));
        }
        try (Arena arena = Arena.ofConfined();
             Libzstd.Compressor c = new Libzstd.Compressor(new Libzstd.Settings(9, true), data.length)) {
            MemorySegment frame = arena.allocate(Libzstd.compressBound(data.length));
            assertEquals(0, c.step(arena.allocateFrom(ValueLayout.JAVA_BYTE, data), frame, true));
            byte[] streamed = frame.asSlice(0, c.produced()).toArray(ValueLayout.JAVA_BYTE);
            assertTrue(literalTypes(streamed).stream().allMatch(t -> t <= RLE_LITERALS), "streamed frames too");
            MemorySegment out = arena.allocate(data.length);
            assertNull(Libzstd.decompress(arena.allocateFrom(ValueLayout.JAVA_BYTE, streamed), out).error());
            assertArrayEquals(data, out.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void zstdSettingsRefuseLevelsLibzstdDoesNotHave() {
        assertThrows(IllegalArgumentException.class, () -> new Libzstd.Settings(0, true));
        assertThrows(IllegalArgumentException.class, () -> new Libzstd.Settings(23, false));
    }

    private static final int RLE_LITERALS = 1;
    private static final int HUFFMAN_LITERALS = 2;

    private static byte[] frame(Arena arena, MemorySegment in, Libzstd.Settings settings) {
        MemorySegment out = arena.allocate(Libzstd.compressBound(in.byteSize()));
        long n = Libzstd.compress(in, out, settings);
        return out.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
    }

    /** Text of random words: literals worth Huffman coding, matches of every length. */
    private static byte[] words(int size) {
        String[] vocabulary = new String[400];
        Random random = new Random(20);
        for (int i = 0; i < vocabulary.length; i++) {
            StringBuilder w = new StringBuilder();
            for (int n = 2 + random.nextInt(8); n > 0; n--) {
                w.append((char) ('a' + random.nextInt(26)));
            }
            vocabulary[i] = w.toString();
        }
        StringBuilder text = new StringBuilder(size + 16);
        while (text.length() < size) {
            text.append(vocabulary[(int) Math.abs(random.nextGaussian() * 60) % vocabulary.length]).append(' ');
        }
        return text.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The Literals_Block_Type (RFC 8878 §3.1.1.3.1: 0 raw, 1 RLE, 2 Huffman, 3 treeless) of each compressed block of
     * one frame.
     */
    private static List<Integer> literalTypes(byte[] frame) {
        int descriptor = frame[4] & 0xff;
        boolean singleSegment = (descriptor & 0x20) != 0;
        int[] dictIdSizes = {0, 1, 2, 4};
        int[] contentSizeSizes = {singleSegment ? 1 : 0, 2, 4, 8};
        int at = 5 + (singleSegment ? 0 : 1) + dictIdSizes[descriptor & 3] + contentSizeSizes[descriptor >>> 6];
        List<Integer> types = new ArrayList<>();
        while (true) {
            int header = (frame[at] & 0xff) | (frame[at + 1] & 0xff) << 8 | (frame[at + 2] & 0xff) << 16;
            int type = header >>> 1 & 3;
            int size = header >>> 3;
            if (type == 2) {
                types.add(frame[at + 3] & 3);
            }
            at += 3 + (type == 1 ? 1 : size);
            if ((header & 1) != 0) {
                return types;
            }
        }
    }

    @Test
    void bzip2DecodesPythonsStreamAndRefusesDamage() {
        assumeTrue(Libbz2.available(), Libbz2.unavailableReason());
        byte[] expected = "hello bzip2 ".repeat(100).getBytes();
        try (Arena arena = Arena.ofConfined(); Libbz2.Decompressor d = new Libbz2.Decompressor()) {
            MemorySegment out = arena.allocate(expected.length + 10);
            assertNull(d.step(arena.allocateFrom(ValueLayout.JAVA_BYTE, BZIP2), out));
            assertTrue(d.streamEnded());
            assertEquals(BZIP2.length, d.consumed());
            assertEquals(expected.length, d.produced());
            assertArrayEquals(expected, out.asSlice(0, expected.length).toArray(ValueLayout.JAVA_BYTE));
        }
        byte[] damaged = BZIP2.clone();
        damaged[20] ^= 0x55;
        try (Arena arena = Arena.ofConfined(); Libbz2.Decompressor d = new Libbz2.Decompressor()) {
            String error = d.step(arena.allocateFrom(ValueLayout.JAVA_BYTE, damaged), arena.allocate(4096));
            assertNotNull(error);
            assertTrue(error.startsWith("BZ_DATA_ERROR"), error);
        }
    }

    @Test
    void closingTwiceFreesOnce() {
        if (Libzstd.available()) {
            Libzstd.Decompressor d = new Libzstd.Decompressor();
            d.close();
            d.close();
            Libzstd.Compressor c = new Libzstd.Compressor(3, 10);
            c.close();
            c.close();
        }
        if (Libbz2.available()) {
            Libbz2.Decompressor b = new Libbz2.Decompressor();
            b.close();
            b.close();
        }
    }

    @Test
    void bzStreamLayoutIsBzlibs() {
        Map<String, Long> c = CStructOffsets.evaluate(List.of("bzlib.h"), List.of(sizeof("bz_stream"),
                offsetof("bz_stream", "next_in"), offsetof("bz_stream", "avail_in"),
                offsetof("bz_stream", "next_out"), offsetof("bz_stream", "avail_out")));
        assertEquals(List.of(80L, 0L, 8L, 24L, 32L), List.copyOf(c.values()));
    }
}
