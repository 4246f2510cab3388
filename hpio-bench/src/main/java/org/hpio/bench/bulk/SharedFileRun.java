package org.hpio.bench.bulk;

import org.hpio.bench.data.Elements;
import org.hpio.bench.data.TestData;
import org.hpio.bench.machine.CProgram;
import org.hpio.bench.measure.Stats;
import org.hpio.bench.ranks.RankGroup;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One timed run of 001 §4's experiment: {@code workers} threads, forked processes, or ranks of a launch
 * (mpirun, srun) each read or write their own block of one shared file (block i is elements
 * [i * n / w, (i + 1) * n / w)). Workers are released together at
 * a start barrier; the time runs from the first worker's start to the last one's end, as the workers measure
 * them. Set-up (starting a JVM, filling the array, a warm-up pass) is outside it. Reads are checked against the generator's checksum before the time is returned;
 * writes are checked by the caller from the file.
 */
public final class SharedFileRun {
    public enum Op { READ, WRITE }

    /** The file and its shape: {@code count} elements of {@code elements}, workers and order. */
    public record Plan(Path file, Elements elements, long count, int workers, ByteOrder order) {
        public long first(int worker) {
            return count * worker / workers;
        }

        public int length(int worker) {
            return Math.toIntExact(first(worker + 1) - first(worker));
        }

        public long bytes() {
            return count * elements.size();
        }
    }

    private SharedFileRun() {
    }

    /** Threads of this JVM; {@code buffers[i]} is worker i's array (its length at least the block's). */
    public static double inThreads(Approach approach, Op op, Plan plan, Object[] buffers, long expectedChecksum)
            throws Exception {
        int w = plan.workers();
        CyclicBarrier start = new CyclicBarrier(w + 1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long[] starts = new long[w];
        long[] ends = new long[w];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < w; i++) {
            int worker = i;
            threads.add(Thread.ofPlatform().name("bench-worker-" + i).start(() -> {
                try {
                    start.await();
                    starts[worker] = System.nanoTime();
                    doBlock(approach, op, plan.file(), plan.first(worker) * plan.elements().size(), buffers[worker],
                            plan.length(worker));
                    ends[worker] = System.nanoTime();
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }));
        }
        start.await();
        for (Thread t : threads) {
            t.join();
        }
        // From the first worker's start to the last one's end, as each saw them: the coordinating thread may be
        // descheduled after the barrier (more workers than cores), so its own clock would miss work.
        long elapsed = Arrays.stream(ends).max().orElseThrow() - Arrays.stream(starts).min().orElseThrow();
        if (failure.get() != null) {
            throw new IOException(approach.name() + " " + op + " failed: " + failure.get(), failure.get());
        }
        if (op == Op.READ) {
            long sum = 0;
            for (int i = 0; i < w; i++) {
                sum += TestData.checksum(buffers[i], 0, plan.length(i), plan.first(i));
            }
            checkRead(approach.name(), sum, expectedChecksum);
        }
        return elapsed / 1e9;
    }

    /**
     * Separate processes, each running {@code command(worker)}: a program that prints READY, waits for a line
     * on standard input, does its block and prints "DONE nanos checksum" with its own time of the I/O. All are
     * released within microseconds of each other, so the slowest worker's time is the run's; the checksum the
     * worker computes after its clock stopped is not counted.
     */
    public static double inProcesses(String name, Op op, Plan plan, WorkerCommand command, long expectedChecksum)
            throws IOException, InterruptedException {
        List<Process> processes = new ArrayList<>();
        List<BufferedReader> outputs = new ArrayList<>();
        try {
            for (int i = 0; i < plan.workers(); i++) {
                Process p = new ProcessBuilder(command.of(i)).redirectErrorStream(true).start();
                processes.add(p);
                BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                outputs.add(out);
                expectLine(name, out, "READY");
            }
            for (Process p : processes) {
                OutputStream in = p.getOutputStream();
                in.write("GO\n".getBytes(StandardCharsets.US_ASCII));
                in.flush();
            }
            List<String> figures = new ArrayList<>();
            for (BufferedReader out : outputs) {
                figures.add(expectLine(name, out, "DONE").substring("DONE ".length()));
            }
            for (Process p : processes) {
                if (p.waitFor() != 0) {
                    throw new IOException(name + " worker exited with " + p.exitValue());
                }
            }
            return slowest(name, op, figures, expectedChecksum);
        } finally {
            processes.forEach(Process::destroyForcibly);
        }
    }

    /**
     * This process as rank {@code ranks.rank()} of a launch (one JVM per rank, started by mpirun or srun, on
     * any machines that share the file): the ranks meet, each does its own block, and they exchange "nanos
     * checksum" as the forked workers print it. Every rank returns the same time, the slowest rank's, and a
     * read fails on every rank when the ranks' checksums do not add up to the file's; each rank's own MB/s go
     * to {@code figures}. {@code buffer} holds at least this rank's block; for a write it is filled from the
     * generator here, before the meeting.
     */
    public static double inRanks(Approach approach, Op op, Plan plan, RankGroup ranks, RankFigures figures,
                                 Object buffer, long expectedChecksum) throws IOException {
        int rank = ranks.rank();
        if (plan.workers() != ranks.size()) {
            throw new IllegalArgumentException("a plan of " + plan.workers() + " blocks for " + ranks.size() + " ranks");
        }
        long first = plan.first(rank);
        int length = plan.length(rank);
        if (op == Op.WRITE) {
            TestData.fill(buffer, 0, length, first);
        }
        String what = op.name().toLowerCase(Locale.ROOT) + " " + approach.name() + " "
                + plan.file().getFileName();
        ranks.meet("start " + what);
        long t0 = System.nanoTime();
        doBlock(approach, op, plan.file(), first * plan.elements().size(), buffer, length);
        long elapsed = System.nanoTime() - t0;
        List<String> handedIn = ranks.exchange("done " + what,
                elapsed + " " + Long.toUnsignedString(TestData.checksum(buffer, 0, length, first)));
        double[] mbPerSecond = new double[ranks.size()];
        for (int r = 0; r < mbPerSecond.length; r++) {
            long nanos = Long.parseLong(handedIn.get(r).strip().split(" ")[0]);
            mbPerSecond[r] = Stats.mbPerSecond((long) plan.length(r) * plan.elements().size(), nanos / 1e9);
        }
        figures.record(approach.name(), op, mbPerSecond);
        return slowest(approach.name(), op, handedIn, expectedChecksum);
    }

    /** Reads or writes one worker's block: {@code count} elements of {@code array} at byte {@code position}. */
    static void doBlock(Approach approach, Op op, Path file, long position, Object array, int count)
            throws IOException {
        if (op == Op.READ) {
            approach.read(file, position, array, 0, count);
        } else {
            approach.write(file, position, array, 0, count);
        }
    }

    /**
     * The slowest worker's seconds, from every worker's "nanos checksum"; for a read, after checking that the
     * checksums add up to the file's.
     */
    private static double slowest(String name, Op op, List<String> figures, long expectedChecksum) throws IOException {
        long slowest = 0;
        long sum = 0;
        for (String figure : figures) {
            String[] parts = figure.strip().split(" ");
            slowest = Math.max(slowest, Long.parseLong(parts[0]));
            sum += Long.parseUnsignedLong(parts[1]);
        }
        if (op == Op.READ) {
            checkRead(name, sum, expectedChecksum);
        }
        return slowest / 1e9;
    }

    /** The command line of worker i. */
    @FunctionalInterface
    public interface WorkerCommand {
        List<String> of(int worker);
    }

    private static String expectLine(String name, BufferedReader out, String prefix) throws IOException {
        StringBuilder seen = new StringBuilder();
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith(prefix)) {
                return line;
            }
            seen.append(line).append('\n');
        }
        throw new IOException(name + " worker ended without " + prefix + ": " + seen.toString().strip());
    }

    private static void checkRead(String name, long actual, long expected) throws IOException {
        if (actual != expected) {
            throw new IOException(name + " read wrong data: checksum " + Long.toHexString(actual) + ", expected "
                    + Long.toHexString(expected));
        }
    }

    /** The command that runs one Java worker ({@link BlockWorker}) in a fresh JVM like this one. */
    public static List<String> javaWorker(Approach approach, Op op, Plan plan, int worker) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(BlockWorker.class.getName());
        command.addAll(List.of(approach.name(), op.name(), plan.file().toString(),
                String.valueOf(plan.elements().size()), String.valueOf(plan.first(worker)),
                String.valueOf(plan.length(worker))));
        return command;
    }

    /** The command that runs one C worker of {@code threads} threads on block {@code worker}. */
    public static List<String> cWorker(CProgram c, Op op, Plan plan, int worker, int threads, boolean waitForStart) {
        List<String> command = new ArrayList<>(List.of(c.executable().toString(), op == Op.READ ? "read" : "write",
                plan.file().toString(), String.valueOf(plan.elements().size()),
                plan.order() == ByteOrder.BIG_ENDIAN ? "be" : "native", String.valueOf(plan.first(worker)),
                String.valueOf(plan.length(worker)), String.valueOf(threads)));
        if (waitForStart) {
            command.add("--wait");
        }
        return command;
    }
}
