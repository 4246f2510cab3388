package org.hpio.bench.measure;

/**
 * Untimed, checked runs of one configuration before any is timed, so that the JIT has compiled its paths: at
 * least {@code min} runs, then more, up to {@code max}, while the time lasts ({@link #NANOS}, in a quick run
 * {@link #QUICK_NANOS}). One run is too few calls for that when a run takes milliseconds.
 *
 * @param min   runs made whatever the time
 * @param max   runs at the most
 * @param nanos how long runs beyond {@code min} may start
 */
public record WarmUp(int min, int max, long nanos) {
    public static final long NANOS = 1_000_000_000L;
    /** {@link #NANOS} in a quick run ({@code hpio bench} without {@code --full}). */
    public static final long QUICK_NANOS = 300_000_000L;

    /** One checked, untimed run. */
    @FunctionalInterface
    public interface Run<E extends Exception> {
        void run() throws E;
    }

    /** {@code min} to {@code max} runs within {@link #NANOS}, or {@link #QUICK_NANOS} when {@code quick}. */
    public static WarmUp of(int min, int max, boolean quick) {
        return new WarmUp(min, max, quick ? QUICK_NANOS : NANOS);
    }

    /** Runs {@code run} as often as this says. */
    public <E extends Exception> void repeat(Run<E> run) throws E {
        long start = System.nanoTime();
        for (int n = 0; n < min || n < max && System.nanoTime() - start < nanos; n++) {
            run.run();
        }
    }
}
