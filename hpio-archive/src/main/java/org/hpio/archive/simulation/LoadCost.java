package org.hpio.archive.simulation;

/**
 * What a file costs to load, as Landlord's credit (002 §2.2: cost may "more accurately reflect load time",
 * which "is not solely dependent on file size"). {@link #UNIFORM} is the paper's measured configuration (no
 * hints: every file costs 1, so Landlord is size-aware only); {@link #loadTime} models a read as one positioning
 * delay plus a transfer, so a small file costs nearly as much as a larger one and a large file's cost grows with
 * its size.
 */
@FunctionalInterface
public interface LoadCost {
    /** Every file costs 1. */
    LoadCost UNIFORM = size -> 1.0;

    /** The cost of loading a file of {@code size} bytes (positive, finite). */
    double of(long size);

    /**
     * Positioning time plus transfer time, in seconds: {@code positionSeconds + size / bytesPerSecond}. The
     * paper's disk (10 ms seek, 40 MB/s) is {@code loadTime(0.010, 40e6)}.
     */
    static LoadCost loadTime(double positionSeconds, double bytesPerSecond) {
        if (!(positionSeconds > 0 && Double.isFinite(positionSeconds) && bytesPerSecond > 0 && Double.isFinite(bytesPerSecond))) {
            throw new IllegalArgumentException("load time model needs a positive positioning time and rate: "
                    + positionSeconds + " s, " + bytesPerSecond + " B/s");
        }
        return size -> positionSeconds + size / bytesPerSecond;
    }
}
