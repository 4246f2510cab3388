package org.hpio.bench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import javax.imageio.ImageIO;

/** Checks that a file is a PNG of the renderer's size. */
final class Png {
    static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private Png() {
    }

    static void check(Path file) throws IOException {
        assertNotNull(file);
        assertTrue(Files.isRegularFile(file), file + " exists");
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(SIGNATURE.length);
        }
        assertArrayEquals(SIGNATURE, head, () -> file + " starts with " + Arrays.toString(head));
        BufferedImage img = ImageIO.read(file.toFile());
        assertEquals(ChartRenderer.WIDTH, img.getWidth());
        assertEquals(ChartRenderer.HEIGHT, img.getHeight());
    }
}
