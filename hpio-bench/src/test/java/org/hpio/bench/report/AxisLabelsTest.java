package org.hpio.bench.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AxisLabelsTest {
    @Test
    void largeNumbersTakeAPrefixInsteadOfAnExponent() {
        assertEquals("150k", AxisLabels.format(1.5e5));
        assertEquals("1.5M", AxisLabels.format(1.5e6));
        assertEquals("2G", AxisLabels.format(2e9));
        assertEquals("1.05M", AxisLabels.format(1048577));
        assertEquals("1k", AxisLabels.format(999.9));
        assertEquals("-2M", AxisLabels.format(-2e6));
    }

    @Test
    void powersOfTwoReadAsCommandLineSizes() {
        assertEquals("4k", AxisLabels.format(4096));
        assertEquals("1M", AxisLabels.format(1048576));
        assertEquals("256M", AxisLabels.format(256.0 * 1048576));
        assertEquals("1000k", AxisLabels.format(1000 * 1024));
        assertEquals("1M", AxisLabels.format(Math.pow(10, Math.log10(1048576))), "a log axis's 10^v");
        assertEquals("16k", AxisLabels.format(Math.pow(10, Math.log10(16384))));
    }

    @Test
    void smallNumbersStayPlain() {
        assertEquals("0", AxisLabels.format(0));
        assertEquals("0.25", AxisLabels.format(0.25));
        assertEquals("12.5", AxisLabels.format(12.5));
        assertEquals("0.001", AxisLabels.format(0.001));
        assertEquals("500", AxisLabels.format(500));
    }
}
