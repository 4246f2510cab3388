package org.hpio.bench.patterns;

import org.hpio.bench.data.DataFiles;
import org.hpio.bench.data.Elements;
import org.hpio.bench.machine.CProgram;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchContext;
import org.hpio.bench.suite.BenchOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tuning-study suite: every way does every point it supports correctly on a small file (checked as the
 * suite checks), the checks catch wrong reads and writes, and the suite runs end to end.
 */
class PatternsTest {
    static final long SIZE = 64 << 10;

    @TempDir
    static Path shared;
    @TempDir
    Path dir;

    private static List<PatternsConfig> configs;
    private static Source source;
    private static Path data;

    @BeforeAll
    static void setUp() throws IOException {
        configs = new ArrayList<>(JavaConfigs.all());
        Optional<CProgram> c = CProgram.compile(CConfig.PROGRAM, shared.resolve("c"), new ArrayList<>());
        c.ifPresent(program -> configs.add(new CConfig(program)));
        source = Source.of(SIZE);
        data = shared.resolve("data");
        DataFiles.create(data, Elements.LONG, SIZE / 8, ByteOrder.BIG_ENDIAN);
    }

    @Test
    void everyWayPassesItsChecksAtEveryPoint() throws IOException {
        Expected expected = new Expected(source);
        Path scratch = dir.resolve("scratch");
        int checked = 0;
        for (Sweeps.Kind kind : Sweeps.Kind.values()) {
            for (Access access : Access.values()) {
                for (Point p : Sweeps.points(kind, access, SIZE)) {
                    for (PatternsConfig config : configs) {
                        if (config.supports(p)) {
                            double seconds = PatternsSuite.once(config, p, access.write() ? scratch : data, source, expected);
                            assertTrue(seconds > 0, config.name() + " " + p);
                            checked++;
                        }
                    }
                }
            }
        }
        assertTrue(checked > 100, "points checked: " + checked);
    }

    @Test
    void aWrongReadChecksumIsCaught() {
        Expected expected = new Expected(source);
        Point p = new Point(Access.RANDOM_READ, 16, 0, SIZE, 100);
        IOException e = assertThrows(IOException.class, () -> expected.checkRead("test", p, 12345));
        assertTrue(e.getMessage().contains("read wrong data"), e.getMessage());
    }

    @Test
    void aWriteInTheWrongPlaceOrWithAWrongByteIsCaught() throws IOException {
        Expected expected = new Expected(source);
        Point p = new Point(Access.RANDOM_WRITE, 4, 0, SIZE, 50);
        Path file = dir.resolve("written");
        DataFiles.recreateSparse(file, SIZE);
        new JavaConfigs.Stream().run(p, file, source);
        expected.checkWrite("stream", p, file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            long pos = p.position(7);
            raf.seek(pos);
            raf.write(source.bytes[(int) pos] ^ 1);
        }
        assertThrows(IOException.class, () -> expected.checkWrite("stream", p, file));
        DataFiles.recreateSparse(file, SIZE);
        new JavaConfigs.Stream().run(new Point(Access.SEQ_WRITE, 4, 0, SIZE, 50), file, source);
        assertThrows(IOException.class, () -> expected.checkWrite("stream", p, file));
    }

    @Test
    void pointsAreBoundedAndScaled() {
        Point unbuffered = Sweeps.points(Sweeps.Kind.OPERATION, Access.SEQ_READ, 100L << 20).getFirst();
        assertEquals(1, unbuffered.opSize());
        assertEquals(Sweeps.MAX_CALLS, unbuffered.ops());
        assertEquals((100L << 20) / (double) Sweeps.MAX_CALLS, unbuffered.scale());
        List<Point> random = Sweeps.points(Sweeps.Kind.BUFFER, Access.RANDOM_WRITE, 100L << 20);
        assertEquals(10 << 20, random.getLast().bufferSize());
        assertEquals(Sweeps.MIN_RANDOM_OPS, random.getLast().ops());
        assertThrows(IllegalArgumentException.class, () -> new Point(Access.SEQ_READ, 4, 64, SIZE, 1));
        for (long k = 0; k < 1000; k++) {
            long pos = new Point(Access.RANDOM_READ, 64, 0, SIZE, 1000).position(k);
            assertTrue(pos >= 0 && pos + 64 <= SIZE && pos % 64 == 0);
        }
    }

    @Test
    void aQuickSweepKeepsTheEndsWithFewerPointsAndCalls() {
        long file = 100L << 20;
        List<Point> ops = Sweeps.points(Sweeps.Kind.OPERATION, Access.SEQ_READ, file, true);
        assertEquals(List.of(1, 16, 256, 4096, 65536, 1 << 20), ops.stream().map(Point::opSize).toList());
        assertEquals(Sweeps.QUICK_MAX_CALLS, ops.getFirst().ops());
        List<Point> buffers = Sweeps.points(Sweeps.Kind.BUFFER, Access.RANDOM_READ, file, true);
        assertEquals(16, buffers.getFirst().bufferSize());
        assertEquals(10 << 20, buffers.getLast().bufferSize());
        assertTrue(buffers.size() < Sweeps.points(Sweeps.Kind.BUFFER, Access.RANDOM_READ, file).size());
    }

    @Test
    void theSuiteRunsEndToEnd() throws Exception {
        BenchOptions options = new BenchOptions(Optional.of(16L << 10), List.of(1), 1, BenchOptions.CacheMode.BOTH,
                dir, List.of("stream", "direct", "bulk", "c"));
        SuiteReport report = new SuiteReport("patterns", "test");
        new PatternsSuite().run(new BenchContext(options, report));
        assertTrue(report.failures().isEmpty(), report.failures().toString());
        assertEquals(8, report.charts().size());
        assertEquals(8, report.tables().size());
        assertTrue(report.results().stream().anyMatch(r -> r.name().equals("bulk-random-write-buffer16")));
        try (var files = Files.list(dir.resolve("patterns"))) {
            assertFalse(files.anyMatch(f -> f.getFileName().toString().endsWith(".bin")), "data files left behind");
        }
        assertThrows(IllegalArgumentException.class, () -> new PatternsSuite().run(new BenchContext(
                new BenchOptions(Optional.of(16L << 10), List.of(1), 1, BenchOptions.CacheMode.BOTH, dir,
                        List.of("streams")), report)));
    }
}
