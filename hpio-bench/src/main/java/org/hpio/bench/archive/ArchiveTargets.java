package org.hpio.bench.archive;

import org.hpio.bench.report.SuiteReport;
import org.hpio.bench.report.Table;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.hpio.bench.archive.ArchivePlan.DEFLATE_AHEAD;
import static org.hpio.bench.archive.ArchivePlan.MAIN;
import static org.hpio.bench.archive.ArchivePlan.STORED;
import static org.hpio.bench.archive.ArchivePlan.STORED_AHEAD;
import static org.hpio.bench.report.Numbers.format;

/**
 * The archive suite's targets table: ratios of two rows' effective MB/s (and wall MB/s) in the same run, against
 * the issues' targets. Issue 16's for every workload, cold and warm: {@code Archive.load} at least 1.2x ZipFile
 * (stored and Deflate), the mount table over loose files at least {@code Files.readAllBytes}, the look-ahead
 * loader for comparison. The earlier issues' for the recorded trace, cold: the look-ahead loader at least 3x
 * {@code Files.readAllBytes} and 1.2x ZipFile (issue 7), Zstandard's look-ahead at least 4x and 1.5x Deflate's
 * (issue 20), and the comparisons of the other rows (Archive.load of Deflate against loose files among them).
 */
final class ArchiveTargets {
    private static final double NONE = Double.NaN;

    /** One row: {@code a} against {@code b}, and the target (NaN: for comparison). */
    record Target(String a, String b, double target) {
    }

    private ArchiveTargets() {
    }

    /** Issue 16's targets, for every workload and page-cache state. */
    static List<Target> everyWorkload() {
        return List.of(new Target(STORED, "zipfile-stored", 1.2), new Target(MAIN, "zipfile-deflate", 1.2),
                new Target("loose-hpio", "loose-readallbytes", 1.0),
                new Target(STORED_AHEAD, "zipfile-stored", NONE), new Target(DEFLATE_AHEAD, "zipfile-deflate", NONE),
                new Target(ArchivePlan.ZSTD, MAIN, NONE), new Target(ArchivePlan.ZSTD_AHEAD, DEFLATE_AHEAD, NONE));
    }

    /** The earlier issues' targets, for the recorded trace, cold. */
    static List<Target> recordedTraceCold() {
        List<Target> t = new ArrayList<>();
        for (String stored : List.of(STORED_AHEAD + "-direct", STORED_AHEAD)) {
            t.add(new Target(stored, "loose-readallbytes", 3.0));
            t.add(new Target(stored, "zipfile-stored", 1.2));
        }
        for (String deflate : List.of(DEFLATE_AHEAD + "-direct", DEFLATE_AHEAD)) {
            t.add(new Target(deflate, "loose-readallbytes", 3.0));
            t.add(new Target(deflate, "zipfile-deflate", 1.2));
        }
        // Issue 7's 3x is the look-ahead loader's: Archive.load of one Deflate file at a time inflates on one core
        // (about 1.0x loose here); shown for comparison, its ZipFile target is issue 16's (everyWorkload)
        t.add(new Target(MAIN, "loose-readallbytes", NONE));
        for (String direct : List.of("-direct", "")) { // issue 20, each page-cache mode against its own kind
            t.add(new Target(ArchivePlan.ZSTD_AHEAD + direct, "loose-readallbytes", 4.0));
            t.add(new Target(ArchivePlan.ZSTD_AHEAD + direct, DEFLATE_AHEAD + direct, 1.5));
        }
        t.add(new Target(STORED_AHEAD + "-noreuse", "loose-readallbytes", NONE));
        t.add(new Target(DEFLATE_AHEAD + "-noreuse", "zipfile-deflate", NONE));
        t.add(new Target(STORED + "-cached", "zipfile-stored", NONE));
        t.add(new Target(MAIN + "-cached", "zipfile-deflate", NONE));
        t.add(new Target(STORED, "loose-readallbytes", NONE));
        t.add(new Target(ArchivePlan.archiveName(true, 32, 4, true), "zipfile-deflate", NONE));
        return t;
    }

    /** The table of every target whose two rows were measured; each ratio also goes into the results. */
    static Table table(SuiteReport report, List<Workload> workloads, List<Measured> medians) {
        Table t = report.quotedTable("Targets, same run", List.of("workload", "cache", "ratio", "value", "wall",
                "target", "met"));
        Set<String> shown = new LinkedHashSet<>();
        for (Workload w : workloads) {
            for (boolean cold : new boolean[]{true, false}) {
                List<Target> targets = cold && w.resultPrefix().isEmpty()
                        ? merged(everyWorkload(), recordedTraceCold()) : everyWorkload();
                for (Target target : targets) {
                    if (shown.add(w.name() + cold + target.a() + "/" + target.b())) {
                        row(report, t, medians, w, cold, target);
                    }
                }
            }
        }
        t.note("Ratios of the median replays' effective MB/s ('value') and wall MB/s ('wall'), same workload and "
                + "page-cache state. 'met' compares both with the issue's target.");
        return t;
    }

    /**
     * {@code first}, then the pairs of {@code then} it lacks; a pair in both keeps its place and takes the target
     * of whichever has one (issue 20's zstd look-ahead / Deflate look-ahead: 1.5, cold, on the recorded trace).
     */
    static List<Target> merged(List<Target> first, List<Target> then) {
        Map<String, Target> byPair = new LinkedHashMap<>();
        for (Target t : first) {
            byPair.put(t.a() + "/" + t.b(), t);
        }
        for (Target t : then) {
            byPair.merge(t.a() + "/" + t.b(), t, (old, added) -> Double.isNaN(added.target()) ? old : added);
        }
        return List.copyOf(byPair.values());
    }

    private static void row(SuiteReport report, Table t, List<Measured> medians, Workload w, boolean cold, Target target) {
        Optional<Measured> x = Measured.find(medians, w, target.a(), cold);
        Optional<Measured> y = Measured.find(medians, w, target.b(), cold);
        if (x.isEmpty() || y.isEmpty()) {
            return;
        }
        double r = x.get().mbPerSecond() / y.get().mbPerSecond();
        double wall = x.get().wallMbPerSecond() / y.get().wallMbPerSecond();
        boolean hasTarget = !Double.isNaN(target.target());
        t.row(w.name(), cold ? "cold" : "warm", target.a() + " / " + target.b(), format("%.2f", r), format("%.2f", wall),
                hasTarget ? ">= " + target.target() : "(for comparison)",
                hasTarget ? (r >= target.target() && wall >= target.target() ? "yes" : "NO") : "");
        String key = w.key(target.a() + "-vs-" + target.b()) + (cold ? "-cold" : "-warm");
        report.result(key, "wall-read-ratio", wall, "x");
        report.result(key, "effective-read-ratio", r, "x");
    }
}
