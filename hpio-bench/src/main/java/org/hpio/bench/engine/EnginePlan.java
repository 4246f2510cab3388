package org.hpio.bench.engine;

import org.hpio.bench.suite.BenchOptions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which configurations a run measures, in order: random O_DIRECT reads, sequential O_DIRECT reads, then
 * writes, then warm buffered reads; within each, all mechanisms at one depth before the next depth, so that
 * the machine's drift touches them alike. {@code --configs} takes mechanisms (uring, threads, afc-default,
 * afc-pool, filechannel, fio-uring), workloads (random, seq-read, seq-write, warm) and whole configuration names
 * (uring-qd32); mechanisms and workloads combine. {@code --cache cold} leaves out the warm reads, {@code --cache
 * warm} the O_DIRECT ones (which bypass the page cache).
 */
final class EnginePlan {
    private static final List<Mechanism> RANDOM = List.of(Mechanism.URING, Mechanism.THREADS, Mechanism.AFC_DEFAULT,
            Mechanism.AFC_POOL, Mechanism.FIO);
    private static final List<Mechanism> SEQUENTIAL = List.of(Mechanism.URING, Mechanism.THREADS, Mechanism.FIO);
    private static final List<Mechanism> WARM = List.of(Mechanism.URING, Mechanism.THREADS, Mechanism.AFC_DEFAULT,
            Mechanism.AFC_POOL);

    private EnginePlan() {
    }

    static List<EngineSuiteConfig> plan(BenchOptions options, EngineSettings settings, long fileSize) {
        List<EngineSuiteConfig> all = new ArrayList<>();
        if (options.cache().cold()) {
            add(all, Workload.random(fileSize), RANDOM, settings.randomDepths());
            add(all, Workload.sequentialRead(fileSize), SEQUENTIAL, settings.sequentialDepths());
            add(all, Workload.sequentialWrite(fileSize), SEQUENTIAL, settings.sequentialDepths());
        }
        if (options.cache().warm()) {
            add(all, Workload.warm(fileSize), WARM, settings.warmDepths());
        }
        return select(all, options.configs());
    }

    private static void add(List<EngineSuiteConfig> runs, Workload workload, List<Mechanism> mechanisms, List<Integer> depths) {
        runs.add(new EngineSuiteConfig(workload, Mechanism.FILECHANNEL, 1));
        for (int depth : depths) {
            for (Mechanism m : mechanisms) {
                runs.add(new EngineSuiteConfig(workload, m, depth));
            }
        }
    }

    static List<EngineSuiteConfig> select(List<EngineSuiteConfig> all, List<String> names) {
        if (names.isEmpty()) {
            return all;
        }
        Set<String> mechanisms = new LinkedHashSet<>(Arrays.stream(Mechanism.values()).map(Mechanism::key).toList());
        Set<String> workloads = Set.of(Workload.RANDOM, Workload.SEQ_READ, Workload.SEQ_WRITE, Workload.WARM);
        Set<String> configurations = new LinkedHashSet<>(all.stream().map(EngineSuiteConfig::configuration).toList());
        for (String name : names) {
            if (!mechanisms.contains(name) && !workloads.contains(name) && !configurations.contains(name)) {
                throw new IllegalArgumentException("no configuration named '" + name + "'; known: mechanisms "
                        + String.join(", ", mechanisms) + "; workloads " + String.join(", ", workloads.stream().sorted().toList())
                        + "; or a configuration such as uring-qd32, uring-seq-read-qd8, afc-pool-warm-qd32");
            }
        }
        List<String> chosenMechanisms = names.stream().filter(mechanisms::contains).toList();
        List<String> chosenWorkloads = names.stream().filter(workloads::contains).toList();
        boolean byKind = !chosenMechanisms.isEmpty() || !chosenWorkloads.isEmpty();
        return all.stream().filter(run -> names.contains(run.configuration())
                || byKind && (chosenMechanisms.isEmpty() || chosenMechanisms.contains(run.mechanism().key()))
                && (chosenWorkloads.isEmpty() || chosenWorkloads.contains(run.workload().key()))).toList();
    }
}
