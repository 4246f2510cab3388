package org.hpio.bench.measure;

/**
 * One configuration's repetitions back to back, where interleaving is not possible (the bulk and approaches
 * suites time one configuration on one file, then the next): untimed warm-up runs, then the timed ones; the
 * figure is the {@link Stats#median} of their seconds.
 */
public final class Repeats {
    /** One checked run; returns its seconds. */
    @FunctionalInterface
    public interface TimedRun<E extends Exception> {
        /** Runs once; {@code warmUp}: untimed, its seconds are dropped. */
        double seconds(boolean warmUp) throws E;
    }

    private Repeats() {
    }

    /** The median seconds of {@code repetitions} runs after {@code warmUps} untimed ones. */
    public static <E extends Exception> double median(int warmUps, int repetitions, TimedRun<E> run) throws E {
        double[] seconds = new double[repetitions];
        for (int r = -warmUps; r < repetitions; r++) {
            double s = run.seconds(r < 0);
            if (r >= 0) {
                seconds[r] = s;
            }
        }
        return Stats.median(seconds);
    }
}
