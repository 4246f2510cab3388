package org.hpio.cli;

import org.hpio.archive.order.TraceOrdering;
import org.hpio.archive.simulation.CacheSimulator;
import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.archive.simulation.Layout;
import org.hpio.archive.simulation.LoadCost;
import org.hpio.archive.simulation.SyntheticTraces;
import org.hpio.archive.trace.Trace;
import org.hpio.bench.cache.CacheSimulation;
import org.hpio.bench.report.Chart;
import org.hpio.bench.report.ChartRenderer;
import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.suite.BenchOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code hpio simulate}: replays a load trace through cache policies at several sizes (002 §4.4, Figure 3). */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = {"Replays a load trace through whole-file cache policies at several cache sizes: hit rate,",
                "byte hit rate, non-compulsory misses and seeks (002 §4.3-4.4); writes the Figure 3 charts."})
final class SimulateCommand implements Callable<Integer> {
    @Option(names = "--trace", required = true, paramLabel = "T",
            description = "trace file (Pyrogenesis text form), or 'synthetic' for the built-in widely-spaced-repeats trace"
                    + " ('synthetic-equal-sizes': its variant with shared files as large as the others)")
    String trace;

    @Option(names = "--sizes", split = ",", paramLabel = "SIZE",
            description = "cache sizes, e.g. 1m,2m,4m (default: powers of two from 1 MiB to the trace's distinct bytes)")
    List<String> sizes = List.of();

    @Option(names = "--policies", split = ",", paramLabel = "NAME",
            description = "caches to simulate (default: lru,landlord-cached,landlord-lazy,caffeine); all: ${COMPLETION-CANDIDATES}",
            completionCandidates = Names.class)
    List<String> policies = List.of("lru", "landlord-cached", "landlord-lazy", "caffeine");

    @Option(names = "--bypass-share", paramLabel = "S", description = "files over this share of the cache bypass it (default: 0.25)")
    double bypassShare = 0.25;

    @Option(names = "--cost", paramLabel = "MODEL",
            description = "what a file costs Landlord: 'uniform' (1 each, the paper's runs; default) or "
                    + "'load-time:MS:MBPS' (positioning ms + size / MB/s, e.g. load-time:10:40 for the paper's disk)")
    String cost = "uniform";

    @Option(names = "--order", paramLabel = "FILE",
            description = "archive order for the seek count: a file listing paths one per line, 'trace' for the "
                    + "trace-driven order of 002 §3.3 (default), or 'none'")
    String order = "trace";

    @Option(names = "--charts", paramLabel = "DIR", description = "where the PNG charts go (default: ./hpio-report/simulate)")
    Path chartDir = Path.of("hpio-report", "simulate");

    @Option(names = "--json", paramLabel = "FILE", description = "also write the figures as JSON (DESIGN.md's contract)")
    Path json;

    static final class Names extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        Names() {
            super(CacheSimulation.cacheNames());
        }
    }

    @Override
    public Integer call() throws Exception {
        if (!(bypassShare > 0 && bypassShare <= 1)) {
            throw new IllegalArgumentException("--bypass-share must be in (0, 1], was " + bypassShare);
        }
        policies.forEach(CacheSimulation::model); // unknown names fail before any work
        if (json != null) {
            InputFiles.output(json);
        }
        LoadCost loadCost = parseCost(cost);
        Trace builtIn = switch (trace) {
            case "synthetic" -> SyntheticTraces.widelySpacedRepeats();
            case "synthetic-equal-sizes" -> SyntheticTraces.widelySpacedRepeatsEqualSizes();
            default -> null;
        };
        Trace t = builtIn != null ? builtIn : InputFiles.readTrace(Path.of(trace));
        List<Long> capacities = sizes.isEmpty() ? CacheSimulation.defaultSizes(t)
                : sizes.stream().map(BenchOptions::parseSize).toList();
        for (long c : capacities) {
            if (c <= 0) {
                throw new IllegalArgumentException("--sizes: every cache size must be positive, got " + c);
            }
        }
        Layout layout = layout(t);
        List<CacheSimulator.Result> results = CacheSimulation.run(t, capacities, policies, bypassShare, layout, loadCost);
        System.out.printf("trace %s: %d loads, %d distinct bytes; files over %.0f%% of the cache bypass it; cost %s%n",
                trace, t.loadCount(), CacheSimulator.distinctBytes(t), 100 * bypassShare, cost);
        System.out.print(CacheSimulation.table(results));
        InputFiles.outputDirectory(chartDir, "--charts");
        String name = builtIn != null ? trace : Path.of(trace).getFileName().toString();
        for (Chart chart : CacheSimulation.charts(results, name)) {
            Path png = ChartRenderer.render(chart, chartDir);
            if (png != null) {
                System.out.println("chart: " + png.toAbsolutePath());
            }
        }
        if (json != null) {
            writeJson(results, capacities);
        }
        return 0;
    }

    private void writeJson(List<CacheSimulator.Result> results, List<Long> capacities) throws IOException {
        SuiteReport report = new SuiteReport("simulate", "whole-file cache policies replaying a load trace (002 §4.4)")
                .param("trace", trace).param("policies", policies).param("cache-bytes", capacities)
                .param("bypass-share", bypassShare).param("cost", cost).param("order", order);
        FiguresFile.write(json, CacheSimulation.addResults(report, results));
    }

    /** {@code uniform} or {@code load-time:MS:MBPS}; IllegalArgumentException saying the form otherwise. */
    static LoadCost parseCost(String text) {
        if (text.equals("uniform")) {
            return LoadCost.UNIFORM;
        }
        String[] parts = text.split(":");
        if (parts.length == 3 && parts[0].equals("load-time")) {
            try {
                return LoadCost.loadTime(Double.parseDouble(parts[1]) / 1e3, Double.parseDouble(parts[2]) * 1e6);
            } catch (NumberFormatException e) {
                // falls through to the message below
            }
        }
        throw new IllegalArgumentException("--cost: expected 'uniform' or 'load-time:MS:MBPS' (say load-time:10:40), got '"
                + text + "'");
    }

    private Layout layout(Trace t) throws IOException {
        return switch (order) {
            case "none" -> null;
            case "trace" -> Layout.packed(TraceOrdering.order(t, TraceOrdering.tracedFiles(t), FileCacheModel.none()));
            default -> Layout.packed(Files.readAllLines(InputFiles.regularFile(Path.of(order), "a list of paths")).stream().map(String::strip)
                    .filter(l -> !l.isEmpty()).toList());
        };
    }
}
