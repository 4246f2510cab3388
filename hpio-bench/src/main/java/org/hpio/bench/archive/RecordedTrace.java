package org.hpio.bench.archive;

import org.hpio.archive.trace.Trace;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A trace file and the directory its paths are relative to; by default the bundled python startup trace over the
 * machine's Python installation. A file the root lacks at the listed size gets a stand-in of that size: seeded
 * pseudo-text that Deflate shrinks about as much as source code.
 *
 * @param traceFile the trace, or null for the bundled python startup trace
 * @param root      the directory the trace's paths are relative to, or null (the python prefix for the bundled trace)
 */
record RecordedTrace(Path traceFile, Path root) implements TraceSource {
    static final String BUNDLED = "/traces/python-startup-3runs.trace";

    RecordedTrace {
        if (traceFile == null && root == null) {
            root = pythonPrefix();
        }
    }

    @Override
    public String name() {
        return traceFile != null ? traceFile.toString()
                : "python-startup-3runs.trace (bundled with hpio-bench)";
    }

    @Override
    public Trace trace() throws IOException {
        if (traceFile != null) {
            return Trace.read(traceFile);
        }
        try (InputStream in = RecordedTrace.class.getResourceAsStream(BUNDLED)) {
            return Trace.parse(new InputStreamReader(in, StandardCharsets.UTF_8), BUNDLED);
        }
    }

    @Override
    public boolean write(String path, long size, Path target) throws IOException {
        Path real = root == null ? null : root.resolve(path);
        if (real != null && Files.isRegularFile(real) && Files.size(real) == size) {
            Files.copy(real, target);
            return false;
        }
        PseudoContent.write(target, size, PseudoContent.Kind.TEXT, PseudoContent.PYTHON_WORDS, path.hashCode());
        return true;
    }

    @Override
    public String describeFiles(int standIns, int files) {
        return standIns + " of " + files + " files (not found at the listed size under the trace root)";
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
}
