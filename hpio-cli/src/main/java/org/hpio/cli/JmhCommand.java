package org.hpio.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code hpio jmh [JMH ARGS]}: the JMH micro-benchmarks of hpio-bench, with JMH's own options. */
@Command(name = "jmh", description = {"Runs the JMH micro-benchmarks (e.g. ./hpio jmh DecodeBenchmark).",
        "Arguments go to JMH as they are (-h for JMH's help)."})
final class JmhCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "ARG", description = "JMH arguments: benchmark regex, -f, -wi, -i, ...")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        run(args.toArray(String[]::new));
        return 0;
    }

    static void run(String[] jmhArgs) throws Exception {
        // qualified: JMH's Main, not this package's Main (hpio's command line)
        org.openjdk.jmh.Main.main(jmhArgs);
    }
}
