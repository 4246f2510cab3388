package org.hpio.bench.report;

/**
 * One figure of a suite: a configuration, a metric, its value and unit (the JSON contract of DESIGN.md).
 * Names follow the papers where they name one ({@code raf}, {@code bulkraf}, {@code c}) and are lowercase
 * words joined by '-' elsewhere, with varying parameters in the name ({@code bulkraf-t4}).
 */
public record Result(String name, String metric, double value, String unit) {
}
