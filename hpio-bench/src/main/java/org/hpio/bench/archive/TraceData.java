package org.hpio.bench.archive;

import org.hpio.archive.ArchiveBuilder;
import org.hpio.archive.order.FileCacheModel;
import org.hpio.archive.order.TraceOrdering;
import org.hpio.archive.trace.Trace;
import org.hpio.archive.trace.TraceEvent;
import org.hpio.archive.trace.TraceRun;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * The data a trace replay needs: the loads in order (for short runs, those that fit a byte budget), a tree holding every
 * traced file (copied from the trace's root where it has the file at the listed size, else a stand-in of that
 * size: seeded pseudo-text that Deflate shrinks about as much as source code), each file's CRC-32 (what every
 * load is checked against), and the tree packed in trace order (002 §3.3) into a stored and a Deflate archive.
 * Lives under the suite's work directory; {@link #delete()} removes it.
 *
 * @param trace      the loads to replay, as runs
 * @param loads      the loads to replay, in order
 * @param tree       the loose files
 * @param expected   CRC-32 of each file, by path
 * @param sizes      size of each file, by path
 * @param stored     the archive with every entry stored
 * @param deflated   the archive with Deflate where it saves 5 %
 * @param standIns   how many files are stand-ins
 * @param traceName  where the trace came from
 */
record TraceData(Trace trace, List<TraceEvent> loads, Path tree, Map<String, Long> expected, Map<String, Long> sizes,
                 Path stored, Path deflated, int standIns, String traceName) {
    static final String DEFAULT_TRACE = "/traces/python-startup-3runs.trace";

    /** Sum of the sizes of all loads. */
    long userBytes() {
        return loads.stream().mapToLong(TraceEvent::size).sum();
    }

    static TraceData prepare(Path work, Path traceFile, Path root, long budget) throws IOException {
        Trace trace;
        String name;
        if (traceFile != null) {
            trace = Trace.read(traceFile);
            name = traceFile.toString();
        } else {
            try (InputStream in = TraceData.class.getResourceAsStream(DEFAULT_TRACE)) {
                trace = Trace.parse(new java.io.InputStreamReader(in, StandardCharsets.UTF_8), DEFAULT_TRACE);
            }
            name = "python-startup-3runs.trace (bundled copy of ../shared/data/traces)";
            root = root != null ? root : pythonPrefix();
        }
        List<TraceEvent> loads = new ArrayList<>();
        List<TraceRun> runs = new ArrayList<>();
        long bytes = 0;
        for (TraceRun run : trace.runs()) {
            List<TraceEvent> kept = new ArrayList<>();
            for (TraceEvent e : run.loads()) {
                if (e.size() <= budget - bytes) { // a short run keeps the loads that fit, in order
                    kept.add(e);
                    bytes += e.size();
                }
            }
            if (!kept.isEmpty()) {
                runs.add(new TraceRun(kept));
                loads.addAll(kept);
            }
        }
        Map<String, Long> sizes = new LinkedHashMap<>();
        loads.forEach(e -> sizes.putIfAbsent(e.path(), e.size()));
        Path tree = work.resolve("tree");
        deleteTree(tree);
        int standIns = populate(tree, sizes, root);
        Map<String, Long> expected = new LinkedHashMap<>();
        for (String path : sizes.keySet()) {
            expected.put(path, crcOf(tree.resolve(path)));
        }
        Trace replayed = new Trace(runs);
        List<String> order = TraceOrdering.order(replayed, List.copyOf(sizes.keySet()), FileCacheModel.none());
        Path stored = work.resolve("trace-stored.zip");
        Path deflated = work.resolve("trace-deflate.zip");
        new ArchiveBuilder(tree).minDeflateSavings(1.0).addAll(order).write(stored);
        new ArchiveBuilder(tree).addAll(order).write(deflated);
        return new TraceData(replayed, List.copyOf(loads), tree, expected, sizes, stored, deflated, standIns, name);
    }

    void delete() throws IOException {
        deleteTree(tree);
        Files.deleteIfExists(stored);
        Files.deleteIfExists(deflated);
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

    private static int populate(Path tree, Map<String, Long> sizes, Path root) throws IOException {
        int standIns = 0;
        for (Map.Entry<String, Long> f : sizes.entrySet()) {
            Path target = tree.resolve(f.getKey()).normalize();
            if (!target.startsWith(tree)) {
                throw new IOException("trace path " + f.getKey() + " leaves the tree");
            }
            Files.createDirectories(target.getParent());
            Path real = root == null ? null : root.resolve(f.getKey());
            if (real != null && Files.isRegularFile(real) && Files.size(real) == f.getValue()) {
                Files.copy(real, target);
            } else {
                writeStandIn(target, f.getValue(), f.getKey().hashCode());
                standIns++;
            }
        }
        return standIns;
    }

    /** Pseudo-text of {@code size} bytes: seeded words, compressible like source code. */
    private static void writeStandIn(Path target, long size, long seed) throws IOException {
        String[] words = {"def ", "self", ".", "return ", "import ", "(", ")", ":\n    ", "if ", "else", " = ",
                "None", "value", "name", "for ", " in ", "range", "class ", "_cache", "\n", "# ", "args", ", "};
        SplittableRandom random = new SplittableRandom(seed);
        byte[] chunk = new byte[1 << 16];
        try (OutputStream out = Files.newOutputStream(target)) {
            for (long written = 0; written < size; ) {
                int n = (int) Math.min(chunk.length, size - written);
                for (int i = 0; i < n; ) {
                    byte[] w = words[random.nextInt(words.length)].getBytes(StandardCharsets.US_ASCII);
                    for (int k = 0; k < w.length && i < n; k++) {
                        chunk[i++] = w[k];
                    }
                }
                out.write(chunk, 0, n);
                written += n;
            }
        }
    }

    /** The machine's Python prefix ({@code python3 -c "import sys; print(sys.prefix)"}), or null. */
    static Path pythonPrefix() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import sys; print(sys.prefix)").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0 && !out.isEmpty() ? Path.of(out) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
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
