package org.hpio.bench.cache;

import org.hpio.archive.cache.policy.Policies;
import org.hpio.archive.simulation.CacheSimulator;
import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.archive.simulation.Layout;
import org.hpio.archive.simulation.LoadCost;
import org.hpio.archive.simulation.PolicyCache;
import org.hpio.archive.trace.Trace;
import org.hpio.bench.report.Chart;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The simulations of 002 §4.4 and Figure 3: a trace replayed through each cache at each size. The registered
 * policies of {@link Policies} plus Caffeine ({@link CaffeineFileCache#NAME}).
 */
public final class CacheSimulation {
    private CacheSimulation() {
    }

    /** Every cache the simulation knows: the registered policies, then Caffeine. */
    public static List<String> cacheNames() {
        List<String> names = new ArrayList<>(Policies.all().stream().map(k -> k.name()).toList());
        names.add(CaffeineFileCache.NAME);
        return names;
    }

    /** The model of cache {@code name} at a size; IllegalArgumentException listing the names for an unknown one. */
    public static Function<Long, FileCacheModel> model(String name) {
        return model(name, LoadCost.UNIFORM);
    }

    /** As {@link #model(String)}, Landlord's files costing what {@code cost} says (Caffeine and LRU ignore cost). */
    public static Function<Long, FileCacheModel> model(String name, LoadCost cost) {
        if (name.equals(CaffeineFileCache.NAME)) {
            return CaffeineFileCache::model;
        }
        if (Policies.byName(name).isEmpty()) {
            throw new IllegalArgumentException("no cache policy named '" + name + "'; the policies are: "
                    + String.join(", ", cacheNames()));
        }
        return size -> PolicyCache.model(Policies.require(name), size, cost);
    }

    /** Every cache of {@code names} at every size of {@code sizes}, in that order (sizes outer). */
    public static List<CacheSimulator.Result> run(Trace trace, List<Long> sizes, List<String> names, double bypassShare,
                                                  Layout layout) {
        return run(trace, sizes, names, bypassShare, layout, LoadCost.UNIFORM);
    }

    /** As {@link #run(Trace, List, List, double, Layout)} with files costing what {@code cost} says. */
    public static List<CacheSimulator.Result> run(Trace trace, List<Long> sizes, List<String> names, double bypassShare,
                                                  Layout layout, LoadCost cost) {
        List<Function<Long, FileCacheModel>> models = names.stream().map(n -> model(n, cost)).toList();
        List<CacheSimulator.Result> results = new ArrayList<>();
        for (long size : sizes) {
            for (int i = 0; i < names.size(); i++) {
                results.add(CacheSimulator.replay(trace, names.get(i), models.get(i).apply(size), size, bypassShare, layout));
            }
        }
        return results;
    }

    /** Powers of two from 1 MiB up to, and then including, the trace's distinct bytes. */
    public static List<Long> defaultSizes(Trace trace) {
        long distinct = CacheSimulator.distinctBytes(trace);
        List<Long> sizes = new ArrayList<>();
        for (long s = 1 << 20; s < distinct; s *= 2) {
            sizes.add(s);
        }
        sizes.add(distinct);
        return sizes;
    }

    /** The results as a plain-text table, one row per size and cache. */
    public static String table(List<CacheSimulator.Result> results) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-12s %-22s %8s %9s %9s %8s %8s %7s%n",
                "cache size", "policy", "hit rate", "byte hits", "misses", "non-comp", "non-comp%", "seeks"));
        for (CacheSimulator.Result r : results) {
            out.append(String.format(Locale.ROOT, "%-12s %-22s %7.1f%% %8.1f%% %9d %8d %8.1f%% %7s%n",
                    mib(r.capacity()), r.policy(), 100 * r.hitRate(), 100 * r.byteHitRate(), r.misses(),
                    r.nonCompulsoryMisses(), 100 * r.nonCompulsoryShare(), r.seeks() < 0 ? "-" : r.seeks()));
        }
        return out.toString();
    }

    /**
     * The results as figures of {@code report} (DESIGN.md's JSON rows): one configuration per cache and size,
     * named {@code POLICY-SIZE} ({@code lru-4m}), with its hit rate, byte hit rate, misses, non-compulsory misses
     * and their share, and seeks where a layout was given.
     */
    public static SuiteReport addResults(SuiteReport report, List<CacheSimulator.Result> results) {
        for (CacheSimulator.Result r : results) {
            String name = r.policy() + "-" + BenchOptions.sizeTag(r.capacity());
            report.result(name, "hit-rate", 100 * r.hitRate(), "%")
                    .result(name, "byte-hit-rate", 100 * r.byteHitRate(), "%")
                    .result(name, "misses", r.misses(), "loads")
                    .result(name, "non-compulsory-misses", r.nonCompulsoryMisses(), "loads")
                    .result(name, "non-compulsory-share", 100 * r.nonCompulsoryShare(), "%");
            if (r.seeks() >= 0) {
                report.result(name, "seeks", r.seeks(), "seeks");
            }
        }
        return report;
    }

    /** Figure 3 and its companions: non-compulsory misses, hit rate and byte hit rate against cache size. */
    public static List<Chart> charts(List<CacheSimulator.Result> results, String traceName) {
        String stem = traceName.replaceAll("[^A-Za-z0-9]+", "-");
        List<Chart> charts = new ArrayList<>();
        charts.add(chart(results, stem + "-non-compulsory-misses", "Non-compulsory misses (" + traceName + ", 002 Figure 3)",
                "non-compulsory misses [% of misses]", r -> 100 * r.nonCompulsoryShare()));
        charts.add(chart(results, stem + "-hit-rate", "Hit rate (" + traceName + ")", "hit rate [%]", r -> 100 * r.hitRate()));
        charts.add(chart(results, stem + "-byte-hit-rate", "Byte hit rate (" + traceName + ")", "byte hit rate [%]",
                r -> 100 * r.byteHitRate()));
        return charts;
    }

    private static Chart chart(List<CacheSimulator.Result> results, String stem, String title, String yLabel,
                               Function<CacheSimulator.Result, Double> y) {
        Chart chart = new Chart(stem, title, "cache size [MiB]", yLabel, Chart.Kind.LINE_LOG_X);
        for (String policy : results.stream().map(CacheSimulator.Result::policy).distinct().toList()) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (CacheSimulator.Result r : results) {
                if (r.policy().equals(policy)) {
                    xs.add(r.capacity() / 1048576.0);
                    ys.add(y.apply(r));
                }
            }
            chart.add(Chart.Series.line(policy, xs, ys));
        }
        return chart;
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
