package org.hpio.bench.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a JSON file back into maps, lists, strings, numbers, booleans and nulls, with jackson-core alone. */
final class JsonTree {
    private JsonTree() {
    }

    static Object read(Path file) throws IOException {
        try (JsonParser p = new JsonFactory().createParser(file.toFile())) {
            JsonToken first = p.nextToken();
            Object v = value(p, first);
            if (p.nextToken() != null) {
                throw new IOException("trailing content after the JSON value");
            }
            return v;
        }
    }

    private static Object value(JsonParser p, JsonToken t) throws IOException {
        return switch (t) {
            case START_OBJECT -> {
                Map<String, Object> m = new LinkedHashMap<>();
                for (JsonToken k = p.nextToken(); k != JsonToken.END_OBJECT; k = p.nextToken()) {
                    String name = p.currentName();
                    m.put(name, value(p, p.nextToken()));
                }
                yield m;
            }
            case START_ARRAY -> {
                List<Object> l = new ArrayList<>();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    l.add(value(p, e));
                }
                yield l;
            }
            case VALUE_STRING -> p.getText();
            case VALUE_NUMBER_INT -> p.getLongValue();
            case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
            case VALUE_TRUE -> true;
            case VALUE_FALSE -> false;
            case VALUE_NULL -> null;
            default -> throw new IOException("unexpected token " + t);
        };
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(Object o) {
        return (List<Object>) o;
    }
}
