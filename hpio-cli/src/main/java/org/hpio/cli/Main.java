package org.hpio.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code hpio} command. The launcher script {@code ./hpio} finds JDK 25, builds, and runs this. */
@Command(name = "hpio", mixinStandardHelpOptions = true, version = "hpio 0.1.0",
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

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("jmh")) {
            // JMH parses its own options; picocli would reject them.
            JmhCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("hpio: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            if (Boolean.getBoolean("hpio.debug")) {
                e.printStackTrace(commandLine.getErr());
            } else {
                commandLine.getErr().println("(run with HPIO_JAVA_OPTS=-Dhpio.debug=true for the stack trace)");
            }
            return 1;
        });
        System.exit(cli.execute(args));
    }
}
