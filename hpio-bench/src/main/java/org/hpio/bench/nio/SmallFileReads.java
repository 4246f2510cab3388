package org.hpio.bench.nio;

import org.hpio.bench.engine.LatencyHistogram;
import org.hpio.bench.measure.JitQuiet;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The obvious call: {@code Files.readAllBytes} of small files ({@value #FILES} files of one size, read round
 * robin by one thread, a platform or a virtual one, or each call by a virtual thread of its own; warm: just
 * written, they stay in the page cache), every call's bytes checked against the file's pattern. Calls per second, CPU per call and each call's latency over
 * the timed run, after a warm-up until the JIT is quiet. Through hpio's provider a platform thread's call is the
 * JDK's channel (the provider leaves a platform thread's plain read-only byte channel to it), a virtual
 * thread's is hpio's open, size, reads and close.
 */
final class SmallFileReads {
    static final int FILES = 64;
    /** How long a virtual-thread row reads on between looks at which channel it gets (see {@link #run}). */
    private static final long WAIT_SLICE_NANOS = 50_000_000L;

    private SmallFileReads() {
    }

    /** The {@code index}th file of {@code size} bytes in {@code dir}. */
    static Path file(Path dir, int size, int index) {
        return dir.resolve("small-" + size + "-" + index + ".bin");
    }

    /** The bytes of {@link #file}: a pattern of the file's index, so a call that read another file fails. */
    static byte[] pattern(int size, int index) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (index * 31 + i * 7 + (i >> 8));
        }
        return bytes;
    }

    /** Writes the {@value #FILES} files of {@code size} bytes the rows read (the suite's JVM, the JDK's provider). */
    static void create(Path dir, int size) throws IOException {
        for (int i = 0; i < FILES; i++) {
            Files.write(file(dir, size, i), pattern(size, i));
        }
    }

    static void delete(Path dir, int size) throws IOException {
        for (int i = 0; i < FILES; i++) {
            Files.deleteIfExists(file(dir, size, i));
        }
    }

    /** Which threads make the calls. */
    enum Readers {
        /** This (platform) thread. */
        PLATFORM,
        /** One virtual thread. */
        VIRTUAL,
        /** A virtual thread of its own for each call, started for it and joined by one virtual thread. */
        VIRTUAL_EACH
    }

    /** Runs the row with {@code readers}. */
    static void run(Path dir, int size, double seconds, double warmupSeconds, Readers readers,
                    Map<String, Object> result) throws Exception {
        if (readers == Readers.PLATFORM) {
            run(dir, size, seconds, warmupSeconds, false, result);
            return;
        }
        boolean each = readers == Readers.VIRTUAL_EACH;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread reader = Thread.ofVirtual().name("small-file-reader").start(() -> {
            try {
                run(dir, size, seconds, warmupSeconds, each, result);
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        reader.join();
        Throwable failed = failure.get();
        if (failed instanceof Exception e) {
            throw e;
        }
        if (failed != null) {
            throw (Error) failed;
        }
    }

    private static void run(Path dir, int size, double seconds, double warmupSeconds, boolean each,
                            Map<String, Object> result) throws Exception {
        Path[] files = new Path[FILES];
        byte[][] expected = new byte[FILES][];
        for (int i = 0; i < FILES; i++) {
            files[i] = file(dir, size, i);
            expected[i] = pattern(size, i);
        }
        // The row's JVM's first call: what a program's first read of a file costs, start-up included.
        long firstStart = System.nanoTime();
        byte[] first = Files.readAllBytes(files[0]);
        long firstNanos = System.nanoTime() - firstStart;
        if (!Arrays.equals(first, expected[0])) {
            throw new IOException("the first call read other bytes than " + files[0] + " holds");
        }
        result.put("first-call-ms", firstNanos / 1e6);
        String provider = files[0].getFileSystem().provider().getClass().getName();
        result.put("provider", provider);
        result.put("thread", each ? "virtual-per-call" : Thread.currentThread().isVirtual() ? "virtual" : "platform");
        read(files, expected, (long) (warmupSeconds * 1e9), null, each);
        long extra = JitQuiet.warmUntilQuiet(warmupSeconds, nanos -> read(files, expected, nanos, null, each));
        String channel = channel(files[0]);
        // hpio's provider gives a virtual thread the JDK's channel until its engines are started (by a thread of
        // its own, asked by the first call): the timed calls must be on the channel of its steady state.
        boolean awaitsHpios = Thread.currentThread().isVirtual() && provider.startsWith("org.hpio.");
        long startWait = System.nanoTime();
        while (awaitsHpios && !channel.startsWith("org.hpio.") && System.nanoTime() - startWait < 10_000_000_000L) {
            read(files, expected, WAIT_SLICE_NANOS, null, each);
            extra += WAIT_SLICE_NANOS;
            channel = channel(files[0]);
        }
        result.put("channel", channel);   // after the warm-up: the channel the timed calls get
        LatencyHistogram latency = new LatencyHistogram();
        long cpu = NioRow.cpuNanos();
        long start = System.nanoTime();
        long calls = read(files, expected, (long) (seconds * 1e9), latency, each);
        long elapsed = System.nanoTime() - start;
        cpu = NioRow.cpuNanos() - cpu;
        result.put("file-bytes", size);
        result.put("ios", calls);
        result.put("seconds", elapsed / 1e9);
        result.put("iops", calls / (elapsed / 1e9));
        result.put("cpu-per-io", cpu / 1e3 / calls);
        result.put("extra-warmup-seconds", extra / 1e9);
        result.put("p50", latency.quantile(0.5) / 1e3);
        result.put("p99", latency.quantile(0.99) / 1e3);
    }

    /** The class of the channel {@code Files.newByteChannel} gives for {@code file} on this thread now. */
    private static String channel(Path file) throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(file)) {
            return ch.getClass().getName();
        }
    }

    /**
     * Reads the files round robin for {@code nanos}, checking each, each call on a new virtual thread when
     * {@code each}; returns the calls (latencies recorded if asked).
     */
    private static long read(Path[] files, byte[][] expected, long nanos, LatencyHistogram latency, boolean each)
            throws IOException {
        long calls = 0;
        long end = System.nanoTime() + nanos;
        long now;
        do {
            for (int i = 0; i < 16; i++, calls++) {
                int f = (int) (calls % FILES);
                long before = System.nanoTime();
                byte[] bytes = each ? readOnNewThread(files[f]) : Files.readAllBytes(files[f]);
                if (latency != null) {
                    latency.record(System.nanoTime() - before);
                }
                if (!Arrays.equals(bytes, expected[f])) {
                    throw new IOException(files[f] + ": readAllBytes gave " + bytes.length + " bytes that differ from "
                            + "the " + expected[f].length + " written");
                }
            }
            now = System.nanoTime();
        } while (now < end);
        return calls;
    }

    /** {@code Files.readAllBytes(file)} on a virtual thread started for it, joined here. */
    private static byte[] readOnNewThread(Path file) throws IOException {
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                outcome.set(Files.readAllBytes(file));
            } catch (Throwable t) {   // an Error too: the caller throws it, rather than a null it cannot explain
                outcome.set(t);
            }
        });
        try {
            reader.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while joining the reader of " + file);
        }
        Object got = outcome.get();
        if (got instanceof byte[] bytes) {
            return bytes;
        }
        if (got instanceof IOException e) {
            throw e;
        }
        if (got instanceof RuntimeException e) {
            throw e;
        }
        if (got instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("the reader of " + file + " ended with neither bytes nor a failure: " + got);
    }
}
