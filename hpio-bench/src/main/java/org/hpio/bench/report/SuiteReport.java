package org.hpio.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one suite run reports: its parameters (data sizes among them), the page-cache state, the
 * results (the JSON rows), and the tables, charts and notes of the Markdown report. Filled by one thread.
 */
public final class SuiteReport {
    private final String suite;
    private final String summary;
    private final Map<String, Object> params = new LinkedHashMap<>();
    private final List<Result> results = new ArrayList<>();
    private final List<Table> tables = new ArrayList<>();
    private final List<Chart> charts = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    public SuiteReport(String suite, String summary) {
        this.suite = suite;
        this.summary = summary;
    }

    /** A parameter of the run, e.g. "size-bytes" or "page-cache"; shown in the report and written to JSON. */
    public SuiteReport param(String key, Object value) {
        params.put(key, value);
        return this;
    }

    public SuiteReport result(String name, String metric, double value, String unit) {
        results.add(new Result(name, metric, value, unit));
        return this;
    }

    /**
     * A table whose figures are quoted on their own (targets, ratios): its title names this machine's CPU model,
     * so that a figure never travels without the CPU it was measured on.
     */
    public Table quotedTable(String title, List<String> columns) {
        return new Table(title + " (CPU: " + MachineInfo.cpuModelHere() + ")", columns);
    }

    public SuiteReport table(Table table) {
        tables.add(table);
        return this;
    }

    public SuiteReport chart(Chart chart) {
        charts.add(chart);
        return this;
    }

    /** A sentence for the report (what was measured how, what was left out and why). */
    public SuiteReport note(String note) {
        notes.add(note);
        return this;
    }

    /**
     * A configuration that failed (wrong output, an I/O error): it gets no figure, the report says why, and
     * the command exits non-zero after writing the report.
     */
    public SuiteReport failure(String configuration, Throwable cause) {
        String why = configuration + " FAILED: " + (cause.getMessage() == null ? cause.toString() : cause.getMessage());
        failures.add(why);
        notes.add(why);
        return this;
    }

    public List<String> failures() {
        return failures;
    }

    public String suite() {
        return suite;
    }

    public String summary() {
        return summary;
    }

    public Map<String, Object> params() {
        return params;
    }

    public List<Result> results() {
        return results;
    }

    public List<Table> tables() {
        return tables;
    }

    public List<Chart> charts() {
        return charts;
    }

    public List<String> notes() {
        return notes;
    }
}
