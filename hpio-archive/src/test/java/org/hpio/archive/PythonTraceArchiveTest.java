package org.hpio.archive;

import org.hpio.archive.order.TraceOrdering;
import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.archive.simulation.Layout;
import org.hpio.archive.simulation.SeekCounter;
import org.hpio.archive.trace.Trace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 6's figure on real archives: the 1,365 files of the python trace, taken from the machine's Python
 * installation where it has them at the listed size (else a stand-in of that size), packed in directory order
 * and in trace order. Seeks counted on the archives' real offsets agree with the packed-order model, and trace
 * order has at most a fifth of the seeks of directory order over the whole trace.
 */
class PythonTraceArchiveTest {
    @TempDir
    Path dir;

    @Test
    void traceOrderedArchiveHasAtMostAFifthOfTheSeeks() throws Exception {
        Trace trace = Trace.read(Path.of(getClass().getResource("/traces/python-startup-3runs.trace").toURI()));
        Path root = dir.resolve("prefix");
        int standIns = populate(root, trace, pythonPrefix());
        System.out.println("python trace archive: " + standIns + " of 1365 files are stand-ins");
        List<String> directoryOrder = DirectoryOrder.of(root);
        assertEquals(1365, directoryOrder.size());
        FileCacheModel cache = FileCacheModel.none();
        List<String> traceOrder = TraceOrdering.order(trace, directoryOrder, cache);
        Path byDirectory = dir.resolve("dir.zip");
        Path byTrace = dir.resolve("trace.zip");
        new ArchiveBuilder(root).deflateLevel(1).addAll(directoryOrder).write(byDirectory);
        new ArchiveBuilder(root).deflateLevel(1).addAll(traceOrder).write(byTrace);
        SeekCounter.Report directorySeeks = seeks(byDirectory, trace, cache);
        SeekCounter.Report traceSeeks = seeks(byTrace, trace, cache);
        assertEquals(SeekCounter.count(trace, Layout.packed(directoryOrder), cache), directorySeeks);
        assertEquals(SeekCounter.count(trace, Layout.packed(traceOrder), cache), traceSeeks);
        assertTrue(5 * traceSeeks.wholeTrace().seeks() <= directorySeeks.wholeTrace().seeks(),
                traceSeeks.wholeTrace() + " vs " + directorySeeks.wholeTrace());
    }

    private static SeekCounter.Report seeks(Path zip, Trace trace, FileCacheModel cache) throws IOException {
        try (Archive archive = Archive.open(zip)) {
            assertEquals(List.of(), archive.verifyAll());
            return SeekCounter.count(trace, archive.layout(), cache);
        }
    }

    /** Copies each traced file from the prefix when it has the listed size, else writes a stand-in. */
    private static int populate(Path root, Trace trace, Path prefix) throws IOException {
        Map<String, Long> sizes = new LinkedHashMap<>();
        trace.runs().forEach(r -> r.loads().forEach(e -> sizes.putIfAbsent(e.path(), e.size())));
        int standIns = 0;
        for (Map.Entry<String, Long> f : sizes.entrySet()) {
            Path target = root.resolve(f.getKey());
            Files.createDirectories(target.getParent());
            Path real = prefix == null ? null : prefix.resolve(f.getKey());
            if (real != null && Files.isRegularFile(real) && Files.size(real) == f.getValue()) {
                Files.copy(real, target);
            } else {
                try (RandomAccessFile standIn = new RandomAccessFile(target.toFile(), "rw")) {
                    standIn.setLength(f.getValue());
                }
                standIns++;
            }
        }
        return standIns;
    }

    /** The machine's Python prefix, or null without python3. */
    private static Path pythonPrefix() {
        try {
            Tools.Result r = Tools.run(Path.of("."), List.of("python3", "-c", "import sys; print(sys.prefix)"));
            return r.exitCode() == 0 ? Path.of(r.output().strip()) : null;
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }

}
