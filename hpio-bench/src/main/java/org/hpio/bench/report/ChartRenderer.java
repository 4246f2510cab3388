package org.hpio.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

/**
 * Draws a report {@link Chart} as a PNG with XChart, so the Markdown report can show it.
 * Bars become a category chart (several series: grouped bars over the union of their categories); lines become an
 * XY chart, with logarithmic axes for the LOG kinds. Points a chart cannot show are left out: non-finite values,
 * and values &lt;= 0 on a logarithmic axis. Rendering needs no display.
 */
public final class ChartRenderer {
    /** Size of every PNG, in pixels. */
    public static final int WIDTH = 900;
    public static final int HEIGHT = 560;

    static {
        // The launcher passes -Djava.awt.headless=true; tests and other callers may not. Must precede AWT's start.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private ChartRenderer() {
    }

    /**
     * Writes {@code dir/<fileStem>.png} (characters unsafe in a file name replaced by '-') and returns its path;
     * returns null, writing nothing, when the chart has no point to draw.
     *
     * @throws IllegalArgumentException if a series has more categories or x values than y values, or fewer
     */
    public static Path render(Chart chart, Path dir) throws IOException {
        return render(chart, dir, safeStem(chart.fileStem()));
    }

    /** As {@link #render(Chart, Path)}, under the file name {@code stem + ".png"}. */
    static Path render(Chart chart, Path dir, String stem) throws IOException {
        // qualified: XChart's Chart, not this package's Chart (the chart's description) it is drawn from
        org.knowm.xchart.internal.chartpart.Chart<?, ?> drawn = switch (chart.kind()) {
            case BAR -> bars(chart);
            case LINE -> lines(chart, false, false);
            case LINE_LOG_X -> lines(chart, true, false);
            case LINE_LOG_XY -> lines(chart, true, true);
        };
        if (drawn == null) {
            return null;
        }
        Path file = dir.resolve(stem + ".png");
        AtomicFile.write(file, out -> BitmapEncoder.saveBitmap(drawn, out, BitmapEncoder.BitmapFormat.PNG));
        return file;
    }

    /** {@code stem} with every character outside [A-Za-z0-9._-] replaced by '-', never empty nor hidden. */
    static String safeStem(String stem) {
        String s = stem == null ? "" : stem.replaceAll("[^A-Za-z0-9._-]", "-");
        int dots = 0;
        while (dots < s.length() && s.charAt(dots) == '.') {
            dots++;
        }
        s = "-".repeat(dots) + s.substring(dots); // no hidden file, no ".."
        return s.isEmpty() ? "chart" : s;
    }

    private static CategoryChart bars(Chart chart) {
        // XChart draws grouped bars only when every series has the same categories: use the union, null where missing.
        Set<String> categories = new LinkedHashSet<>();
        List<Map<String, Double>> values = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Chart.Series s : chart.series()) {
            checkSizes(chart, s, s.categories().size());
            Map<String, Double> v = new LinkedHashMap<>();
            for (int i = 0; i < s.y().size(); i++) {
                Double y = s.y().get(i);
                if (y != null && Double.isFinite(y)) {
                    v.put(s.categories().get(i), y);
                }
            }
            if (!v.isEmpty()) {
                categories.addAll(v.keySet());
                values.add(v);
                names.add(s.name());
            }
        }
        if (values.isEmpty()) {
            return null;
        }
        CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title(text(chart.title())).xAxisTitle(text(chart.xLabel())).yAxisTitle(text(chart.yLabel())).build();
        style(c.getStyler());
        List<String> x = List.copyOf(categories);
        if (x.size() > 8 || x.stream().anyMatch(cat -> cat.length() > 12)) {
            c.getStyler().setXAxisLabelRotation(30);
        }
        Set<String> used = new HashSet<>();
        for (int i = 0; i < values.size(); i++) {
            Map<String, Double> v = values.get(i);
            List<Double> y = x.stream().map(v::get).toList(); // nulls allowed: a missing bar
            c.addSeries(uniqueName(names.get(i), used), x, y);
        }
        return c;
    }

    private static XYChart lines(Chart chart, boolean logX, boolean logY) {
        List<String> names = new ArrayList<>();
        List<List<Double>> xss = new ArrayList<>();
        List<List<Double>> yss = new ArrayList<>();
        for (Chart.Series s : chart.series()) {
            checkSizes(chart, s, s.x().size());
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (int i = 0; i < s.y().size(); i++) {
                Double x = s.x().get(i);
                Double y = s.y().get(i);
                if (drawable(x, logX) && drawable(y, logY)) {
                    xs.add(logX ? Math.log10(x) : x);
                    ys.add(logY ? Math.log10(y) : y);
                }
            }
            if (!xs.isEmpty()) {
                names.add(s.name());
                xss.add(xs);
                yss.add(ys);
            }
        }
        if (names.isEmpty()) {
            return null;
        }
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title(text(chart.title())).xAxisTitle(text(chart.xLabel())).yAxisTitle(text(chart.yLabel())).build();
        style(c.getStyler());
        c.getStyler().setMarkerSize(6);
        // A logarithmic axis is drawn as the values' log10 on a linear axis, labelled with 10^v: XChart's own
        // log axis labels in scientific notation (1E5) and ignores a label function. The x axis is labelled
        // at the data's x values.
        c.getStyler().setxAxisTickLabelsFormattingFunction(labels(logX));
        c.getStyler().setyAxisTickLabelsFormattingFunction(labels(logY));
        Set<String> used = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            c.addSeries(uniqueName(names.get(i), used), xss.get(i), yss.get(i));
        }
        return c;
    }

    /** Axis labels in the form of {@link AxisLabels}, of 10^v on an axis of log10 values. */
    private static Function<Double, String> labels(boolean logarithmic) {
        return logarithmic ? v -> AxisLabels.format(Math.pow(10, v)) : AxisLabels::format;
    }

    /** What every chart shares: the legend below, no tool tips, numeric axes labelled 150k, 1.5M (AxisLabels). */
    private static void style(AxesChartStyler st) {
        st.setyAxisTickLabelsFormattingFunction(AxisLabels::format);
        st.setLegendPosition(Styler.LegendPosition.OutsideS);
        st.setLegendLayout(Styler.LegendLayout.Horizontal);
        st.setToolTipsEnabled(false);
        st.setAntiAlias(true);
    }

    private static boolean drawable(Double v, boolean log) {
        return v != null && Double.isFinite(v) && (!log || v > 0);
    }

    private static void checkSizes(Chart chart, Chart.Series s, int xs) {
        if (xs != s.y().size()) {
            throw new IllegalArgumentException("chart '" + chart.fileStem() + "', series '" + s.name() + "': "
                    + xs + " x values or categories but " + s.y().size() + " y values");
        }
    }

    /** XChart refuses two series of one name. */
    private static String uniqueName(String name, Set<String> used) {
        String base = name == null || name.isBlank() ? "series" : name;
        String n = base;
        for (int i = 2; !used.add(n); i++) {
            n = base + " (" + i + ")";
        }
        return n;
    }

    private static String text(String s) {
        return s == null ? "" : s;
    }
}
