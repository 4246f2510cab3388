package org.hpio.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressTest {

    /** Under the build, stderr is a pipe: the progress must be silent, and stdout untouched either way. */
    @Test
    void silentWithoutTerminalAndNeverOnStdout() {
        String stdout = capturingStdout(() -> {
            try (Progress p = Progress.start("reading", 10)) {
                p.step();
                p.stepBy(5);
                p.message("file 6 of 10");
                p.message(null);
                p.stepBy(100); // beyond the total: no harm
            }
            try (Progress p = Progress.start(null, 0)) { // unknown total
                p.step();
            }
        });
        assertEquals("", stdout);
    }

    @Test
    void quietPropertySilences() {
        String old = System.getProperty("hpio.quiet");
        System.setProperty("hpio.quiet", "true");
        try {
            String stdout = capturingStdout(() -> {
                Progress p = Progress.start("writing", 3);
                p.step();
                p.close();
                p.close(); // twice is fine
            });
            assertEquals("", stdout);
        } finally {
            if (old == null) {
                System.clearProperty("hpio.quiet");
            } else {
                System.setProperty("hpio.quiet", old);
            }
        }
    }

    private static String capturingStdout(Runnable r) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            r.run();
        } finally {
            System.setOut(old);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }
}
