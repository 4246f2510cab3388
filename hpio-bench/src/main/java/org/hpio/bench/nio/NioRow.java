package org.hpio.bench.nio;

import com.sun.management.OperatingSystemMXBean;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One row of the nio suite in a JVM of its own (see {@link ChildJvm}), so that its threads, CPU time and heap
 * are its alone. It knows nothing of hpio: it opens the JDK's {@code AsynchronousFileChannel} or
 * {@code FileChannel}, and the parent decides whose channel that is by starting it with hpio's provider
 * installed (-Djava.nio.file.spi.DefaultFileSystemProvider) or not. Every read and write is checked; on a wrong
 * result it exits 1 naming what was wrong, else it prints one line {@value #PREFIX} followed by
 * {@code key=value} pairs.
 *
 * <pre>
 * NioRow afc FILE QD SECONDS WARMUP_SECONDS        4 KiB random O_DIRECT reads, CompletionHandler chains
 * NioRow vthreads FILE THREADS SECONDS WARMUP      THREADS virtual threads reading 4 KiB through one FileChannel
 * NioRow heap FILE THREADS SECONDS WARMUP          the same, 64 KiB into heap buffers
 * NioRow flood FILE WRITES WRITE_BYTES             003's experiment: writes submitted without waiting
 * NioRow small DIR BYTES SECONDS WARMUP            Files.readAllBytes of DIR's small files of BYTES, round robin
 * NioRow small-vt DIR BYTES SECONDS WARMUP         the same from one virtual thread
 * NioRow small-vt-each DIR BYTES SECONDS WARMUP    the same, each call on a new virtual thread
 * NioRow first-read DIR PAUSE_MS ...              the JVM's first FileChannel: open, read a small file, close
 * NioRow first-write DIR PAUSE_MS ...             the same, creating and writing a small file
 * NioRow first-read-vt DIR PAUSE_MS ...           the same two on a virtual thread
 * NioRow first-write-vt DIR PAUSE_MS ...
 * NioRow first-async-read DIR PAUSE_MS ...        the JVM's first AsynchronousFileChannel: open, read, close
 * NioRow first-async-write DIR PAUSE_MS ...       the same, creating and writing a small file
 * </pre>
 */
public final class NioRow {
    static final String PREFIX = "nio-result";

    private NioRow() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, Object> result = new LinkedHashMap<>();
        try {
            long beforeFirstPath = System.nanoTime();
            Path file = Path.of(args[1]);   // the JVM's first path: the default file system (and provider) made
            long firstPathNanos = System.nanoTime() - beforeFirstPath;
            switch (args[0]) {
                case "afc" -> AfcReads.run(file, Integer.parseInt(args[2]), Double.parseDouble(args[3]),
                        Double.parseDouble(args[4]), result);
                case "vthreads" -> VirtualThreadReads.run(file, Integer.parseInt(args[2]), Double.parseDouble(args[3]),
                        Double.parseDouble(args[4]), VirtualThreadReads.Buffers.DIRECT_4K, result);
                case "heap" -> VirtualThreadReads.run(file, Integer.parseInt(args[2]), Double.parseDouble(args[3]),
                        Double.parseDouble(args[4]), VirtualThreadReads.Buffers.HEAP_64K, result);
                case "flood" -> WriteFlood.run(file, Integer.parseInt(args[2]), Integer.parseInt(args[3]), result);
                case "small" -> SmallFileReads.run(file, Integer.parseInt(args[2]), Double.parseDouble(args[3]),
                        Double.parseDouble(args[4]), SmallFileReads.Readers.PLATFORM, result);
                case "small-vt" -> SmallFileReads.run(file, Integer.parseInt(args[2]), Double.parseDouble(args[3]),
                        Double.parseDouble(args[4]), SmallFileReads.Readers.VIRTUAL, result);
                case "small-vt-each" -> SmallFileReads.run(file, Integer.parseInt(args[2]),
                        Double.parseDouble(args[3]), Double.parseDouble(args[4]), SmallFileReads.Readers.VIRTUAL_EACH,
                        result);
                case "first-read" -> FirstChannelCall.run(file, FirstChannelCall.Op.READ,
                        Integer.parseInt(args[2]), firstPathNanos, result);
                case "first-write" -> FirstChannelCall.run(file, FirstChannelCall.Op.WRITE,
                        Integer.parseInt(args[2]), firstPathNanos, result);
                case "first-read-vt" -> FirstChannelCall.run(file, FirstChannelCall.Op.READ_ON_VIRTUAL_THREAD,
                        Integer.parseInt(args[2]), firstPathNanos, result);
                case "first-write-vt" -> FirstChannelCall.run(file, FirstChannelCall.Op.WRITE_ON_VIRTUAL_THREAD,
                        Integer.parseInt(args[2]), firstPathNanos, result);
                case "first-async-read" -> FirstChannelCall.run(file, FirstChannelCall.Op.ASYNC_READ,
                        Integer.parseInt(args[2]), firstPathNanos, result);
                case "first-async-write" -> FirstChannelCall.run(file, FirstChannelCall.Op.ASYNC_WRITE,
                        Integer.parseInt(args[2]), firstPathNanos, result);
                default -> throw new IllegalArgumentException("unknown row kind " + args[0]);
            }
        } catch (Exception | Error e) {
            System.err.println("nio row failed: " + e);
            e.printStackTrace();
            System.exit(1);
        }
        System.out.println(PREFIX + " " + result.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" ")));
        System.out.flush();
        System.exit(0);   // the JDK's pools and hpio's engine need not wind down
    }

    /** The process's CPU time so far (user + system, every thread), in nanoseconds. */
    static long cpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
