package org.hpio.cli;

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
}
