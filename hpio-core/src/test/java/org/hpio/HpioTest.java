package org.hpio;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileOptions;
import org.hpio.bulk.BulkRandomAccessFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * {@link Hpio} says what runs here, in both modes: with native calls on (the usual test JVM) and off (run again by
 * {@code NativeAccessDeniedTest} in a child JVM with native access denied, where the second half checks that the
 * features only native calls give fail naming the feature and the reason).
 */
class HpioTest {
    @TempDir
    Path dir;

    @Test
    void theFeaturesAgreeWithTheModeAndSayWhyWhenOff() throws Exception {
        List<Hpio.Feature> features = Hpio.features();
        assertEquals("native calls", features.getFirst().name());
        assertEquals(Hpio.nativeCalls(), features.getFirst().active());
        assertEquals(Hpio.nativeCalls(), Hpio.nativeCallsOffReason().isEmpty());
        for (Hpio.Feature f : features) {
            assertEquals(!f.active(), f.whyNot().isPresent(), f.toString());
            if (!Hpio.nativeCalls()) {
                assertFalse(f.active(), "with native calls off nothing native is active: " + f);
                assertTrue(f.whyNot().orElseThrow().contains("native"), f.toString());
            }
        }
        assertEquals(Hpio.engine().equals("uring"),
                features.stream().filter(f -> f.name().equals("io_uring")).findFirst().orElseThrow().active());
        String described = Hpio.describe();
        assertTrue(described.startsWith("engine: " + Hpio.engine() + "\n"), described);
        assertTrue(described.contains("libdeflate (Deflate): "), described);
    }

    @Test
    void withNativeCallsOffTheApisWorkAndONativeOnlyFeatureSaysWhy() throws Exception {
        assumeFalse(Hpio.nativeCalls(), "native calls are on: the portable mode is tested by NativeAccessDeniedTest");
        assertEquals("threads", Hpio.engine());
        Path file = dir.resolve("portable.bin");
        long[] longs = {1, -2, Long.MAX_VALUE, Long.MIN_VALUE};
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(file.toFile(), "rw")) {
            f.writeArray(longs, 0, longs.length);
        }
        try (AsyncFile f = new AsyncFile(file, "r")) {
            long[] back = new long[4];
            f.readArray(0, back).done();
            assertArrayEquals(longs, back);
        }
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> new AsyncFile(file, "r", AsyncFileOptions.defaults().withDirect(true)));
        assertTrue(e.getMessage().startsWith("O_DIRECT (opening " + file + ") needs hpio's native calls, which are "
                + "off: " + Hpio.nativeCallsOffReason().orElseThrow()), e.getMessage());
        assertTrue(Files.size(file) == 32);
    }
}
