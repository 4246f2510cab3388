package org.hpio.bench.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A chart to render as PNG beside the report. {@link Kind#BAR}: categories on x (the series share them);
 * {@link Kind#LINE}: numeric x; {@link Kind#LINE_LOG_X} / {@link Kind#LINE_LOG_XY}: logarithmic axes (size sweeps).
 * {@code fileStem} names the PNG ({@code bulk-read.png}); it must be unique within a report.
 */
public final class Chart {
    public enum Kind { BAR, LINE, LINE_LOG_X, LINE_LOG_XY }

    /** One series: for BAR, {@code categories} and {@code y}; for LINE kinds, {@code x} and {@code y}. */
    public record Series(String name, List<String> categories, List<Double> x, List<Double> y) {
        public static Series bars(String name, List<String> categories, List<Double> y) {
            return new Series(name, List.copyOf(categories), List.of(), List.copyOf(y));
        }

        public static Series line(String name, List<Double> x, List<Double> y) {
            return new Series(name, List.of(), List.copyOf(x), List.copyOf(y));
        }
    }

    private final String fileStem;
    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final Kind kind;
    private final List<Series> series = new ArrayList<>();

    public Chart(String fileStem, String title, String xLabel, String yLabel, Kind kind) {
        this.fileStem = fileStem;
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.kind = kind;
    }

    public Chart add(Series s) {
        series.add(s);
        return this;
    }

    public String fileStem() {
        return fileStem;
    }

    public String title() {
        return title;
    }

    public String xLabel() {
        return xLabel;
    }

    public String yLabel() {
        return yLabel;
    }

    public Kind kind() {
        return kind;
    }

    public List<Series> series() {
        return series;
    }
}
