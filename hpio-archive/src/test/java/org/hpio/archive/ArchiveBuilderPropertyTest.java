package org.hpio.archive;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Random trees round-trip: what ArchiveBuilder writes, java.util.zip and Archive read back byte for byte. */
class ArchiveBuilderPropertyTest {
    @Provide
    Arbitrary<Map<String, byte[]>> trees() {
        Arbitrary<String> component = Arbitraries.strings().withChars("abcxyz-_.é ü0123").ofMinLength(1)
                .ofMaxLength(8).filter(s -> !s.equals(".") && !s.equals("..") && !s.startsWith("."));
        Arbitrary<String> path = component.list().ofMinSize(1).ofMaxSize(3).map(l -> String.join("/", l));
        Arbitrary<byte[]> content = Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(3000),
                Arbitraries.integers().between(0, 20_000).map(n -> TestTrees.text(n, n)));
        return Arbitraries.maps(path, content).ofMaxSize(12);
    }

    @Property(tries = 40)
    void randomTreesRoundTrip(@ForAll("trees") Map<String, byte[]> generated,
                              @ForAll boolean streamed) throws IOException {
        Path dir = Files.createTempDirectory("hpio-prop");
        try {
            Map<String, byte[]> files = writable(generated);
            TestTrees.write(dir.resolve("root"), files);
            Files.createDirectories(dir.resolve("root"));
            Path zip = dir.resolve("out.zip");
            List<String> order = new ArrayList<>(files.keySet());
            Collections.reverse(order);
            new ArchiveBuilder(dir.resolve("root")).addAll(order).inMemoryLimit(streamed ? 0 : 1 << 20).write(zip);
            try (ZipFile z = new ZipFile(zip.toFile())) {
                assertEquals(order, Collections.list(z.entries()).stream().map(ZipEntry::getName).toList());
                for (String name : order) {
                    assertArrayEquals(files.get(name), z.getInputStream(z.getEntry(name)).readAllBytes(), name);
                }
            }
            try (Archive archive = Archive.open(zip)) {
                for (ArchiveEntry e : archive.entries()) {
                    assertArrayEquals(files.get(e.name()), archive.read(e), e.name());
                }
            }
        } finally {
            try (var walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Drops paths that are a prefix directory of another path (a file cannot also be a directory). */
    private static Map<String, byte[]> writable(Map<String, byte[]> generated) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> e : generated.entrySet()) {
            String p = e.getKey();
            boolean clash = files.keySet().stream().anyMatch(q -> q.startsWith(p + "/") || p.startsWith(q + "/"));
            if (!clash) {
                files.put(p, e.getValue());
            }
        }
        return files;
    }
}
