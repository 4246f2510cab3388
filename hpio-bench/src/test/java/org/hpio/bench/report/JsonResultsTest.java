package org.hpio.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonResultsTest {
    static final MachineInfo MACHINE = new MachineInfo("Test CPU", 8, 16L << 30, "6.1.0-test", "/tmp/work",
            "ext4", "/dev/test1", "/", "Vendor", "25+36", "Test VM", "Linux amd64");

    @TempDir
    Path dir;

    static SuiteReport bulkRead() {
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("direct", true);
        nested.put("ratio", 0.5);
        return new SuiteReport("bulk-read", "Reads a file in large blocks.")
                .param("size-bytes", 1L << 30)
                .param("page-cache", "cold")
                .param("threads", 4)
                .param("warm", false)
                .param("block-sizes", List.of(4096, 65536))
                .param("options", nested)
                .param("not-a-number", Double.NaN)
                .result("raf", "throughput", 512.25, "MB/s")
                .result("bulkraf", "throughput", Double.NaN, "MB/s")
                .result("c", "throughput", Double.POSITIVE_INFINITY, "MB/s");
    }

    @Test
    void oneSuiteIsOneObject() throws IOException {
        Path file = dir.resolve("one.json");
        JsonResults.write(file, List.of(bulkRead()), MACHINE);

        Map<String, Object> root = JsonTree.object(JsonTree.read(file));
        assertEquals(List.of("suite", "params", "machine", "results"), List.copyOf(root.keySet()));
        assertEquals("bulk-read", root.get("suite"));

        Map<String, Object> params = JsonTree.object(root.get("params"));
        assertEquals(1L << 30, params.get("size-bytes"));
        assertEquals("cold", params.get("page-cache"));
        assertEquals(4L, params.get("threads"));
        assertEquals(false, params.get("warm"));
        assertEquals(List.of(4096L, 65536L), params.get("block-sizes"));
        assertEquals(Map.of("direct", true, "ratio", 0.5), params.get("options"));
        assertTrue(params.containsKey("not-a-number"));
        assertNull(params.get("not-a-number"));

        Map<String, Object> machine = JsonTree.object(root.get("machine"));
        assertEquals("Test CPU", machine.get("cpu"));
        assertEquals(8L, machine.get("logical-cores"));
        assertEquals(16L << 30, machine.get("memory-bytes"));
        assertEquals("ext4", machine.get("file-system"));

        List<Object> results = JsonTree.array(root.get("results"));
        assertEquals(3, results.size());
        Map<String, Object> raf = JsonTree.object(results.get(0));
        assertEquals(List.of("name", "metric", "value", "unit"), List.copyOf(raf.keySet()));
        assertEquals("raf", raf.get("name"));
        assertEquals("throughput", raf.get("metric"));
        assertEquals(512.25, raf.get("value"));
        assertEquals("MB/s", raf.get("unit"));
        Map<String, Object> nan = JsonTree.object(results.get(1));
        assertTrue(nan.containsKey("value"));
        assertNull(nan.get("value"), "NaN is written as null");
        assertNull(JsonTree.object(results.get(2)).get("value"), "Infinity is written as null");
    }

    @Test
    void severalSuitesAreAnArray() throws IOException {
        Path file = dir.resolve("all.json");
        SuiteReport other = new SuiteReport("small-files", "Many small files.").result("raf", "ops", 10, "ops/s");
        JsonResults.write(file, List.of(bulkRead(), other), MACHINE);

        List<Object> root = JsonTree.array(JsonTree.read(file));
        assertEquals(2, root.size());
        assertEquals("bulk-read", JsonTree.object(root.get(0)).get("suite"));
        Map<String, Object> second = JsonTree.object(root.get(1));
        assertEquals("small-files", second.get("suite"));
        assertEquals(Map.of(), second.get("params"));
        assertInstanceOf(Map.class, second.get("machine"));
        Map<String, Object> r = JsonTree.object(JsonTree.array(second.get("results")).getFirst());
        assertEquals(10.0, r.get("value"));
    }

    @Test
    void noSuiteIsAnEmptyArray() throws IOException {
        Path file = dir.resolve("none.json");
        JsonResults.write(file, List.of(), MACHINE);
        assertEquals(List.of(), JsonTree.read(file));
    }

    @Test
    void replacesAtomicallyAndLeavesNoTemporaryFile() throws IOException {
        Path file = dir.resolve("results.json");
        Files.writeString(file, "old, and not JSON");
        JsonResults.write(file, List.of(bulkRead()), MACHINE);
        assertEquals("bulk-read", JsonTree.object(JsonTree.read(file)).get("suite"));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList());
        }
    }
}
