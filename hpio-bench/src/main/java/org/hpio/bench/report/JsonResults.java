package org.hpio.bench.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The machine-readable results (the JSON contract of DESIGN.md), for scripts that compare runs. One suite is one
 * object {@code {"suite", "params", "machine", "results": [{"name", "metric", "value", "unit"}]}} ("machine"
 * left out for figures that do not depend on it); several suites
 * are an array of such objects. JSON has no NaN or Infinity, so non-finite numbers are written as {@code null}.
 */
public final class JsonResults {
    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private JsonResults() {
    }

    /** Writes {@code suites} to {@code file}, atomically (temporary sibling, then rename). */
    public static void write(Path file, List<SuiteReport> suites, MachineInfo machine) throws IOException {
        Objects.requireNonNull(machine, "machine");
        writeSuites(file, suites, machine);
    }

    /**
     * Writes figures that do not depend on the machine (a simulation's, a seek count's) to {@code file}, as
     * {@link #write(Path, List, MachineInfo)} without the {@code "machine"} member.
     */
    public static void write(Path file, List<SuiteReport> suites) throws IOException {
        writeSuites(file, suites, null);
    }

    private static void writeSuites(Path file, List<SuiteReport> suites, MachineInfo machine) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(suites, "suites");
        AtomicFile.write(file, out -> {
            try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
                g.useDefaultPrettyPrinter();
                if (suites.size() == 1) {
                    writeSuite(g, suites.getFirst(), machine);
                } else {
                    g.writeStartArray();
                    for (SuiteReport s : suites) {
                        writeSuite(g, s, machine);
                    }
                    g.writeEndArray();
                }
                g.writeRaw('\n');
            }
        });
    }

    private static void writeSuite(JsonGenerator g, SuiteReport s, MachineInfo machine) throws IOException {
        g.writeStartObject();
        g.writeStringField("suite", s.suite());
        g.writeFieldName("params");
        writeValue(g, s.params());
        if (machine != null) {
            g.writeFieldName("machine");
            writeValue(g, machine.asMap());
        }
        g.writeArrayFieldStart("results");
        for (Result r : s.results()) {
            g.writeStartObject();
            g.writeStringField("name", r.name());
            g.writeStringField("metric", r.metric());
            g.writeFieldName("value");
            writeDouble(g, r.value());
            g.writeStringField("unit", r.unit());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * Writes a parameter value as its JSON type: strings, numbers, booleans, null, maps (keys as strings),
     * collections and arrays; anything else (an enum, a Path, a Duration) as its string form.
     */
    private static void writeValue(JsonGenerator g, Object v) throws IOException {
        switch (v) {
            case null -> g.writeNull();
            case String s -> g.writeString(s);
            case Boolean b -> g.writeBoolean(b);
            case Double d -> writeDouble(g, d);
            case Float f -> {
                if (Float.isFinite(f)) {
                    g.writeNumber(f); // not widened: 0.1f stays 0.1
                } else {
                    g.writeNull();
                }
            }
            case Long l -> g.writeNumber(l);
            case Integer i -> g.writeNumber(i);
            case Short s -> g.writeNumber(s);
            case Byte b -> g.writeNumber(b);
            case BigInteger b -> g.writeNumber(b);
            case BigDecimal b -> g.writeNumber(b);
            case Number n -> writeDouble(g, n.doubleValue()); // AtomicLong, LongAdder, ...
            case Map<?, ?> m -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    g.writeFieldName(String.valueOf(e.getKey()));
                    writeValue(g, e.getValue());
                }
                g.writeEndObject();
            }
            case Iterable<?> it -> {
                g.writeStartArray();
                for (Object o : it) {
                    writeValue(g, o);
                }
                g.writeEndArray();
            }
            case Object a when a.getClass().isArray() -> {
                g.writeStartArray();
                for (int i = 0, n = Array.getLength(a); i < n; i++) {
                    writeValue(g, Array.get(a, i));
                }
                g.writeEndArray();
            }
            default -> g.writeString(v.toString());
        }
    }

    private static void writeDouble(JsonGenerator g, double d) throws IOException {
        if (Double.isFinite(d)) {
            g.writeNumber(d);
        } else {
            g.writeNull();
        }
    }
}
