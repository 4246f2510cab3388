package org.hpio.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {
    @TempDir
    Path dir;

    private static List<SuiteReport> suites() {
        Table t = new Table("Throughput, cold cache", List.of("method", "MB/s", "note"))
                .row("raf", "512.3", "")
                .row("bulkraf", "1 024", "a|b")
                .note("median of 5 runs");
        SuiteReport bulk = JsonResultsTest.bulkRead()
                .table(t)
                .chart(new Chart("bulk-read", "Bulk read [cold]", "method", "MB/s", Chart.Kind.BAR)
                        .add(Chart.Series.bars("cold", List.of("raf", "bulkraf"), List.of(512.3, 1024.0))))
                .chart(new Chart("sweep", "Size sweep", "bytes", "MB/s", Chart.Kind.LINE_LOG_XY)
                        .add(Chart.Series.line("raf", List.of(1024.0, 1048576.0), List.of(10.0, 500.0))))
                .chart(new Chart("nothing", "Nothing measured", "x", "y", Chart.Kind.LINE))
                .note("Page cache dropped before each run.")
                .note("The C reference was compiled with -O2.");
        SuiteReport small = new SuiteReport("small-files", "Creates and reads many small files.")
                .param("files", 10000)
                .result("raf", "ops", 1234.5678, "ops/s")
                // Same stem as a chart of the first suite: must not overwrite it.
                .chart(new Chart("sweep", "Small sweep", "files", "ops/s", Chart.Kind.LINE)
                        .add(Chart.Series.line("raf", List.of(1.0, 2.0), List.of(3.0, 4.0))));
        return List.of(bulk, small);
    }

    @Test
    void writesMarkdownJsonAndCharts() throws IOException {
        Path reportDir = dir.resolve("out/run-1");
        Path md = ReportWriter.write(reportDir, JsonResultsTest.MACHINE, suites(),
                Instant.parse("2025-01-02T03:04:05Z"), Duration.ofSeconds(192));
        assertEquals(reportDir.resolve("report.md"), md);
        String text = Files.readString(md);

        assertTrue(text.startsWith("# hpio benchmark report\n"), text);
        assertTrue(text.contains("2025-01-0"), text);
        assertTrue(text.contains("3 min 12 s"), text);
        assertTrue(text.contains("## Machine"), text);
        assertTrue(text.contains("| CPU | Test CPU |"), text);
        assertTrue(text.contains("| Logical cores | 8 |"), text);
        assertTrue(text.contains("| Memory | 16.0 GiB |"), text);
        assertTrue(text.contains("| Kernel | 6.1.0-test |"), text);
        assertTrue(text.contains("ext4 on /dev/test1"), text);
        assertTrue(text.contains("| JDK | Vendor 25+36 (Test VM) |"), text);

        assertTrue(text.contains("## bulk-read\n\nReads a file in large blocks."), text);
        assertTrue(text.contains("| size-bytes | 1073741824 (1 GiB) |"), text);
        assertTrue(text.contains("| page-cache | cold |"), text);
        assertTrue(text.contains("| block-sizes | 4096, 65536 |"), text);
        assertTrue(text.contains("**Throughput, cold cache**\n\n| method | MB/s | note |\n|---|---|---|\n"), text);
        assertTrue(text.contains("| raf | 512.3 |  |"), text);
        assertTrue(text.contains("| bulkraf | 1 024 | a\\|b |"), text);
        assertTrue(text.contains("*median of 5 runs*"), text);
        assertTrue(text.contains("![Bulk read \\[cold\\]](charts/bulk-read.png)"), text);
        assertTrue(text.contains("![Size sweep](charts/sweep.png)"), text);
        assertTrue(text.contains("no data"), text);
        assertFalse(text.contains("nothing.png"), text);
        assertTrue(text.contains("- Page cache dropped before each run.\n- The C reference was compiled with -O2.\n"), text);

        assertTrue(text.contains("## small-files"), text);
        assertTrue(text.contains("| files | 10000 |"), text);
        // No table: the results are shown as one.
        assertTrue(text.contains("| raf | ops | 1235 | ops/s |"), text);
        assertTrue(text.contains("![Small sweep](charts/small-files-sweep.png)"), text);

        Png.check(reportDir.resolve("charts/bulk-read.png"));
        Png.check(reportDir.resolve("charts/sweep.png"));
        Png.check(reportDir.resolve("charts/small-files-sweep.png"));
        assertFalse(Files.exists(reportDir.resolve("charts/nothing.png")));

        List<Object> all = JsonTree.array(JsonTree.read(reportDir.resolve("results.json")));
        assertEquals(2, all.size());
        Map<String, Object> bulk = JsonTree.object(JsonTree.read(reportDir.resolve("bulk-read.json")));
        assertEquals("bulk-read", bulk.get("suite"));
        Map<String, Object> small = JsonTree.object(JsonTree.read(reportDir.resolve("small-files.json")));
        assertEquals("small-files", small.get("suite"));
        assertTrue(text.contains("[bulk-read.json](bulk-read.json)"), text);
    }

    @Test
    void theSummaryComesFirstWithEveryTargetsTable() throws IOException {
        SuiteReport withTargets = new SuiteReport("engine", "engines");
        withTargets.table(new Table("Throughput", List.of("a", "b")).row("x", "1"));
        withTargets.table(new Table("Targets, same run", List.of("ratio", "value", "target", "met"))
                .row("uring/fio", "0.9", ">= 0.85", "yes").row("uring/afc", "1.1", ">= 2", "no")
                .row("threads/fio", "0.8", "(for comparison)", ""));
        SuiteReport without = new SuiteReport("patterns", "sweeps");
        without.failure("c", new IllegalStateException("wrong checksum"));
        Path md = ReportWriter.write(dir.resolve("s"), JsonResultsTest.MACHINE, List.of(withTargets, without),
                Instant.now(), Duration.ofSeconds(3));
        String text = Files.readString(md);
        int summary = text.indexOf("## Summary");
        assertTrue(summary > 0 && summary < text.indexOf("## Machine"), text);
        assertTrue(text.contains("Machine: Test CPU, 8 logical cores, 16.0 GiB memory"), text);
        assertTrue(text.contains("Targets met: 1 of 2"), text);
        assertTrue(text.contains("- engine: 1 of 2 targets met"), text);
        assertTrue(text.contains("- patterns: no target ratios (figures only); 1 failure"), text);
        assertTrue(text.contains("**engine: Targets, same run**"), text);
        assertTrue(text.indexOf("| uring/fio | 0.9 | >= 0.85 | yes |") < text.indexOf("## Machine"), text);
        assertFalse(ReportWriter.summary(JsonResultsTest.MACHINE, List.of(withTargets)).contains("Throughput"));
    }

    @Test
    void noSuites() throws IOException {
        Path md = ReportWriter.write(dir, JsonResultsTest.MACHINE, List.of(), Instant.now(), Duration.ofMillis(1500));
        String text = Files.readString(md);
        assertTrue(text.contains("1.5 s"), text);
        assertTrue(text.contains("No suite ran."), text);
        assertEquals(List.of(), JsonTree.read(dir.resolve("results.json")));
    }

    @Test
    void formats() {
        assertEquals("1235", ReportWriter.number(1234.5678));
        assertEquals("0.1235", ReportWriter.number(0.12345678));
        assertEquals("42", ReportWriter.number(42.0));
        assertEquals("NaN", ReportWriter.number(Double.NaN));
        assertEquals("512 B", ReportWriter.bytes(512));
        assertEquals("1.5 MiB", ReportWriter.bytes(3L << 19));
        assertEquals("1 h 01 min 01 s", ReportWriter.duration(Duration.ofSeconds(3661)));
        assertEquals("a\\|b<br>c", ReportWriter.cell("a|b\nc"));
    }
}
