package org.hpio.archive.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.hpio.archive.trace.Trace;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Hostile input, fuzzed with Jazzer: the trace parser must answer any bytes (decoded strictly as UTF-8, as
 * {@link Trace#read} does) with a trace or its TraceFormatException (line and reason); any other exception is a
 * finding. Seeds: TraceParseFuzzTestInputs. Bounded in {@code ./hpio test}, longer with
 * {@code ./hpio fuzz [DURATION]} (see {@link ArchiveOpenFuzzTest}).
 */
class TraceParseFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void parsingAnyTextAsATraceFailsCleanlyOrGivesATrace(byte[] data) {
        try (InputStreamReader reader = new InputStreamReader(new ByteArrayInputStream(data),
                StandardCharsets.UTF_8.newDecoder())) {
            Trace.parse(reader, "fuzz input");
        } catch (IOException expected) {
            // TraceFormatException: reported with its line
        }
    }
}
