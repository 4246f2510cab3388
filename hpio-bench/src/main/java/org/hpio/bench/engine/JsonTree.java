package org.hpio.bench.engine;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON document as maps, lists, strings, numbers (Double), booleans and nulls, read with jackson-core; and
 * paths into it. Enough for fio's output, which is small.
 */
final class JsonTree {
    private JsonTree() {
    }

    static Object parse(String text) throws IOException {
        try (JsonParser p = new JsonFactory().createParser(text)) {
            if (p.nextToken() == null) {
                throw new IOException("empty JSON");
            }
            return value(p);
        }
    }

    private static Object value(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    map.put(name, value(p));
                }
                return map;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    list.add(value(p));
                }
                return list;
            }
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                return p.getValueAsDouble();
            }
            case VALUE_STRING -> {
                return p.getText();
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return p.getBooleanValue();
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> throw new IOException("unexpected JSON token " + t);
        }
    }

    /** The value at {@code path} (object keys, or list indices as Integer); throws naming the path when missing. */
    static Object at(Object root, Object... path) throws IOException {
        Object node = root;
        for (Object step : path) {
            if (step instanceof Integer i && node instanceof List<?> list && i < list.size()) {
                node = list.get(i);
            } else if (step instanceof String key && node instanceof Map<?, ?> map && map.containsKey(key)) {
                node = map.get(key);
            } else {
                throw new IOException("no " + List.of(path) + " in the JSON (stopped at " + step + ")");
            }
        }
        return node;
    }

    static double number(Object root, Object... path) throws IOException {
        if (at(root, path) instanceof Double d) {
            return d;
        }
        throw new IOException(List.of(path) + " is not a number in the JSON");
    }
}
