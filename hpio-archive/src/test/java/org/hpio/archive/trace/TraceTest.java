package org.hpio.archive.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The text form of a load trace: reading, writing, runs, and errors that name the line. */
class TraceTest {
    /** The real trace of the shared data (a copy in the test resources; see its README there). */
    static final Path REAL_TRACE = realTrace();

    @TempDir
    Path dir;

    static Path realTrace() {
        try {
            return Path.of(TraceTest.class.getResource("/traces/python-startup-3runs.trace").toURI());
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    private static Trace parse(String text) throws IOException {
        return Trace.parse(new StringReader(text), "test.trace");
    }

    @Test
    void parsesLoadsAndFreesWithTheirFields() throws IOException {
        Trace trace = parse("""
                001.251861: L "lib/a.so" 23092688
                001.300000: F "lib/a.so" 23092688
                """);
        assertEquals(1, trace.runs().size());
        List<TraceEvent> events = trace.runs().getFirst().events();
        assertEquals(TraceEvent.load(1.251861, "lib/a.so", 23092688), events.get(0));
        assertEquals(TraceEvent.free(1.3, "lib/a.so", 23092688), events.get(1));
        assertEquals(1, trace.runs().getFirst().loads().size());
        assertEquals(1, trace.loadCount());
    }

    @Test
    void aTimeThatGoesBackStartsANewRunAndAnEqualTimeDoesNot() throws IOException {
        Trace trace = parse("""
                000.100000: L "a" 1
                000.200000: L "b" 2
                000.200000: L "c" 3
                000.050000: L "a" 1
                000.060000: L "d" 4
                000.010000: L "e" 5
                """);
        assertEquals(3, trace.runs().size());
        assertEquals(List.of("a", "b", "c"), paths(trace.runs().get(0)));
        assertEquals(List.of("a", "d"), paths(trace.runs().get(1)));
        assertEquals(List.of("e"), paths(trace.runs().get(2)));
    }

    @Test
    void pathsMayHoldSpacesAndQuotesAndNonAsciiLetters() throws IOException {
        Trace trace = parse("000.100000: L \"dir with space/\"quoted\" ü.txt\" 7\n");
        assertEquals("dir with space/\"quoted\" ü.txt", trace.runs().getFirst().events().getFirst().path());
        assertEquals(trace, roundTrip(trace));
    }

    @Test
    void roundTripsThroughTextWithSeveralRuns() throws IOException {
        Trace trace = new Trace(List.of(
                new TraceRun(List.of(TraceEvent.load(0.5, "a", 10), TraceEvent.load(1.25, "b", 0),
                        TraceEvent.free(2.000001, "a", 10))),
                new TraceRun(List.of(TraceEvent.load(0.000001, "c", 3), TraceEvent.load(1234.5, "a", 10))),
                new TraceRun(List.of(TraceEvent.free(0, "z", Long.MAX_VALUE)))));
        assertEquals(trace, roundTrip(trace));
        Path file = dir.resolve("t.trace");
        trace.write(file);
        assertEquals(trace, Trace.read(file));
        assertTrue(Files.readString(file).startsWith("000.500000: L \"a\" 10\n001.250000: L \"b\" 0\n"));
        assertTrue(Files.readString(file).contains("1234.500000: L \"a\" 10\n"));
    }

    @Test
    void writingTheRealTraceGivesTheSameBytes() throws IOException {
        Trace trace = Trace.read(REAL_TRACE);
        StringWriter out = new StringWriter();
        trace.write(out);
        assertEquals(Files.readString(REAL_TRACE), out.toString());
    }

    @Test
    void theRealTraceHasThreeRunsAnd1712Loads() throws IOException {
        Trace trace = Trace.read(REAL_TRACE);
        assertEquals(3, trace.runs().size());
        assertEquals(1712, trace.loadCount());
        Set<String> distinct = new HashSet<>();
        trace.runs().forEach(r -> r.loads().forEach(e -> distinct.add(e.path())));
        assertEquals(1365, distinct.size());
    }

    @Test
    void anEmptyTextIsATraceWithoutRuns() throws IOException {
        assertEquals(List.of(), parse("").runs());
        assertEquals(List.of(), parse("\n\n").runs());
    }

    @Test
    void badLinesAreErrorsNamingTheLineNumber() {
        assertBadLine(3, "000.1: L \"a\" 1\n\n000.2 L \"b\" 2\n");                  // no colon
        assertBadLine(2, "000.1: L \"a\" 1\n000.2: X \"b\" 2\n");                    // unknown kind
        assertBadLine(1, "000.1: L b 2\n");                                            // path not quoted
        assertBadLine(1, "000.1: L \"b\" -2\n");                                       // negative size
        assertBadLine(1, "000.1: L \"b\" 99999999999999999999\n");                     // size too large
        assertBadLine(1, "abc: L \"b\" 2\n");                                          // time not a number
        assertBadLine(2, "000.1: L \"a\" 1\n000.2: L \"\" 2\n");                      // empty path
        assertBadLine(1, "000.1: L \"a\" 1 trailing\n");
    }

    private static void assertBadLine(long line, String text) {
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> parse(text));
        assertEquals(line, e.lineNumber());
        assertEquals("test.trace", e.sourceName());
        assertTrue(e.getMessage().startsWith("test.trace line " + line + ": "), e.getMessage());
    }

    @Test
    void aFileThatIsNotUtf8IsAnErrorNamingTheLine() throws IOException {
        Path file = dir.resolve("bad.trace");
        Files.write(file, new byte[] {'0', '.', '1', ':', ' ', 'L', ' ', '"', (byte) 0xff, '"', ' ', '1', '\n'});
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.read(file));
        assertEquals(1, e.lineNumber());
    }

    @Test
    void runsThatTheTextCouldNotTellApartAreRefused() {
        TraceRun first = new TraceRun(List.of(TraceEvent.load(1, "a", 1)));
        TraceRun later = new TraceRun(List.of(TraceEvent.load(2, "b", 1)));
        assertThrows(IllegalArgumentException.class, () -> new Trace(List.of(first, later)));
        assertThrows(IllegalArgumentException.class,
                () -> new TraceRun(List.of(TraceEvent.load(2, "a", 1), TraceEvent.load(1, "b", 1))));
        assertThrows(IllegalArgumentException.class, () -> new TraceRun(List.of()));
        assertThrows(IllegalArgumentException.class, () -> TraceEvent.load(-1, "a", 1));
        assertThrows(IllegalArgumentException.class, () -> TraceEvent.load(1, "a\nb", 1));
        assertThrows(IllegalArgumentException.class, () -> TraceEvent.load(1, "a", -1));
    }

    @Test
    void aFailedWriteLeavesTheOldFile() throws IOException {
        Path file = dir.resolve("t.trace");
        Files.writeString(file, "old");
        Path missingDir = dir.resolve("missing/t.trace");
        Trace trace = new Trace(List.of(new TraceRun(List.of(TraceEvent.load(1, "a", 1)))));
        assertThrows(IOException.class, () -> trace.write(missingDir));
        assertEquals("old", Files.readString(file));
        trace.write(file);
        assertEquals("001.000000: L \"a\" 1\n", Files.readString(file));
        try (var listing = Files.list(dir)) {
            assertEquals(List.of(file), listing.toList(), "no temporary file is left");
        }
    }

    @Test
    void theRecorderKeepsEventsInMemoryWithTimesFromItsClock() throws IOException {
        AtomicLong nanos = new AtomicLong(5_000_000_000L);
        TraceRecorder recorder = new TraceRecorder(nanos::get);
        assertEquals(List.of(), recorder.snapshot().runs());
        nanos.addAndGet(1_500_000);
        recorder.onLoad("a/b.txt", 12);
        nanos.addAndGet(2_000_000_000L);
        recorder.onFree("a/b.txt", 12);
        Trace trace = recorder.snapshot();
        assertEquals(List.of(TraceEvent.load(0.0015, "a/b.txt", 12), TraceEvent.free(2.0015, "a/b.txt", 12)),
                trace.runs().getFirst().events());
        Path file = dir.resolve("rec.trace");
        assertFalse(Files.exists(file), "recording writes nothing");
        recorder.write(file);
        assertEquals(trace, Trace.read(file));
    }

    @Test
    void theRecorderIsSafeForManyThreads() throws Exception {
        TraceRecorder recorder = new TraceRecorder();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            int id = t;
            threads[t] = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 1000; i++) {
                    recorder.onLoad("t" + id + "/" + i, i);
                }
            });
        }
        for (Thread thread : threads) {
            thread.join();
        }
        Trace trace = recorder.snapshot();
        assertEquals(1, trace.runs().size(), "times never go back, so it stays one run");
        assertEquals(4000, trace.loadCount());
        assertEquals(trace, roundTrip(trace));
    }

    private static Trace roundTrip(Trace trace) throws IOException {
        StringWriter out = new StringWriter();
        trace.write(out);
        return parse(out.toString());
    }

    private static List<String> paths(TraceRun run) {
        return run.events().stream().map(TraceEvent::path).toList();
    }
}
