package org.hpio.bench.engine;

import org.hpio.bench.report.JsonTree;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * fio with its io_uring engine, the C reference (for 4 KiB random reads the machine's limit; for 1 MiB reads
 * its default buffers, 4 KiB pages, cost it about half of what huge pages give): one job at the workload's block
 * size and queue depth, O_DIRECT, time-based with a ramp, JSON output. Its figures are its own: IOPS and bytes, latency percentiles
 * (submission to completion, {@code lat_ns}), CPU as its job's {@code usr_cpu + sys_cpu} over its runtime, and
 * its job's context switches.
 */
final class Fio {
    static final String INSTALL = "install it with apt-get install fio (Debian's package fio)";

    private final Path executable;
    private final String version;

    private Fio(Path executable, String version) {
        this.executable = executable;
        this.version = version;
    }

    /** fio on PATH, or empty. */
    static Optional<Fio> find() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "fio");
            if (Files.isExecutable(candidate)) {
                try {
                    Output out = run(List.of(candidate.toString(), "--version"));
                    if (out.exit == 0) {
                        return Optional.of(new Fio(candidate, out.stdout.strip()));
                    }
                } catch (IOException e) {
                    // not a fio we can run: keep looking
                }
            }
        }
        return Optional.empty();
    }

    String version() {
        return version;
    }

    /** The command line for {@code workload} on {@code file}. */
    List<String> command(String configuration, Path file, Workload workload, int depth, double seconds, double rampSeconds) {
        List<String> c = new ArrayList<>(List.of(executable.toString(), "--name=" + configuration,
                "--filename=" + file, "--size=" + workload.fileSize(),
                "--rw=" + switch (workload.kind()) {
                    case RANDOM_READ -> "randread";
                    case SEQUENTIAL_READ -> "read";
                    case SEQUENTIAL_WRITE -> "write";
                },
                "--bs=" + workload.blockSize(), "--direct=" + (workload.direct() ? 1 : 0), "--ioengine=io_uring",
                "--iodepth=" + depth, "--numjobs=1", "--time_based",
                "--runtime=" + Math.max(1, Math.round(seconds * 1000)) + "ms",
                "--ramp_time=" + Math.max(1, Math.round(rampSeconds * 1000)) + "ms",
                "--lat_percentiles=1", "--percentile_list=50:99:99.9", "--output-format=json"));
        if (!workload.writes()) {
            c.add("--readonly");
        }
        return c;
    }

    Figures run(String configuration, Path file, Workload workload, int depth, double seconds, double rampSeconds)
            throws IOException {
        Output out = run(command(configuration, file, workload, depth, seconds, rampSeconds));
        if (out.exit != 0) {
            throw new IOException("fio exited with " + out.exit + ": " + (out.stderr + out.stdout).strip());
        }
        int brace = out.stdout.indexOf('{');
        if (brace < 0) {
            throw new IOException("fio wrote no JSON: " + (out.stderr + out.stdout).strip());
        }
        return figures(configuration, workload, depth, JsonTree.parse(out.stdout.substring(brace)));
    }

    /** Reads fio's JSON: the first job, its read or write side. */
    static Figures figures(String configuration, Workload workload, int depth, Object json) throws IOException {
        Object job = JsonTree.at(json, "jobs", 0);
        double error = JsonTree.number(job, "error");
        if (error != 0) {
            throw new IOException("fio's job failed with error " + (long) error);
        }
        String side = workload.writes() ? "write" : "read";
        long ios = (long) JsonTree.number(job, side, "total_ios");
        long bytes = (long) JsonTree.number(job, side, "io_bytes");
        double seconds = JsonTree.number(job, side, "runtime") / 1e3;
        // io_bytes and total_ios are counted at slightly different moments: they may differ by the I/Os in flight.
        if (ios <= 0 || seconds <= 0 || Math.abs(bytes - ios * workload.blockSize()) > (long) depth * workload.blockSize()) {
            throw new IOException(String.format(Locale.ROOT, "fio moved %d bytes in %d I/Os of %d bytes in %.3f s",
                    bytes, ios, workload.blockSize(), seconds));
        }
        double cpuMicros = JsonTree.number(job, "job_runtime") * 1e3
                * (JsonTree.number(job, "usr_cpu") + JsonTree.number(job, "sys_cpu")) / 100;
        double switches = JsonTree.number(job, "ctx");
        Object percentiles = JsonTree.at(job, side, "lat_ns", "percentile");
        return new Figures(configuration, Mechanism.FIO, workload, depth, ios, seconds, cpuMicros / ios, 0, switches / ios,
                JsonTree.number(percentiles, "50.000000") / 1e3, JsonTree.number(percentiles, "99.000000") / 1e3,
                JsonTree.number(percentiles, "99.900000") / 1e3, bytes);
    }

    private record Output(int exit, String stdout, String stderr) {
    }

    private static Output run(List<String> command) throws IOException {
        Path err = Files.createTempFile("hpio-fio", ".err");
        Process p = null;
        try {
            p = new ProcessBuilder(command).redirectError(err.toFile()).start();
            String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = p.waitFor();
            return new Output(exit, stdout, Files.readString(err));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while running fio", e);
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
