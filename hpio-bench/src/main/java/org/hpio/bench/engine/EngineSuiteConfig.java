package org.hpio.bench.engine;

import org.hpio.bench.measure.JitQuiet;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One configuration: a workload, a mechanism, a queue depth; and how to measure it. A driver runs an untimed
 * warm-up first (checked like the rest), more of it while the JIT's compiler threads are busy ({@link JitQuiet}),
 * then the timed run between two readings of the process's usage; the
 * figures exist only once both runs passed their checks and, for writes, the file read back right.
 */
record EngineSuiteConfig(Workload workload, Mechanism mechanism, int depth) {
    static final long WARMUP_SEED = 1;
    static final long SEED = 42;

    String configuration() {
        return workload.configuration(mechanism.key(), depth);
    }

    /** Measures on {@code file}: through {@code fio} for {@link Mechanism#FIO}, else with this JVM's driver. */
    Figures measure(Path file, EngineSettings settings, Optional<Fio> fio) throws IOException, InterruptedException {
        if (mechanism == Mechanism.FIO) {
            return fio.orElseThrow(() -> new IOException("fio is not installed: " + Fio.INSTALL))
                    .run(configuration(), file, workload, depth, settings.seconds(), settings.warmupSeconds());
        }
        try (Driver driver = mechanism.open(file, workload, depth)) {
            if (settings.warmupNanos() > 0) {
                driver.run(configuration() + " (warm-up)", workload.offsets(WARMUP_SEED), settings.warmupNanos()).check();
                // then on while the JIT compiles: a quick run's 0.25 s row timed C2 compiling the driver's path
                // (uring-qd32 at 12 µs of CPU per I/O, three times its compiled figure, Intel Xeon)
                warmWhileCompiling(driver, settings);
            }
            Workload.Offsets offsets = workload.offsets(SEED);
            Usage before = Usage.now();
            Measurement m = driver.run(configuration(), offsets, settings.nanos());
            Usage used = Usage.now().minus(before);
            m.check();
            if (workload.writes()) {
                PatternFile.verify(configuration(), file, offsets.extent());
            }
            return Figures.of(configuration(), mechanism, workload, depth, m, used);
        }
    }

    /** More checked warm-up runs while the compiler threads are busy ({@link JitQuiet}'s bounds). */
    private void warmWhileCompiling(Driver driver, EngineSettings settings) throws IOException, InterruptedException {
        try {
            JitQuiet.warmUntilQuiet(settings.warmupSeconds(), nanos -> driver.run(configuration() + " (warm-up)",
                    workload.offsets(WARMUP_SEED), nanos).check());
        } catch (IOException | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(configuration() + " warm-up: " + e, e);
        }
    }
}
