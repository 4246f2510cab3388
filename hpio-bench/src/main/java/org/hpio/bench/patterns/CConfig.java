package org.hpio.bench.patterns;

import org.hpio.bench.machine.CProgram;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The C column ({@code hpio_patterns.c}): the same operations with read/write or pread/pwrite, or the same
 * hand-rolled window. Timed inside the program (process start-up and making the write source not counted);
 * the elapsed time it reports replaces the caller's clock through {@link #lastSeconds()}.
 */
final class CConfig implements PatternsConfig {
    static final String PROGRAM = "hpio_patterns";

    private final CProgram program;
    private double lastSeconds = Double.NaN;

    CConfig(CProgram program) {
        this.program = program;
    }

    public String name() {
        return "c";
    }

    public String description() {
        return "C: read/write (pread/pwrite for random) per operation, or the same hand-rolled buffer";
    }

    public boolean supports(Point p) {
        return true;
    }

    /** Seconds the last run took, as the program measured them. */
    double lastSeconds() {
        return lastSeconds;
    }

    public long run(Point p, Path file, Source source) throws IOException {
        List<String> args = new ArrayList<>(List.of(p.access().write() ? "write" : "read",
                p.access().random() ? "random" : "seq", file.toString()));
        args.addAll(Arrays.asList(p.cArgs()));
        Process process = program.start(args);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        int exit;
        try {
            exit = process.waitFor();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while " + PROGRAM + " ran");
        }
        String done = output.lines().filter(l -> l.startsWith("DONE ")).findFirst().orElse(null);
        if (exit != 0 || done == null) {
            throw new IOException(PROGRAM + " failed (exit " + exit + "): " + output);
        }
        String[] f = done.split(" ");
        lastSeconds = Long.parseLong(f[1]) / 1e9;
        return Long.parseUnsignedLong(f[2]);
    }
}
