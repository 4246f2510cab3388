package org.hpio.bench.report;

import java.util.ArrayList;
import java.util.List;

/** A table for the Markdown report: a title, column headings, rows of already-formatted cells, a note. */
public final class Table {
    private final String title;
    private final List<String> columns;
    private final List<List<String>> rows = new ArrayList<>();
    private String note = "";

    public Table(String title, List<String> columns) {
        this.title = title;
        this.columns = List.copyOf(columns);
    }

    public Table row(List<String> cells) {
        if (cells.size() != columns.size()) {
            throw new IllegalArgumentException("row has " + cells.size() + " cells, table has " + columns.size() + " columns");
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    public Table row(String... cells) {
        return row(List.of(cells));
    }

    public Table note(String note) {
        this.note = note;
        return this;
    }

    public String title() {
        return title;
    }

    public List<String> columns() {
        return columns;
    }

    public List<List<String>> rows() {
        return rows;
    }

    public String note() {
        return note;
    }
}
