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

/**
 * A JSON document as maps, lists, strings, numbers (Long for integers, Double otherwise), booleans and nulls,
 * read with jackson-core alone; and paths into it. For fio's output and for reading reports back in tests.
 */
public final class JsonTree {
    private JsonTree() {
    }

    /** The one value in {@code text}; trailing content is an error. */
    public static Object parse(String text) throws IOException {
        try (JsonParser p = new JsonFactory().createParser(text)) {
            return only(p);
        }
    }

    /** The one value in {@code file}; trailing content is an error. */
    public static Object read(Path file) throws IOException {
        try (JsonParser p = new JsonFactory().createParser(file.toFile())) {
            return only(p);
        }
    }

    private static Object only(JsonParser p) throws IOException {
        JsonToken first = p.nextToken();
        if (first == null) {
            throw new IOException("empty JSON");
        }
        Object v = value(p, first);
        if (p.nextToken() != null) {
            throw new IOException("trailing content after the JSON value");
        }
        return v;
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
            default -> throw new IOException("unexpected JSON token " + t);
        };
    }

    /** The value at {@code path} (object keys, or list indices as Integer); throws naming the path when missing. */
    public static Object at(Object root, Object... path) throws IOException {
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

    /** The number at {@code path}, as a double; throws naming the path when it is missing or not a number. */
    public static double number(Object root, Object... path) throws IOException {
        if (at(root, path) instanceof Number n) {
            return n.doubleValue();
        }
        throw new IOException(List.of(path) + " is not a number in the JSON");
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    public static List<Object> array(Object o) {
        return (List<Object>) o;
    }
}
