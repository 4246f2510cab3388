package org.hpio.examples;

import org.hpio.archive.Archive;
import org.hpio.archive.ArchiveBuilder;
import org.hpio.archive.DirectoryOrder;
import org.hpio.archive.order.TraceOrdering;
import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.archive.simulation.SeekCounter;
import org.hpio.archive.trace.Trace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The README's archives: a trace orders the files, the archive is written in that order and read back. */
public final class Archives {
    private Archives() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Scratch.directory("archives");
        Path root = Files.createDirectories(dir.resolve("prefix"));
        for (String name : List.of("lib/abc.py", "lib/json/__init__.py", "lib/os.py", "lib/site.py")) {
            Files.createDirectories(root.resolve(name).getParent());
            Files.writeString(root.resolve(name), ("# " + name + "\n").repeat(200));
        }
        Path tracePath = Files.writeString(dir.resolve("app.trace"), """
                000.010000: L "lib/site.py" 2400
                000.020000: L "lib/os.py" 1800
                000.030000: L "lib/json/__init__.py" 4600
                """);
        Path appZip = dir.resolve("app.zip");
        byte[] data;
        SeekCounter.Report seeks;
        List<String> order;
        // README: archives
        Trace trace = Trace.read(tracePath);
        order = TraceOrdering.order(trace, DirectoryOrder.of(root), FileCacheModel.none());
        new ArchiveBuilder(root).addAll(order).write(appZip);                // temp file, force, atomic rename
        try (Archive archive = Archive.open(appZip)) {
            data = archive.read(archive.entry("lib/os.py").orElseThrow());   // CRC-checked
            seeks = SeekCounter.count(trace, archive.layout(), FileCacheModel.lru(10 << 20));
        }
        // README: end
        Check.that(order.equals(List.of("lib/site.py", "lib/os.py", "lib/json/__init__.py", "lib/abc.py")),
                "the traced files first, in trace order, then the rest: " + order);
        Check.that(new String(data, StandardCharsets.UTF_8).equals(Files.readString(root.resolve("lib/os.py"))),
                "lib/os.py read back");
        Check.that(seeks.wholeTrace().seeks() <= 1, "trace order reads the traced files without a seek: " + seeks);
        System.out.println("Archives: " + order.size() + " entries in trace order; " + seeks.wholeTrace().seeks()
                + " seek replaying the trace");
    }
}
