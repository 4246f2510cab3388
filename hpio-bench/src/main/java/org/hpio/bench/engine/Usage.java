package org.hpio.bench.engine;

import com.sun.management.OperatingSystemMXBean;
import org.hpio.bench.measure.JitQuiet;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The process's own accounting at one instant: CPU time (user + system, every thread, including those that
 * ended, from {@code com.sun.management.OperatingSystemMXBean#getProcessCpuTime}), the part of it the JIT's
 * compiler threads used ({@link JitQuiet#compilerCpuNanos}, -1 where /proc cannot tell) and context switches
 * (voluntary + involuntary, summed over {@code /proc/self/task/}*{@code /status}: threads that ended in between
 * are not counted, so every driver keeps its threads until after the second reading).
 */
record Usage(long cpuNanos, long jitNanos, long contextSwitches) {
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final Path TASKS = Path.of("/proc/self/task");

    static Usage now() {
        return new Usage(OS.getProcessCpuTime(), JitQuiet.compilerCpuNanos(), contextSwitchesNow());
    }

    /** The usage from {@code earlier} to this one; JIT time and context switches -1 when either reading lacks them. */
    Usage minus(Usage earlier) {
        long switches = contextSwitches < 0 || earlier.contextSwitches < 0 ? -1 : contextSwitches - earlier.contextSwitches;
        long jit = jitNanos < 0 || earlier.jitNanos < 0 ? -1 : jitNanos - earlier.jitNanos;
        return new Usage(cpuNanos - earlier.cpuNanos, jit, switches);
    }

    /** The sum over this process's threads, or -1 where /proc cannot tell. */
    static long contextSwitchesNow() {
        if (!Files.isDirectory(TASKS)) {
            return -1;
        }
        long sum = 0;
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                sum += switches(task.resolve("status"));
            }
        } catch (IOException e) {
            return -1;
        }
        return sum;
    }

    private static long switches(Path status) {
        long sum = 0;
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                    sum += Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0; // the thread ended while we listed
        }
        return sum;
    }
}
