package org.hpio.bench.report;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Numbers on a chart's axes as a person reads them: {@code 150k}, {@code 1.5M}, {@code 2G}, {@code 0.25},
 * never {@code 1.5E5}. Three significant digits at most, trailing zeros dropped; decimal (SI) prefixes, except
 * that an exact multiple of 1024, 1024^2 or 1024^3 reads as the sizes of the command line do ({@code 4096} is
 * {@code 4k}, {@code 1048576} is {@code 1M}), as the size sweeps' axes are powers of two.
 */
public final class AxisLabels {
    private static final String[] PREFIXES = {"", "k", "M", "G", "T", "P"};
    private static final MathContext THREE_DIGITS = new MathContext(3);

    private AxisLabels() {
    }

    /** {@code value} with an SI prefix from k up, e.g. 150000 -> "150k", 0.5 -> "0.5", -2e6 -> "-2M". */
    public static String format(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        String binary = binary(value);
        return binary != null ? binary : decimal(value);
    }

    /**
     * "4k" for 4096, "1M" for 1048576; null unless {@code value} is a whole multiple of 1024^n, n >= 1, to within
     * rounding (a log axis's label is 10^v, and 10^log10(1024) is not exactly 1024).
     */
    private static String binary(double value) {
        for (int power = 3; power >= 1; power--) {
            double units = value / Math.pow(1024, power);
            double whole = Math.rint(units);
            if (Math.abs(whole) >= 1 && Math.abs(whole) < 1024 && Math.abs(units - whole) <= 1e-9 * Math.abs(whole)) {
                return (long) whole + PREFIXES[power];
            }
        }
        return null;
    }

    private static String decimal(double value) {
        BigDecimal rounded = new BigDecimal(value).round(THREE_DIGITS);
        int prefix = 0;
        while (prefix < PREFIXES.length - 1 && rounded.abs().compareTo(BigDecimal.valueOf(1000)) >= 0) {
            rounded = rounded.movePointLeft(3);
            prefix++;
        }
        if (rounded.signum() == 0) {
            return "0";
        }
        return rounded.stripTrailingZeros().toPlainString() + PREFIXES[prefix];
    }
}
