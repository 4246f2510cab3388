package org.hpio.cli;

import org.hpio.bench.report.JsonResults;
import org.hpio.bench.report.SuiteReport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code --json FILE} of a command that prints figures: DESIGN.md's JSON form, written by the bench
 * report's own writer, and a line saying where it went.
 */
final class FiguresFile {
    private FiguresFile() {
    }

    static void write(Path file, SuiteReport figures) throws IOException {
        JsonResults.write(file, List.of(figures));
        System.out.println("JSON: " + file.toAbsolutePath());
    }
}
