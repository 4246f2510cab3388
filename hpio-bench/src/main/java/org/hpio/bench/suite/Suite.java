package org.hpio.bench.suite;

/** A benchmark suite that {@code hpio bench NAME} runs: it measures, checks its own output, and reports. */
public interface Suite {
    /** The name on the command line and in the JSON ("bulk", "approaches", ...). */
    String name();

    /** One line for {@code hpio bench --list} and the report. */
    String summary();

    /**
     * Runs the suite at the sizes in {@code context.options()}, writing figures, tables and charts into
     * {@code context.report()}. A figure is reported only after the output it measured was checked; a wrong
     * output is an exception, not a figure.
     */
    void run(BenchContext context) throws Exception;
}
