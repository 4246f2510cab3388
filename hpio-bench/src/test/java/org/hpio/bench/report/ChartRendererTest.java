package org.hpio.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartRendererTest {
    @TempDir
    Path dir;

    @Test
    void groupedBarsOverTheUnionOfCategories() throws IOException {
        Chart c = new Chart("bulk-read", "Bulk read", "method", "MB/s", Chart.Kind.BAR)
                .add(Chart.Series.bars("cold", List.of("raf", "bulkraf", "c"), List.of(100.0, 900.0, 950.0)))
                .add(Chart.Series.bars("warm", List.of("raf", "c", "mmap"), List.of(300.0, Double.NaN, 4000.0)))
                .add(Chart.Series.bars("cold", List.of("raf"), List.of(1.0))); // a repeated name
        Path png = ChartRenderer.render(c, dir);
        assertEquals(dir.resolve("bulk-read.png"), png);
        Png.check(png);
    }

    @Test
    void linesOnEveryAxisKind() throws IOException {
        for (Chart.Kind kind : List.of(Chart.Kind.LINE, Chart.Kind.LINE_LOG_X, Chart.Kind.LINE_LOG_XY)) {
            Chart c = new Chart("sweep-" + kind, "Size sweep", "bytes", "MB/s", kind)
                    .add(Chart.Series.line("raf", List.of(0.0, 1024.0, 65536.0, 1048576.0), List.of(1.0, 10.0, 0.0, 1000.0)))
                    .add(Chart.Series.line("bulkraf", List.of(1024.0, 65536.0), List.of(20.0, Double.POSITIVE_INFINITY)));
            Png.check(ChartRenderer.render(c, dir));
        }
    }

    @Test
    void noDataDrawsNothing() throws IOException {
        Chart empty = new Chart("empty", "Empty", "x", "y", Chart.Kind.LINE);
        assertNull(ChartRenderer.render(empty, dir));
        Chart emptySeries = new Chart("empty2", "Empty", "x", "y", Chart.Kind.BAR)
                .add(Chart.Series.bars("none", List.of(), List.of()))
                .add(Chart.Series.bars("nan", List.of("a"), List.of(Double.NaN)));
        assertNull(ChartRenderer.render(emptySeries, dir));
        // Only non-positive points on a logarithmic axis: nothing to draw either.
        Chart nonPositive = new Chart("log", "Log", "x", "y", Chart.Kind.LINE_LOG_XY)
                .add(Chart.Series.line("zero", List.of(0.0, 1.0), List.of(5.0, -1.0)));
        assertNull(ChartRenderer.render(nonPositive, dir));
        try (var files = Files.list(dir)) {
            assertFalse(files.findAny().isPresent(), "no file written");
        }
    }

    @Test
    void unsafeStemsBecomeFileNames() throws IOException {
        Chart c = new Chart("../up/and away", "t", "x", "y", Chart.Kind.LINE)
                .add(Chart.Series.line("s", List.of(1.0, 2.0), List.of(1.0, 2.0)));
        Path png = ChartRenderer.render(c, dir);
        assertEquals(dir, png.getParent());
        assertEquals("---up-and-away.png", png.getFileName().toString());
        Png.check(png);
    }

    @Test
    void mismatchedSeriesIsRejected() {
        Chart c = new Chart("bad", "t", "x", "y", Chart.Kind.LINE)
                .add(new Chart.Series("s", List.of(), List.of(1.0, 2.0), List.of(1.0)));
        assertThrows(IllegalArgumentException.class, () -> ChartRenderer.render(c, dir));
    }
}
