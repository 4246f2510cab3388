package org.hpio.bench.report;

import java.util.Locale;

/** The one number formatter of the report's tables: a format pattern in the root locale, "–" where not measured. */
public final class Numbers {
    private Numbers() {
    }

    /** {@code value} formatted with {@code pattern} ({@code "%.2f"}), or "–" for NaN. */
    public static String format(String pattern, double value) {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, pattern, value);
    }

    /** Two decimals below 10, one above: microseconds, milliseconds, MB/s of small figures. */
    public static String twoOrOneDecimals(double value) {
        return format(value < 10 ? "%.2f" : "%.1f", value);
    }
}
