package org.hpio.cli;

import org.hpio.archive.Archive;
import org.hpio.archive.ArchiveEntry;
import org.hpio.archive.DirectoryOrder;
import org.hpio.archive.order.TraceOrdering;
import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.archive.simulation.Layout;
import org.hpio.archive.trace.Trace;
import org.hpio.bench.report.SuiteReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code hpio order --trace T [--archive A.zip | --root DIR]}: the trace order and the seeks it saves. */
@Command(name = "order", mixinStandardHelpOptions = true,
        description = {"Orders files by a load trace (002 §3.3) and counts the seeks (002 §4.3) of directory"
                + " order, trace order and, with --archive, the archive as it is.",
                "The files are the archive's entries (--archive), every file under --root, or else the files"
                        + " the trace loads."})
final class OrderCommand implements Callable<Integer> {
    @Option(names = "--trace", required = true, paramLabel = "T", description = "the load trace")
    Path trace;

    @Option(names = "--archive", paramLabel = "A.zip", description = "count seeks on this archive too")
    Path archive;

    @Option(names = "--root", paramLabel = "DIR", description = "the files are those under DIR (traced files"
            + " missing there stand in with their listed size)")
    Path root;

    @Option(names = "--cache", split = ",", paramLabel = "SIZE",
            description = "LRU file cache sizes to simulate (default: 0,4m,10m,64m; 0 = none); the order printed"
                    + " is the one for the first")
    List<String> caches = List.of("0", "4m", "10m", "64m");

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write the order here, one path a"
            + " line, instead of printing it")
    Path output;

    @Option(names = "--no-order", description = "print only the seek table")
    boolean noOrder;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the seek counts as JSON (DESIGN.md's contract)")
    Path json;

    @Override
    public Integer call() throws IOException {
        if (archive != null && root != null) {
            throw new IllegalArgumentException("give --archive or --root, not both");
        }
        Trace t = InputFiles.readTrace(trace);
        for (Path written : new Path[] {output, json}) {
            if (written != null) {
                InputFiles.output(written);
            }
        }
        List<Long> cacheSizes = caches.stream().map(ArchiveCommands::parseCacheSize).toList();
        List<String> files = new ArrayList<>();
        Layout archiveLayout = archive != null ? readArchive(files) : null;
        String source = archive != null ? "entries of " + archive : root != null ? filesUnder(t, files)
                : tracedFiles(t, files);
        List<String> directoryOrder = DirectoryOrder.sort(files);
        List<String> order = TraceOrdering.order(t, directoryOrder, FileCacheModel.lru(cacheSizes.getFirst()));
        if (output != null) {
            Files.write(output, order);
        } else if (!noOrder) {
            order.forEach(System.out::println);
        }
        System.out.printf("%ntrace %s: %d runs, %d loads; %d files (%s)%n", trace, t.runs().size(),
                t.loadCount(), files.size(), source);
        SeekTable table = SeekTable.compute(t, directoryOrder, archiveLayout, cacheSizes);
        table.print(System.out);
        if (json != null) {
            SuiteReport report = new SuiteReport("order", "seeks of directory order, trace order and the archive"
                    + " (002 §4.3)").param("trace", trace.toString()).param("files", source)
                    .param("cache-bytes", cacheSizes);
            FiguresFile.write(json, table.addResults(report));
        }
        return 0;
    }

    private Layout readArchive(List<String> files) throws IOException {
        try (Archive a = Archive.open(InputFiles.archive(archive))) {
            a.entries().stream().filter(e -> !e.isDirectory()).map(ArchiveEntry::name).distinct().forEach(files::add);
            return a.layout();
        }
    }

    private String filesUnder(Trace t, List<String> files) throws IOException {
        files.addAll(DirectoryOrder.of(InputFiles.directory(root)));
        Set<String> present = new HashSet<>(files);
        int missing = 0;
        for (String path : TraceOrdering.tracedFiles(t)) {
            if (present.add(path)) {
                files.add(path);
                missing++;
            }
        }
        return "every file under " + root + "; " + missing + " traced files missing there, standing in";
    }

    private static String tracedFiles(Trace t, List<String> files) {
        files.addAll(TraceOrdering.tracedFiles(t));
        return "the files the trace loads";
    }
}
