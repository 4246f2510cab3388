package org.hpio.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a one-suite JSON file of DESIGN.md's form: its suite name, its params' keys and its result rows. */
record JsonFigures(String suite, List<String> paramKeys, List<Map<String, Object>> results) {
    static JsonFigures read(Path file) throws IOException {
        try (JsonParser p = new JsonFactory().createParser(file.toFile())) {
            expect(p.nextToken(), JsonToken.START_OBJECT);
            String suite = null;
            List<String> params = new ArrayList<>();
            List<Map<String, Object>> results = new ArrayList<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "suite" -> suite = p.getText();
                    case "params" -> {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            params.add(p.currentName());
                            p.nextToken();
                            p.skipChildren();
                        }
                    }
                    case "results" -> {
                        while (p.nextToken() == JsonToken.START_OBJECT) {
                            results.add(row(p));
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            return new JsonFigures(suite, params, results);
        }
    }

    private static Map<String, Object> row(JsonParser p) throws IOException {
        Map<String, Object> row = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            row.put(name, value.isNumeric() ? (Object) p.getDoubleValue() : p.getText());
        }
        return row;
    }

    private static void expect(JsonToken got, JsonToken wanted) {
        if (got != wanted) {
            throw new IllegalStateException("expected " + wanted + ", got " + got);
        }
    }
}
