package org.hpio.internal.io;

/**
 * An engine's bounds.
 *
 * @param maxInFlight     requests submitted and not yet completed; at the bound, submission blocks (or fails)
 * @param maxStagingBytes off-heap staging bytes callers may hold for requests in flight (see {@link StagingBudget})
 * @param failFast        at a bound, fail at once with {@link EngineSaturatedException} instead of waiting
 * @param threads         worker threads of the portable engine (the io_uring engine uses one completion thread)
 */
public record EngineConfig(int maxInFlight, long maxStagingBytes, boolean failFast, int threads) {
    public static final int DEFAULT_MAX_IN_FLIGHT = 256;
    public static final long DEFAULT_MAX_STAGING_BYTES = 64L << 20;

    public EngineConfig {
        if (maxInFlight < 1 || maxInFlight > 32768) {
            throw new IllegalArgumentException("maxInFlight must be in 1..32768: " + maxInFlight);
        }
        if (maxStagingBytes < 1) {
            throw new IllegalArgumentException("maxStagingBytes must be positive: " + maxStagingBytes);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: " + threads);
        }
    }

    public static EngineConfig defaults() {
        return new EngineConfig(DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_STAGING_BYTES, false,
                Math.max(4, 4 * Runtime.getRuntime().availableProcessors()));
    }

    public EngineConfig withMaxInFlight(int n) {
        return new EngineConfig(n, maxStagingBytes, failFast, threads);
    }

    public EngineConfig withFailFast(boolean fail) {
        return new EngineConfig(maxInFlight, maxStagingBytes, fail, threads);
    }

    public EngineConfig withThreads(int n) {
        return new EngineConfig(maxInFlight, maxStagingBytes, failFast, n);
    }

    public EngineConfig withMaxStagingBytes(long bytes) {
        return new EngineConfig(maxInFlight, bytes, failFast, threads);
    }
}
