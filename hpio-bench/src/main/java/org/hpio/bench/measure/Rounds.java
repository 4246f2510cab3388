package org.hpio.bench.measure;

import org.hpio.bench.report.Progress;
import org.hpio.bench.report.SuiteReport;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The measuring loop of the suites that compare configurations: rounds, each running every configuration once,
 * so that a noisy neighbour on a shared machine or a drift of the device weighs on all of them alike. Untimed
 * warm-up rounds may come first; their results are dropped. A configuration that fails (an exception, a wrong
 * output) gets a failure in the report and no figure for that round; {@link Medians#byName} then picks each
 * configuration's median round. Not thread-safe: one suite's loop.
 *
 * @param <C> a configuration under test
 */
public final class Rounds<C> {
    /** One checked run of a configuration. */
    @FunctionalInterface
    public interface Trial<C, M> {
        /**
         * Runs {@code config} once; {@code warmUp}: in an untimed round, whose result is dropped. Returns the
         * figures of the run; a wrong output is an exception.
         */
        M run(C config, boolean warmUp) throws Exception;
    }

    private final int rounds;
    private final Function<C, String> label;
    private int warmUpRounds;
    private boolean alternating;
    private boolean dropsFailed;

    private Rounds(int rounds, Function<C, String> label) {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be at least 1: " + rounds);
        }
        this.rounds = rounds;
        this.label = label;
    }

    /** {@code rounds} timed rounds; {@code label} names a configuration in the progress and its failures. */
    public static <C> Rounds<C> of(int rounds, Function<C, String> label) {
        return new Rounds<>(rounds, label);
    }

    /** This, with {@code n} untimed rounds of every configuration before the timed ones. */
    public Rounds<C> warmUpRounds(int n) {
        warmUpRounds = n;
        return this;
    }

    /**
     * This, running every other round in reverse order, so that no configuration always runs first or always
     * after the same neighbour.
     */
    public Rounds<C> alternating() {
        alternating = true;
        return this;
    }

    /** This, leaving a configuration out of the later rounds once it failed. */
    public Rounds<C> droppingFailed() {
        dropsFailed = true;
        return this;
    }

    /** The runs (progress steps) of {@code configs} configurations: warm-up and timed rounds. */
    public long steps(int configs) {
        return (long) (warmUpRounds + rounds) * configs;
    }

    /**
     * Runs the rounds over {@code configs}, one progress step per run; failures go to {@code report}. Returns
     * the figures of every timed run, round by round, in the order they ran.
     */
    public <M> List<M> run(List<C> configs, Trial<C, M> trial, SuiteReport report, Progress progress)
            throws InterruptedException {
        List<M> measured = new ArrayList<>();
        Set<C> failed = new HashSet<>();
        for (int round = -warmUpRounds; round < rounds; round++) {
            for (C config : order(configs, round)) {
                if (!failed.contains(config)) {
                    progress.message(label.apply(config) + suffix(round));
                    try {
                        M m = trial.run(config, round < 0);
                        if (round >= 0) {
                            measured.add(m);
                        }
                    } catch (InterruptedException e) {
                        throw e;
                    } catch (Exception | LinkageError e) {
                        report.failure(label.apply(config), e);
                        if (dropsFailed) {
                            failed.add(config);
                        }
                    }
                }
                progress.step();
            }
        }
        return measured;
    }

    private List<C> order(List<C> configs, int round) {
        return alternating && Math.floorMod(round, 2) == 1 ? configs.reversed() : configs;
    }

    private String suffix(int round) {
        if (round < 0) {
            return " (warm-up)";
        }
        return rounds > 1 ? " (round " + (round + 1) + " of " + rounds + ")" : "";
    }
}
