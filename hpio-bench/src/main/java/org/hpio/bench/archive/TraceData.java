package org.hpio.bench.archive;

import org.hpio.archive.ArchiveBuilder;
import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.archive.order.TraceOrdering;
import org.hpio.archive.trace.Trace;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.archive.trace.TraceRun;
import org.hpio.internal.sys.Libzstd;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * The data a trace replay needs: the loads in order (for short runs, those that fit a byte budget), a tree holding every
 * traced file (as its {@link TraceSource} writes it: copied from a trace's root, a stand-in, generated), each
 * file's CRC-32 (what every load is checked against), and the tree packed in trace order (002 §3.3) into a stored
 * and a Deflate archive.
 * Lives under the suite's work directory; {@link #delete()} removes it.
 *
 * @param trace      the loads to replay, as runs
 * @param loads      the loads to replay, in order
 * @param tree       the loose files
 * @param expected   CRC-32 of each file, by path
 * @param sizes      size of each file, by path
 * @param stored     the archive with every entry stored
 * @param deflated   the archive with Deflate where it saves 5 %
 * @param zstd       the archive with Zstandard ({@link #ZSTD}) where it saves 5 %; null without libzstd
 * @param standIns   how many files are stand-ins
 * @param traceName  where the trace came from
 * @param filesNote  what the report says of the files (stand-ins, generated)
 */
record TraceData(Trace trace, List<TraceEvent> loads, Path tree, Map<String, Long> expected, Map<String, Long> sizes,
                 Path stored, Path deflated, Path zstd, int standIns, String traceName, String filesNote) {
    /** No loads and no files: what {@link ArchiveConfig}s are built over to learn their names before any data is made. */
    static TraceData none() {
        return new TraceData(new Trace(List.of()), List.of(), Path.of("none"), Map.of(), Map.of(), Path.of("none.zip"),
                Path.of("none.zip"), Libzstd.available() ? Path.of("none.zip") : null, 0, "", "");
    }

    /**
     * How the zstd archive is compressed: level 9 for decoding speed (raw literals, 6-byte matches), which on this
     * trace decodes about 1.5x faster than libzstd's default level 3 for an archive about 1.09x Deflate's (issue 20
     * allows 1.15x); level 3 where the installed libzstd cannot do that.
     */
    static final Libzstd.Settings ZSTD = Libzstd.fastDecodeSupported() ? new Libzstd.Settings(9, true)
            : new Libzstd.Settings(3, false);

    /** {@link #ZSTD} in words: "level 9, fast decode". */
    static String zstdDescription() {
        return "level " + ZSTD.level() + (ZSTD.fastDecode() ? ", fast decode" : "");
    }

    /** Sum of the sizes of all loads. */
    long userBytes() {
        return loads.stream().mapToLong(TraceEvent::size).sum();
    }

    /** {@code traceFile} over {@code root} (null, null: the bundled python startup trace), prepared under {@code work}. */
    static TraceData prepare(Path work, Path traceFile, Path root, long budget) throws IOException {
        return prepare(work, new RecordedTrace(traceFile, root), budget);
    }

    /** The loads of {@code source} that fit {@code budget} bytes, their files and both archives, under {@code work}. */
    static TraceData prepare(Path work, TraceSource source, long budget) throws IOException {
        Trace replayed = withinBudget(source.trace(), budget);
        List<TraceEvent> loads = replayed.runs().stream().flatMap(r -> r.loads().stream()).toList();
        Map<String, Long> sizes = new LinkedHashMap<>();
        loads.forEach(e -> sizes.putIfAbsent(e.path(), e.size()));
        Path tree = work.resolve("tree");
        deleteTree(tree);
        int standIns = populate(tree, sizes, source);
        Map<String, Long> expected = new LinkedHashMap<>();
        for (String path : sizes.keySet()) {
            expected.put(path, crcOf(tree.resolve(path)));
        }
        List<String> order = TraceOrdering.order(replayed, List.copyOf(sizes.keySet()), FileCacheModel.none());
        Path stored = work.resolve("trace-stored.zip");
        Path deflated = work.resolve("trace-deflate.zip");
        new ArchiveBuilder(tree).minDeflateSavings(1.0).addAll(order).write(stored);
        new ArchiveBuilder(tree).addAll(order).write(deflated);
        Path zstd = Libzstd.available() ? work.resolve("trace-zstd.zip") : null;
        if (zstd != null) {
            new ArchiveBuilder(tree).zstd(ZSTD.level(), ZSTD.fastDecode()).addAll(order).write(zstd);
        }
        return new TraceData(replayed, loads, tree, expected, sizes, stored, deflated, zstd, standIns, source.name(),
                source.describeFiles(standIns, sizes.size()));
    }

    /** The loads of {@code trace} that fit {@code budget} bytes, in order, as runs (a short run keeps what fits). */
    private static Trace withinBudget(Trace trace, long budget) {
        List<TraceRun> runs = new ArrayList<>();
        long bytes = 0;
        for (TraceRun run : trace.runs()) {
            List<TraceEvent> kept = new ArrayList<>();
            for (TraceEvent e : run.loads()) {
                if (e.size() <= budget - bytes) {
                    kept.add(e);
                    bytes += e.size();
                }
            }
            if (!kept.isEmpty()) {
                runs.add(new TraceRun(kept));
            }
        }
        return new Trace(runs);
    }

    void delete() throws IOException {
        deleteTree(tree);
        Files.deleteIfExists(stored);
        Files.deleteIfExists(deflated);
        if (zstd != null) {
            Files.deleteIfExists(zstd);
        }
    }

    static long crcOf(Path file) throws IOException {
        CRC32 crc = new CRC32();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] b = new byte[1 << 16];
            for (int n; (n = in.read(b)) > 0; ) {
                crc.update(b, 0, n);
            }
        }
        return crc.getValue();
    }

    private static int populate(Path tree, Map<String, Long> sizes, TraceSource source) throws IOException {
        int standIns = 0;
        for (Map.Entry<String, Long> f : sizes.entrySet()) {
            Path target = tree.resolve(f.getKey()).normalize();
            if (!target.startsWith(tree)) {
                throw new IOException("trace path " + f.getKey() + " leaves the tree");
            }
            Files.createDirectories(target.getParent());
            if (source.write(f.getKey(), f.getValue(), target)) {
                standIns++;
            }
        }
        return standIns;
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
