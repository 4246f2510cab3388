package org.hpio.cli;

import org.hpio.archive.cache.policy.Policies;
import org.hpio.archive.simulation.CacheSimulator;
import org.hpio.archive.simulation.PolicyCache;
import org.hpio.archive.simulation.SyntheticTraces;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code hpio simulate} prints one row per size and policy and writes the Figure 3 charts. */
class SimulateCommandTest {
    @TempDir
    Path dir;

    @Test
    void simulatesTheSyntheticTrace() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream old = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exit = new CommandLine(new Main()).execute("simulate", "--trace", "synthetic", "--sizes", "4m,64m",
                    "--policies", "lru,landlord-lazy,caffeine", "--charts", dir.toString());
        } finally {
            System.setOut(old);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, text);
        assertEquals(6, text.lines().filter(l -> l.matches("^(4|64)\\.0 MiB .*")).count(), text);
        assertTrue(Files.size(dir.resolve("synthetic-non-compulsory-misses.png")) > 0);
        assertTrue(Files.exists(dir.resolve("synthetic-hit-rate.png")));
    }

    @Test
    void writesTheFiguresAsJsonInDesignMdsForm() throws Exception {
        Path json = dir.resolve("sim.json");
        int exit = Main.commandLine().execute("simulate", "--trace", "synthetic", "--sizes", "4m,64m",
                "--policies", "lru,landlord-lazy", "--charts", dir.toString(), "--json", json.toString());
        assertEquals(0, exit);
        JsonFigures figures = JsonFigures.read(json);
        assertEquals("simulate", figures.suite());
        assertTrue(figures.paramKeys().containsAll(List.of("trace", "policies", "cache-bytes")),
                figures.paramKeys().toString());
        assertTrue(figures.results().stream().anyMatch(r -> r.get("name").equals("landlord-lazy-64m")
                && r.get("metric").equals("hit-rate") && r.get("unit").equals("%")), figures.results().toString());
        // 2 policies x 2 sizes x 6 metrics (hit rate, byte hit rate, misses, non-compulsory misses and share, seeks)
        assertEquals(24, figures.results().size());
        assertTrue(figures.results().stream().allMatch(r -> r.keySet().equals(
                Set.of("name", "metric", "value", "unit"))), figures.results().toString());
    }

    @Test
    void anUnknownPolicyIsAClearError() {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Main());
        cli.setErr(new PrintWriter(err));
        cli.setExecutionExceptionHandler((e, c, p) -> {
            c.getErr().println(e.getMessage());
            return 1;
        });
        int exit = cli.execute("simulate", "--trace", "synthetic", "--policies", "lru,arc", "--charts", dir.toString());
        assertEquals(1, exit);
        assertTrue(err.toString().contains("no cache policy named 'arc'"), err.toString());
    }

    @Test
    void loadTimeCostChangesLandlordsChoicesAndABadModelIsAClearError() {
        var uniform = SimulateCommand.parseCost("uniform");
        var disk = SimulateCommand.parseCost("load-time:10:40");
        assertEquals(1.0, uniform.of(123_456));
        assertEquals(0.010 + 400_000 / 40e6, disk.of(400_000), 1e-12);
        for (String bad : new String[]{"load-time:10", "load-time:x:40", "load-time:-1:40", "weighted"}) {
            IllegalArgumentException e = Assertions.assertThrows(IllegalArgumentException.class,
                    () -> SimulateCommand.parseCost(bad));
            assertTrue(e.getMessage().contains("positive") || e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
        var trace = SyntheticTraces.widelySpacedRepeats();
        long size = 16 << 20;
        var a = CacheSimulator.replay(trace, "u", PolicyCache.model(Policies.require("landlord-lazy"), size, uniform),
                size, 0.25, null);
        var b = CacheSimulator.replay(trace, "d", PolicyCache.model(Policies.require("landlord-lazy"), size, disk),
                size, 0.25, null);
        assertTrue(a.hits() != b.hits(), "cost must change what Landlord keeps: " + a + " vs " + b);
    }
}
