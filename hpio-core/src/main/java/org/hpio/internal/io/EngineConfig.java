package org.hpio.internal.io;

import java.util.Objects;

/**
 * An engine's bounds.
 *
 * @param maxInFlight     requests submitted and not yet completed; at the bound, submission blocks (or fails)
 * @param maxStagingBytes off-heap staging bytes callers may hold for requests in flight (see {@link StagingBudget})
 * @param failFast        at a bound, fail at once with {@link EngineSaturatedException} instead of waiting
 * @param threads         worker threads of the portable engine (the io_uring engine uses one completion thread)
 * @param faults          the fault hook: asked once for every operation at submission; what it decides
 *                        ({@link InjectedFault}: an errno completing the operation without I/O, a short
 *                        transfer, or a refused submission) happens instead of the plain operation (tests, the
 *                        reliability suite, see {@link FaultInjector}); {@link FaultHook#NONE} by default
 * @param sqPollIdleMillis the io_uring engine only: 0 (the default) submits with {@code io_uring_enter} on the
 *                        submitting or the completion thread; more gives the ring a kernel submission thread
 *                        (IORING_SETUP_SQPOLL) that takes each entry as soon as it is published, polling, and
 *                        sleeps after this many milliseconds without any. It is one more thread of the process
 *                        and costs up to a core's time under load; see docs/DESIGN.md, "FileChannel"
 */
public record EngineConfig(int maxInFlight, long maxStagingBytes, boolean failFast, int threads, FaultHook faults,
                           int sqPollIdleMillis) {
    /** Decides, per operation, whether to fail it with an injected errno (0: do it for real). */
    @FunctionalInterface
    public interface FaultHook {
        /**
         * No fault. A class, not a lambda: {@link #defaults()} is first called in a cold JVM's first asynchronous
         * channel call, where the JVM's first lambda would cost 3-6 ms (AMD EPYC).
         */
        FaultHook NONE = new NoFault();

        int errnoFor(IoOperation operation);

        /**
         * The whole decision for {@code operation}, asked exactly once per operation at submission. By default
         * {@link #errnoFor}'s errno as a failed completion; hooks with richer outcomes (short transfers,
         * refused submissions) override this.
         */
        default InjectedFault faultFor(IoOperation operation) {
            int errno = errnoFor(operation);
            return errno == 0 ? InjectedFault.NONE : InjectedFault.completeWith(errno);
        }
    }

    /** {@link FaultHook#NONE}'s class. */
    private static final class NoFault implements FaultHook {
        @Override
        public int errnoFor(IoOperation operation) {
            return 0;
        }
    }

    /**
     * 256: under the block layer's usual 256 scheduler tags per device queue, so that a full engine does not make
     * {@code io_uring_enter} sleep in the tag allocation on the completion thread (see docs/DESIGN.md, "FileChannel").
     */
    public static final int DEFAULT_MAX_IN_FLIGHT = 256;
    public static final long DEFAULT_MAX_STAGING_BYTES = 64L << 20;

    public EngineConfig {
        if (maxInFlight < 1 || maxInFlight > 32768) {
            throw new IllegalArgumentException("maxInFlight must be in 1..32768: " + maxInFlight);
        }
        if (maxStagingBytes < 1) {
            throw new IllegalArgumentException("maxStagingBytes must be positive: " + maxStagingBytes);
        }
        Objects.requireNonNull(faults, "faults");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: " + threads);
        }
        if (sqPollIdleMillis < 0 || sqPollIdleMillis > MAX_SQ_POLL_IDLE_MILLIS) {
            throw new IllegalArgumentException("sqPollIdleMillis must be in 0.." + MAX_SQ_POLL_IDLE_MILLIS + ": "
                    + sqPollIdleMillis);
        }
    }

    /** The longest a kernel submission thread may poll without work: a minute. */
    public static final int MAX_SQ_POLL_IDLE_MILLIS = 60_000;

    /** Sets the defaults' {@link #sqPollIdleMillis} (the shared engine's): 0, off, unless set. */
    public static final String SQ_POLL_PROPERTY = "hpio.uring.sqPollIdleMillis";

    /** Sets the defaults' bound on requests in flight (the shared engine's). */
    public static final String MAX_IN_FLIGHT_PROPERTY = "hpio.engine.maxInFlight";

    /** The defaults: {@value #DEFAULT_MAX_IN_FLIGHT} requests in flight, or {@value #MAX_IN_FLIGHT_PROPERTY}. */
    public static EngineConfig defaults() {
        return new EngineConfig(intProperty(MAX_IN_FLIGHT_PROPERTY, DEFAULT_MAX_IN_FLIGHT, 1, 32768),
                DEFAULT_MAX_STAGING_BYTES, false, Math.max(4, 4 * Runtime.getRuntime().availableProcessors()),
                FaultHook.NONE, intProperty(SQ_POLL_PROPERTY, 0, 0, MAX_SQ_POLL_IDLE_MILLIS));
    }

    private static int intProperty(String name, int unset, int min, int max) {
        String value = System.getProperty(name);
        if (value == null) {
            return unset;
        }
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("-D" + name + " must be a whole number in " + min + ".." + max + ", was '"
                + value + "'");
    }

    public EngineConfig withMaxInFlight(int n) {
        return new EngineConfig(n, maxStagingBytes, failFast, threads, faults, sqPollIdleMillis);
    }

    public EngineConfig withFailFast(boolean fail) {
        return new EngineConfig(maxInFlight, maxStagingBytes, fail, threads, faults, sqPollIdleMillis);
    }

    public EngineConfig withThreads(int n) {
        return new EngineConfig(maxInFlight, maxStagingBytes, failFast, n, faults, sqPollIdleMillis);
    }

    public EngineConfig withFaults(FaultHook hook) {
        return new EngineConfig(maxInFlight, maxStagingBytes, failFast, threads, hook, sqPollIdleMillis);
    }

    public EngineConfig withMaxStagingBytes(long bytes) {
        return new EngineConfig(maxInFlight, bytes, failFast, threads, faults, sqPollIdleMillis);
    }

    /** With a kernel submission thread that sleeps after {@code idleMillis} without work; 0: none. */
    public EngineConfig withSqPollIdleMillis(int idleMillis) {
        return new EngineConfig(maxInFlight, maxStagingBytes, failFast, threads, faults, idleMillis);
    }
}
