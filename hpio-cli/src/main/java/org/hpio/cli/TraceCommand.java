package org.hpio.cli;

import org.hpio.archive.trace.Trace;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.archive.trace.TraceRun;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code hpio trace}: load traces. */
@Command(name = "trace", mixinStandardHelpOptions = true, description = "Load traces (002 §3.3.2).",
        subcommands = {TraceCommand.Record.class})
final class TraceCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** {@code hpio trace record -o T [--root DIR] -- COMMAND ARGS...}. */
    @Command(name = "record", mixinStandardHelpOptions = true,
            description = {"Runs COMMAND under strace and writes a load trace of the regular files under ROOT it"
                    + " opened for reading, with their sizes.", "Example: hpio trace record -o py.trace --root"
                    + " \"$(python3 -c 'import sys; print(sys.prefix)')\" -- python3 -c 'import json'"})
    static final class Record implements Callable<Integer> {
        @Option(names = {"-o", "--output"}, required = true, paramLabel = "T", description = "the trace to write")
        Path output;

        @Option(names = "--root", paramLabel = "DIR", description = "paths are written relative to DIR; files"
                + " outside it are left out (default: the current directory)")
        Path root = Path.of("");

        @Option(names = "--append", description = "add the run to the trace in T instead of replacing it")
        boolean append;

        @Parameters(arity = "1..*", paramLabel = "COMMAND", description = "the program and its arguments")
        List<String> command;

        @Override
        public Integer call() throws IOException, InterruptedException {
            InputFiles.directory(root);
            InputFiles.output(output);
            Path strace = Executables.find("strace").orElseThrow(() -> new IllegalStateException(
                    "strace is not installed: install Debian's package 'strace' (apt-get install strace)"));
            Path log = Files.createTempFile("hpio-strace", ".log");
            try {
                List<String> argv = new ArrayList<>(List.of(strace.toString(), "-f", "-qq", "-ttt", "-y", "-s",
                        "4096", "-e", "trace=openat,open", "-o", log.toString(), "--"));
                argv.addAll(command);
                int exit = new ProcessBuilder(argv).inheritIO().start().waitFor();
                TraceRun run = toRun(StraceLog.parse(Files.readAllLines(log)));
                writeTrace(run);
                if (exit != 0) {
                    System.err.println("hpio trace record: " + command.getFirst() + " exited with " + exit
                            + "; the trace holds what it opened until then");
                }
                return exit == 0 ? 0 : 1;
            } finally {
                Files.deleteIfExists(log);
            }
        }

        private TraceRun toRun(List<StraceLog.Open> opens) throws IOException {
            Path realRoot = root.toAbsolutePath().toRealPath();
            List<TraceEvent> events = new ArrayList<>();
            int outside = 0;
            double start = 0;
            for (StraceLog.Open open : opens) {
                Path file = Path.of(open.path());
                if (!file.startsWith(realRoot) || !Files.isRegularFile(file)) {
                    outside++;
                    continue;
                }
                if (events.isEmpty()) {
                    start = open.epochSeconds();   // the run starts at its first load: 0, so an appended run is told apart
                }
                double seconds = Math.max(events.isEmpty() ? 0 : events.getLast().seconds(), open.epochSeconds() - start);
                events.add(TraceEvent.load(seconds, realRoot.relativize(file).toString(), Files.size(file)));
            }
            System.err.printf("hpio trace record: %d loads under %s (%d opens elsewhere or not of regular"
                    + " files left out)%n", events.size(), realRoot, outside);
            if (events.isEmpty()) {
                throw new IllegalStateException("the command opened no regular file under " + realRoot
                        + " for reading; is --root right?");
            }
            return new TraceRun(events);
        }

        private void writeTrace(TraceRun run) throws IOException {
            List<TraceRun> runs = new ArrayList<>();
            if (append && Files.exists(output)) {
                runs.addAll(Trace.read(output).runs());
            }
            runs.add(run);
            new Trace(runs).write(output);
            System.err.printf("hpio trace record: wrote %s (%d runs)%n", output, runs.size());
        }
    }
}
