package org.hpio.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.Arrays;

/** The {@code hpio} command. The launcher script {@code ./hpio} finds JDK 25, builds, and runs this. */
@Command(name = "hpio", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "High-performance file I/O for Java 25: benchmarks and tools.",
        subcommands = {BenchCommand.class, JmhCommand.class,
                ArchiveCommands.Pack.class, ArchiveCommands.Ls.class, ArchiveCommands.Verify.class,
                OrderCommand.class, TraceCommand.class, SimulateCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Also from the launcher: ./hpio test (every test), ./hpio build."})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /**
     * The command line with hpio's error reporting: a failure prints one line, "hpio COMMAND: " and the problem
     * in words (the file it concerns named), and exits with 1; a bad option prints what is wrong and where the
     * help is, and exits with 2.
     */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            err.println(commandLine.getCommandSpec().qualifiedName() + ": " + ErrorText.of(e));
            if (Boolean.getBoolean("hpio.debug")) {
                e.printStackTrace(err);
            } else {
                err.println("(run with HPIO_JAVA_OPTS=-Dhpio.debug=true for the stack trace)");
            }
            return 1;
        });
        cli.setParameterExceptionHandler((e, args) -> {
            CommandLine commandLine = e.getCommandLine();
            String name = commandLine.getCommandSpec().qualifiedName();
            PrintWriter err = commandLine.getErr();
            err.println(name + ": " + e.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
            err.println("Try '" + name + " --help' for the options.");
            return commandLine.getCommandSpec().exitCodeOnInvalidInput();
        });
        return cli;
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("jmh")) {
            // JMH parses its own options; picocli would reject them.
            JmhCommand.run(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        System.exit(commandLine().execute(args));
    }
}
