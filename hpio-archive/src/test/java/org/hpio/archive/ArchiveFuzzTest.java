package org.hpio.archive;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import org.hpio.internal.sys.Libzstd;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Fuzzing: jqwik-made corruptions (flipped bytes, cuts, 16/32/64-bit fields overwritten with extreme values at
 * the records' fields or anywhere) of a small corpus (hpio's own Deflate, stored and Zstandard archives,
 * java.util.zip's with data descriptors; the Zstandard one only where libzstd is). Whatever the damage, opening and loading every file either throws an IOException or
 * returns exactly the original bytes: never another exception, never wrong bytes, and each try ends within a
 * few seconds (a hang fails the property). The whole property stays well under 20 s.
 */
class ArchiveFuzzTest {
    private static final Map<String, byte[]> FILES = ArchiveLoadTest.files();
    private static Path work;
    private static List<byte[]> corpus;

    /** One corruption: kind 0 flips, 1 cuts, 2 writes a field at a record, 3 writes a field anywhere. */
    record Corruption(int archive, int kind, double where, int width, long value, int blockSize, int depth) {
    }

    @Provide
    Arbitrary<Corruption> corruptions() {
        Arbitrary<Long> extremes = Arbitraries.oneOf(Arbitraries.of(0L, 1L, -1L, 0xffffL, 0xffff_ffffL,
                0x7fff_ffffL, 0x8000_0000L, Long.MAX_VALUE, Long.MIN_VALUE, 46L, 30L), Arbitraries.longs());
        return Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 3),
                        Arbitraries.doubles().between(0, 1), Arbitraries.of(1, 2, 4, 8), extremes,
                        Arbitraries.of(4096, 32768), Arbitraries.of(1, 4))
                .as(Corruption::new);
    }

    @Property(tries = 400)
    void corruptArchivesFailCleanlyOrLoadTheRightBytes(@ForAll("corruptions") Corruption c) throws Exception {
        byte[] damaged = corrupt(corpus().get(c.archive() % corpus().size()), c);
        Path file = Files.createTempFile(work, "fuzz", ".zip");
        try {
            Files.write(file, damaged);
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> openAndLoadAll(file, c));
        } finally {
            Files.delete(file);
        }
    }

    /**
     * Loads every file through the blocking whole read of small entries and through the asynchronous block
     * pipeline: each gives the right bytes or an IOException, and both give the same outcome (same message).
     */
    private static void openAndLoadAll(Path file, Corruption c) {
        LoadOptions options = LoadOptions.defaults().withBlockSize(c.blockSize()).withQueueDepth(c.depth());
        try (Archive whole = Archive.open(file, options);
             Archive blocks = Archive.open(file, options.withWholeReadBytes(0))) {
            for (Map.Entry<String, byte[]> f : FILES.entrySet()) {
                String viaWhole = outcome(whole, f.getKey(), f.getValue(), c);
                assertEquals(viaWhole, outcome(blocks, f.getKey(), f.getValue(), c), f.getKey() + " after " + c);
            }
        } catch (IOException e) {
            // refused at open
        }
    }

    /** "loaded" after checking the bytes, or the message of the IOException that refused the file. */
    private static String outcome(Archive archive, String name, byte[] expected, Corruption c) {
        try (LoadedFile loaded = archive.load(name)) {
            assertArrayEquals(expected, loaded.toByteArray(), name + " after " + c);
            return "loaded";
        } catch (IOException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage(); // refused: what the damage should give
        }
    }

    static byte[] corrupt(byte[] original, Corruption c) {
        byte[] b = original.clone();
        int at = (int) (c.where() * (b.length - 1));
        switch (c.kind()) {
            case 0 -> b[at] ^= (byte) (1 << (c.value() & 7));
            case 1 -> b = Arrays.copyOf(b, at);
            case 2 -> writeField(b, fieldOfSomeRecord(b, c.where(), c.value()), c.width(), c.value());
            default -> writeField(b, at, c.width(), c.value());
        }
        return b;
    }

    /** An offset of a numeric field of one of the archive's records (headers, end records). */
    private static int fieldOfSomeRecord(byte[] b, double where, long salt) {
        ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int[] signatures = {ZipFormat.LOCAL_HEADER, ZipFormat.CENTRAL_HEADER, ZipFormat.END_OF_CENTRAL_DIRECTORY,
                ZipFormat.ZIP64_END_OF_CENTRAL_DIRECTORY, ZipFormat.ZIP64_LOCATOR};
        int[] records = new int[b.length];
        int n = 0;
        for (int i = 0; i + 4 <= b.length; i++) {
            int v = buf.getInt(i);
            for (int s : signatures) {
                if (v == s) {
                    records[n++] = i;
                }
            }
        }
        int record = records[(int) (where * (n - 1))];
        int[] fieldOffsets = {4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 40, 42, 48};
        return record + fieldOffsets[(int) Math.floorMod(salt, (long) fieldOffsets.length)];
    }

    private static void writeField(byte[] b, int at, int width, long value) {
        for (int i = 0; i < width && at + i < b.length; i++) {
            b[at + i] = (byte) (value >>> (8 * i));
        }
    }

    private static synchronized List<byte[]> corpus() throws IOException {
        if (corpus == null) {
            work = Files.createTempDirectory("hpio-fuzz");
            TestTrees.write(work.resolve("tree"), FILES);
            Path deflate = work.resolve("deflate.zip");
            Path stored = work.resolve("stored.zip");
            new ArchiveBuilder(work.resolve("tree")).addAll(FILES.keySet()).write(deflate);
            new ArchiveBuilder(work.resolve("tree")).minDeflateSavings(1.0).addAll(FILES.keySet()).write(stored);
            Path jdk = ArchiveLoadTest.jdkZip(FILES, work.resolve("jdk.zip"));
            List<byte[]> archives = new ArrayList<>(List.of(Files.readAllBytes(deflate),
                    Files.readAllBytes(stored), Files.readAllBytes(jdk)));
            if (Libzstd.available()) {
                Path zstd = work.resolve("zstd.zip");
                new ArchiveBuilder(work.resolve("tree")).zstdLevel(3).addAll(FILES.keySet()).write(zstd);
                archives.add(Files.readAllBytes(zstd));
            }
            corpus = List.copyOf(archives);
        }
        return corpus;
    }

    @AfterContainer
    static void deleteWork() throws IOException {
        if (work != null) {
            try (Stream<Path> walk = Files.walk(work)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
