package org.hpio.cli;

import org.hpio.archive.Archive;
import org.hpio.archive.ArchiveEntry;
import org.hpio.internal.sys.Libzstd;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code hpio pack}, {@code ls}, {@code verify} and {@code order} end to end. */
class ArchiveCommandsTest {
    @TempDir
    Path dir;

    /** Runs the CLI, returning the exit code and what it printed on stdout. */
    static String[] run(String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            int exit = new CommandLine(new Main()).execute(args);
            return new String[] {String.valueOf(exit), out.toString(StandardCharsets.UTF_8)};
        } finally {
            System.setOut(saved);
        }
    }

    private Path tree() throws Exception {
        Path root = dir.resolve("root");
        for (String f : List.of("a/1.txt", "a/2.txt", "b/3.txt", "c.txt")) {
            Files.createDirectories(root.resolve(f).getParent());
            Files.writeString(root.resolve(f), ("content of " + f + "\n").repeat(50));
        }
        Files.writeString(dir.resolve("t.trace"), """
                000.100000: L "c.txt" 1000
                000.200000: L "b/3.txt" 1000
                000.300000: L "a/1.txt" 1000
                """);
        return root;
    }

    @Test
    void packInTraceOrderThenLsAndVerify() throws Exception {
        Path root = tree();
        Path zip = dir.resolve("out.zip");
        String[] pack = run("pack", root.toString(), "-o", zip.toString(), "--trace", dir.resolve("t.trace").toString());
        assertEquals("0", pack[0]);
        try (Archive a = Archive.open(zip)) {
            assertEquals(List.of("c.txt", "b/3.txt", "a/1.txt", "a/2.txt"),
                    a.entries().stream().map(ArchiveEntry::name).toList());
        }
        String[] ls = run("ls", zip.toString());
        assertEquals("0", ls[0]);
        assertTrue(ls[1].contains("deflate") && ls[1].contains("b/3.txt") && ls[1].contains("4 entries"), ls[1]);
        String[] verify = run("verify", zip.toString());
        assertEquals("0", verify[0]);
        assertTrue(verify[1].contains("4 entries, 0 bad"), verify[1]);
    }

    @Test
    void packWithZstandardThenLsAndVerify() throws Exception {
        Assumptions.assumeTrue(Libzstd.available(),
                "libzstd missing (Debian's libzstd1)");
        Path zip = dir.resolve("zstd.zip");
        String[] pack = run("pack", tree().toString(), "-o", zip.toString(), "--method", "zstd", "--level", "9");
        assertEquals("0", pack[0]);
        assertTrue(pack[1].contains("(4 zstd)"), pack[1]);
        String[] ls = run("ls", zip.toString());
        assertTrue(ls[1].contains("zstd") && ls[1].contains("b/3.txt"), ls[1]);
        String[] verify = run("verify", zip.toString());
        assertEquals("0", verify[0]);
        assertTrue(verify[1].contains("4 entries, 0 bad, 0 warnings"), verify[1]);
        assertEquals("1", run("pack", tree().toString(), "-o", zip.toString(), "--method", "lz4")[0],
                "an unknown method is refused, as an unknown --order is");
    }

    @Test
    void packWithZstandardForDecodingSpeed() throws Exception {
        Assumptions.assumeTrue(Libzstd.fastDecodeSupported(), "needs libzstd 1.4 or 1.5 (Debian's libzstd1)");
        Path zip = dir.resolve("fast.zip");
        String[] pack = run("pack", tree().toString(), "-o", zip.toString(), "--method", "zstd", "--fast-decode");
        assertEquals("0", pack[0], pack[1]);
        assertTrue(pack[1].contains("(4 zstd)"), pack[1]);
        String[] verify = run("verify", zip.toString());
        assertEquals("0", verify[0]);
        assertTrue(verify[1].contains("4 entries, 0 bad, 0 warnings"), verify[1]);
        Path deflate = dir.resolve("deflate-fast.zip");
        assertEquals("1", run("pack", tree().toString(), "-o", deflate.toString(), "--fast-decode")[0],
                "--fast-decode without --method zstd is refused");
        assertTrue(Files.notExists(deflate), "and nothing is written");
    }

    @Test
    void verifySaysWhatItToleratesAsWarnings() throws Exception {
        Path zip = dir.resolve("trailer.zip");
        assertEquals("0", run("pack", tree().toString(), "-o", zip.toString())[0]);
        Files.write(zip, "TRAILER".getBytes(StandardCharsets.US_ASCII), StandardOpenOption.APPEND);
        PrintStream savedErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        String[] verify;
        try {
            verify = run("verify", zip.toString());
        } finally {
            System.setErr(savedErr);
        }
        assertEquals("0", verify[0]);
        assertTrue(verify[1].contains("4 entries, 0 bad, 1 warnings"), verify[1]);
        String said = err.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("hpio verify: warning: ") && said.contains("trailer.zip: 7 bytes after the end of "
                + "central directory record at offset"), said);
    }

    @Test
    void packInDirectoryOrderByDefault() throws Exception {
        Path zip = dir.resolve("out.zip");
        assertEquals("0", run("pack", tree().toString(), "-o", zip.toString())[0]);
        try (Archive a = Archive.open(zip)) {
            assertEquals(List.of("a/1.txt", "a/2.txt", "b/3.txt", "c.txt"),
                    a.entries().stream().map(ArchiveEntry::name).toList());
        }
    }

    @Test
    void packLeavesOutAnOlderArchiveUnderTheDirectory() throws Exception {
        Path root = tree();
        Path zip = root.resolve("self.zip");
        assertEquals("0", run("pack", root.toString(), "-o", zip.toString())[0]);
        assertEquals("0", run("pack", root.toString(), "-o", zip.toString())[0]);
        try (Archive a = Archive.open(zip)) {
            assertEquals(4, a.entries().size());
        }
    }

    @Test
    void verifyFailsOnADamagedArchive() throws Exception {
        Path zip = dir.resolve("out.zip");
        run("pack", tree().toString(), "-o", zip.toString(), "--min-savings", "1");
        byte[] bytes = Files.readAllBytes(zip);
        bytes[40] ^= 1;                                 // inside the first entry's stored data
        Files.write(zip, bytes);
        assertEquals("1", run("verify", zip.toString())[0]);
    }

    @Test
    void orderWritesTheSeekCountsAsJson() throws Exception {
        Path json = dir.resolve("order.json");
        String[] order = run("order", "--trace", tree().resolveSibling("t.trace").toString(), "--cache", "0,4m",
                "--no-order", "--json", json.toString());
        assertEquals("0", order[0], order[1]);
        JsonFigures figures = JsonFigures.read(json);
        assertEquals("order", figures.suite());
        assertTrue(figures.results().stream().anyMatch(r -> r.get("name").equals("directory-order-no-cache")
                && r.get("metric").equals("seeks-whole-trace") && r.get("value").equals(2.0)), figures.results().toString());
        assertTrue(figures.results().stream().anyMatch(r -> r.get("name").equals("trace-order-lru-4m")),
                figures.results().toString());
    }

    @Test
    void orderPrintsTheOrderAndTheSeekTable() throws Exception {
        Path root = tree();
        Path zip = dir.resolve("out.zip");
        run("pack", root.toString(), "-o", zip.toString(), "--order", "dir");
        String[] order = run("order", "--trace", dir.resolve("t.trace").toString(), "--archive", zip.toString(),
                "--cache", "0");
        assertEquals("0", order[0]);
        assertTrue(order[1].startsWith("c.txt\nb/3.txt\na/1.txt\na/2.txt\n"), order[1]);
        // Directory order a/1 a/2 b/3 c: c -> b/3 -> a/1 is two seeks; trace order none.
        assertTrue(order[1].matches("(?s).*none +directory order +2 \\(66\\.7%\\).*"), order[1]);
        assertTrue(order[1].matches("(?s).*none +trace order +0 \\(0\\.0%\\).*"), order[1]);
        assertTrue(order[1].matches("(?s).*none +the archive +2 \\(66\\.7%\\).*"), order[1]);
    }

    @Test
    void badOptionsAreClearErrors() throws Exception {
        Path root = tree();
        assertEquals("1", run("pack", root.toString(), "-o", dir.resolve("x.zip").toString(), "--order", "trace")[0]);
        assertEquals("1", run("ls", dir.resolve("missing.zip").toString())[0]);
        assertTrue(Files.notExists(dir.resolve("x.zip")));
    }
}
