package org.hpio.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every double survives the trip through JSON exactly, except NaN and the infinities, which become null. */
class JsonNumbersTest {
    @TempDir
    Path dir;

    @Test
    void doublesRoundTrip() throws IOException {
        List<Double> values = new ArrayList<>(List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE,
                0.1, 1e300, -1e-300, 1.0 / 3, 9007199254740993.0, 42.0));
        Random random = new Random(20250101);
        for (int i = 0; i < 500; i++) {
            values.add(Double.longBitsToDouble(random.nextLong())); // every exponent, some NaNs
        }
        SuiteReport s = new SuiteReport("numbers", "");
        for (int i = 0; i < values.size(); i++) {
            s.result("r" + i, "m", values.get(i), "u").param("p" + i, values.get(i));
        }
        Path file = dir.resolve("numbers.json");
        JsonResults.write(file, List.of(s), JsonResultsTest.MACHINE);

        Map<String, Object> root = JsonTree.object(JsonTree.read(file));
        List<Object> results = JsonTree.array(root.get("results"));
        Map<String, Object> params = JsonTree.object(root.get("params"));
        for (int i = 0; i < values.size(); i++) {
            double v = values.get(i);
            Object value = JsonTree.object(results.get(i)).get("value");
            Object param = params.get("p" + i);
            if (Double.isFinite(v)) {
                assertEquals(v, ((Number) value).doubleValue(), "result " + v);
                assertEquals(v, ((Number) param).doubleValue(), "param " + v);
            } else {
                assertNull(value, "result " + v);
                assertNull(param, "param " + v);
            }
        }
    }
}
