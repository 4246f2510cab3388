package org.hpio.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

class JsonResultsProperties {

    /** Any double survives the trip through JSON exactly, except NaN and the infinities, which become null. */
    @Property(tries = 200)
    void valuesRoundTrip(@ForAll double value, @ForAll String unit) throws IOException {
        Path dir = Files.createTempDirectory("hpio-json");
        try {
            Path file = dir.resolve("r.json");
            SuiteReport s = new SuiteReport("s", "").param("p", value).result("n", "m", value, unit);
            JsonResults.write(file, List.of(s), JsonResultsTest.MACHINE);
            Map<String, Object> root = JsonTree.object(JsonTree.read(file));
            Map<String, Object> r = JsonTree.object(JsonTree.array(root.get("results")).getFirst());
            Object p = JsonTree.object(root.get("params")).get("p");
            if (Double.isFinite(value)) {
                assertEquals(value, ((Number) r.get("value")).doubleValue());
                assertEquals(value, ((Number) p).doubleValue());
            } else {
                assertNull(r.get("value"));
                assertNull(p);
            }
            assertEquals(unit, r.get("unit"));
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }
}
