package org.hpio.bench.archive;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Seeded file contents of a given size, for files a replay needs but nobody ships: text of words drawn from a
 * vocabulary (Deflate shrinks it about as much as source code or XML), random bytes (already compressed, like
 * PNG or Ogg), or 4 KiB pieces of each in turn (textures and meshes: Deflate saves something, not much). The
 * same seed gives the same bytes.
 */
final class PseudoContent {
    /** Words of Python source: the python trace's stand-ins. */
    static final String[] PYTHON_WORDS = {"def ", "self", ".", "return ", "import ", "(", ")", ":\n    ", "if ",
            "else", " = ", "None", "value", "name", "for ", " in ", "range", "class ", "_cache", "\n", "# ", "args",
            ", "};
    /** Words of a game's XML, shaders and font files: the game workload's text assets. */
    static final String[] GAME_WORDS = {"<", ">", "</", "/>", "\n  ", "\n", "actor", "variant", "mesh", "texture",
            "material", "file=\"", "\" ", "name=\"", "props", "group", "frequency=\"", "animation", "idle", "walk",
            "uniform ", "vec4 ", "float ", ";\n", "gl_Position", "0.5", "1", "true", "Template", "Identity",
            "Cost", "Health", "Footprint", "Obstruction", "VisualActor", "Sound", "attack", "char id=", " x=", " y="};

    private static final int CHUNK = 1 << 16;
    private static final int MIXED_PIECE = 4096;

    /** How a file's bytes look to Deflate. */
    enum Kind {
        TEXT, RANDOM, MIXED
    }

    private PseudoContent() {
    }

    /** Writes {@code size} bytes of {@code kind} (text from {@code words}) seeded with {@code seed} to {@code target}. */
    static void write(Path target, long size, Kind kind, String[] words, long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        byte[][] vocabulary = encode(words);
        byte[] chunk = new byte[CHUNK];
        try (OutputStream out = Files.newOutputStream(target)) {
            for (long written = 0; written < size; ) {
                int n = (int) Math.min(CHUNK, size - written);
                switch (kind) {
                    case TEXT -> fillWithWords(chunk, 0, n, vocabulary, random);
                    case RANDOM -> fillWithNoise(chunk, 0, n, random);
                    case MIXED -> {
                        for (int from = 0, piece = 0; from < n; from += MIXED_PIECE, piece++) {
                            int to = Math.min(n, from + MIXED_PIECE);
                            if (piece % 2 == 0) {
                                fillWithWords(chunk, from, to, vocabulary, random);
                            } else {
                                fillWithNoise(chunk, from, to, random);
                            }
                        }
                    }
                }
                out.write(chunk, 0, n);
                written += n;
            }
        }
    }

    private static void fillWithWords(byte[] chunk, int from, int to, byte[][] vocabulary, SplittableRandom random) {
        for (int i = from; i < to; ) {
            byte[] w = vocabulary[random.nextInt(vocabulary.length)];
            for (int k = 0; k < w.length && i < to; k++) {
                chunk[i++] = w[k];
            }
        }
    }

    private static void fillWithNoise(byte[] chunk, int from, int to, SplittableRandom random) {
        for (int i = from; i < to; i++) {
            chunk[i] = (byte) random.nextInt(256);
        }
    }

    private static byte[][] encode(String[] words) {
        byte[][] bytes = new byte[words.length][];
        for (int i = 0; i < words.length; i++) {
            bytes[i] = words[i].getBytes(StandardCharsets.US_ASCII);
        }
        return bytes;
    }
}
