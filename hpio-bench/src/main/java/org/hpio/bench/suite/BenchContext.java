package org.hpio.bench.suite;

import org.hpio.bench.machine.CProgram;
import org.hpio.bench.report.MachineInfo;
import org.hpio.bench.report.Progress;
import org.hpio.bench.report.SuiteReport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a running suite gets: the options, its work directory, its report, progress, and the C programs. Making one
 * names the machine's CPU model in the suite's parameters and on the console, so that no suite's figures are
 * shown without it.
 */
public final class BenchContext {
    private final BenchOptions options;
    private final SuiteReport report;
    private final Path workDir;

    public BenchContext(BenchOptions options, SuiteReport report) throws IOException {
        this.options = options;
        this.report = report;
        this.workDir = Files.createDirectories(options.workDir().resolve(report.suite()));
        String cpu = MachineInfo.cpuModelHere();
        report.param("cpu", cpu);
        System.err.println("hpio bench " + report.suite() + ": CPU " + cpu);
    }

    public BenchOptions options() {
        return options;
    }

    public SuiteReport report() {
        return report;
    }

    /** The suite's own directory for data files under the work directory; the suite deletes what it made. */
    public Path workDir() {
        return workDir;
    }

    public Progress progress(String task, long steps) {
        return Progress.start(report.suite() + ": " + task, steps);
    }

    /** The C reference program {@code name}, compiled on first use; absent (with a report note) without a compiler. */
    public Optional<CProgram> cProgram(String name) throws IOException {
        List<String> why = new ArrayList<>();
        Optional<CProgram> program = CProgram.compile(name, options.workDir().resolve("c-build"), why);
        why.forEach(reason -> report.note("C rows left out: " + reason));
        return program;
    }
}
