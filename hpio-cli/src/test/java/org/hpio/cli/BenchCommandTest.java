package org.hpio.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code hpio bench} writes DESIGN.md's JSON contract and a report folder. */
class BenchCommandTest {
    @TempDir
    Path dir;

    @Test
    void benchWritesTheJsonContractAndTheReport() throws Exception {
        Path json = dir.resolve("out.json");
        Path report = dir.resolve("report");
        int exit = new CommandLine(new Main()).execute("bench", "bulk", "--size", "1m", "--reps", "1",
                "--cache", "warm", "--configs", "dsb,bulkraf", "--json", json.toString(),
                "--report", report.toString(), "--work-dir", dir.resolve("work").toString());
        assertEquals(0, exit);

        Set<String> keys = new HashSet<>();
        Set<String> names = new HashSet<>();
        String suite = null;
        try (JsonParser p = new JsonFactory().createParser(json.toFile())) {
            assertEquals(JsonToken.START_OBJECT, p.nextToken());
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                keys.add(field);
                JsonToken value = p.nextToken();
                if (field.equals("suite")) {
                    suite = p.getText();
                } else if (field.equals("results")) {
                    assertEquals(JsonToken.START_ARRAY, value);
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        Set<String> row = new HashSet<>();
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            row.add(p.currentName());
                            p.nextToken();
                            if (p.currentName().equals("name")) {
                                names.add(p.getText());
                            }
                        }
                        assertEquals(Set.of("name", "metric", "value", "unit"), row);
                    }
                } else {
                    p.skipChildren();
                }
            }
        }
        assertEquals("bulk", suite);
        assertTrue(keys.containsAll(Set.of("suite", "params", "results")), keys.toString());
        assertTrue(names.containsAll(Set.of("dsb", "bulkraf", "bulkraf-vs-dsb")), names.toString());
        String markdown = Files.readString(report.resolve("report.md"));
        assertTrue(markdown.contains("bulkraf") && markdown.contains("warm"), markdown);
        assertTrue(Files.exists(report.resolve("charts/bulk-read.png")));
    }

    @Test
    void anUnknownSuiteFailsWithTheListOfSuites() {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Main());
        cli.setErr(new PrintWriter(err));
        cli.setExecutionExceptionHandler((e, c, r) -> {
            c.getErr().println(e.getMessage());
            return 1;
        });
        int exit = cli.execute("bench", "nosuch", "--work-dir", dir.resolve("work").toString());
        assertNotEquals(0, exit);
        assertTrue(err.toString().contains("bulk") && err.toString().contains("approaches"), err.toString());
    }
}
