package org.hpio.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The block layer's account of the device a file lives on, over an interval: how many reads the device
 * completed, how long each spent in the block layer on average (queued in the I/O scheduler, then at the
 * device), how many requests the layer held on average, and the machine's interrupts per read. Read from the
 * kernel's {@code /sys/dev/block/MAJOR:MINOR/stat} (Documentation/block/stat.rst: field 1 reads completed,
 * 4 milliseconds spent reading, 11 the weighted milliseconds of every request in the layer) and the {@code intr}
 * line of {@code /proc/stat}, before and after.
 *
 * <p>Two ways of reading one file at one depth keep the same number of requests in the block layer; when one
 * still completes fewer reads per second, each of its reads took longer there, and the cause lies below the
 * caller's queueing (the device, or the machine's interrupts), not in how full the caller kept the queue.
 * System-wide: anything else reading the device meanwhile counts too.
 */
public final class BlockQueue {
    private final Path stat;

    private BlockQueue(Path stat) {
        this.stat = stat;
    }

    /** The device of {@code file} as the block layer counts it, or empty (a file system without one: tmpfs). */
    public static Optional<BlockQueue> of(Path file) {
        try {
            long dev = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
            Path stat = Path.of("/sys/dev/block", major(dev) + ":" + minor(dev), "stat");
            return Files.isReadable(stat) ? Optional.of(new BlockQueue(stat)) : Optional.empty();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * The device in words, for a report's parameters: its name, the I/O scheduler in use and the requests its
     * queue holds ({@code queue/scheduler}, {@code queue/nr_requests}; a partition's queue is its disk's), e.g.
     * "vda, I/O scheduler mq-deadline, 256 requests". Whatever cannot be read is left out: the scheduler decides
     * the order in which the device sees the requests, and what the same ways of reading achieve differs with it.
     */
    public String describe() {
        Path device = stat.getParent();
        Path queue = Files.isDirectory(device.resolve("queue")) ? device.resolve("queue")
                : device.resolve("../queue").normalize();
        StringBuilder words = new StringBuilder(name(device));
        String scheduler = firstLine(queue.resolve("scheduler"));
        if (!scheduler.isEmpty()) {
            words.append(", I/O scheduler ").append(inUse(scheduler));
        }
        String requests = firstLine(queue.resolve("nr_requests"));
        if (!requests.isEmpty()) {
            words.append(", ").append(requests).append(" requests");
        }
        return words.toString();
    }

    /**
     * The block device holding {@code path} in words ({@link #describe()}), or that it has none: for a suite's
     * parameters, beside figures that depend on the device and its scheduler.
     */
    public static String describeDeviceOf(Path path) {
        return of(path).map(BlockQueue::describe).orElse("none of its own (tmpfs?)");
    }

    /** The scheduler in use from {@code queue/scheduler}'s list, where it is the bracketed one. */
    static String inUse(String schedulers) {
        int open = schedulers.indexOf('[');
        int close = schedulers.indexOf(']', open + 1);
        return open >= 0 && close > open ? schedulers.substring(open + 1, close) : schedulers.strip();
    }

    /** The device's kernel name (uevent's DEVNAME), or its MAJOR:MINOR. */
    private static String name(Path device) {
        try {
            for (String line : Files.readAllLines(device.resolve("uevent"))) {
                if (line.startsWith("DEVNAME=")) {
                    return line.substring("DEVNAME=".length());
                }
            }
        } catch (IOException e) {
            // the MAJOR:MINOR below
        }
        return device.getFileName().toString();
    }

    private static String firstLine(Path file) {
        try {
            return Files.readString(file).lines().findFirst().orElse("").strip();
        } catch (IOException e) {
            return "";
        }
    }

    /** Linux's dev_t encoding (glibc's gnu_dev_major). */
    static long major(long dev) {
        return ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
    }

    /** Linux's dev_t encoding (glibc's gnu_dev_minor). */
    static long minor(long dev) {
        return (dev & 0xff) | ((dev >>> 12) & ~0xffL);
    }

    /** The counters now. */
    public Snapshot snapshot() throws IOException {
        return Snapshot.parse(System.nanoTime(), Files.readString(stat), Files.readString(Path.of("/proc/stat")));
    }

    /**
     * The counters now, or null when they cannot be read: these figures explain a row, they are not what it
     * measures, so a kernel that words its counters otherwise costs the row only them.
     */
    public Snapshot snapshotOrNull() {
        try {
            return snapshot();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The counters at one moment.
     *
     * @param nanos        System.nanoTime when read
     * @param reads        reads the device completed
     * @param merged       reads merged into another before they reached the device (adjacent on the disk)
     * @param readMillis   milliseconds those reads spent in the block layer, summed
     * @param queueMillis  milliseconds of every request in the layer, summed (time_in_queue)
     * @param interrupts   interrupts the machine took (every CPU, every source: /proc/stat's intr total)
     */
    public record Snapshot(long nanos, long reads, long merged, long readMillis, long queueMillis, long interrupts) {
        static Snapshot parse(long nanos, String blockStat, String procStat) {
            String[] f = blockStat.strip().split("\\s+");
            if (f.length < 11) {
                throw new IllegalArgumentException("a block stat line has at least 11 fields: '" + blockStat.strip() + "'");
            }
            long interrupts = -1;
            for (String line : procStat.split("\n")) {
                if (line.startsWith("intr ")) {
                    interrupts = Long.parseLong(line.split(" ", 3)[1]);
                }
            }
            return new Snapshot(nanos, Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[3]),
                    Long.parseLong(f[10]), interrupts);
        }

        /**
         * From this snapshot to {@code later}, into {@code figures}: {@code block-reads-per-s} (the reads the
         * layer took, merged ones included: each read a caller made counts once, as the caller counts it; a deep
         * queue of random 64 KiB reads over a 256 MiB file merges several in a hundred),
         * {@code block-read-us} (mean time in the layer per read), {@code block-queue} (mean requests in the
         * layer) and {@code interrupts-per-io} (per read the device completed); nothing when the device
         * completed no read or {@code later} is null.
         */
        public void putFigures(Snapshot later, Map<String, Object> figures) {
            if (later == null) {
                return;
            }
            long reads = later.reads - reads();
            double seconds = (later.nanos - nanos) / 1e9;
            if (reads <= 0 || seconds <= 0) {
                return;
            }
            figures.put("block-reads-per-s", (reads + later.merged - merged) / seconds);
            figures.put("block-read-us", (later.readMillis - readMillis) * 1e3 / reads);
            figures.put("block-queue", (later.queueMillis - queueMillis) / (seconds * 1e3));
            if (interrupts >= 0 && later.interrupts >= 0) {
                figures.put("interrupts-per-io", (double) (later.interrupts - interrupts) / reads);
            }
        }
    }
}
