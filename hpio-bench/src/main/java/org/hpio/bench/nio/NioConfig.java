package org.hpio.bench.nio;

import org.hpio.internal.io.EngineConfig;
import org.hpio.internal.io.IoEngines;

import java.util.List;
import java.util.Map;

/**
 * One row of the suite: which kind ({@code afc}, {@code vthreads}, {@code heap}, {@code flood}, {@code small},
 * {@code first-read}, {@code first-write}, {@code first-read-vt}, {@code first-write-vt}, {@code first-async-read},
 * {@code first-async-write}, or the engine's own
 * {@code uring}), on whose provider ({@code jdk}, {@code hpio}, {@code hpio-sqpoll}: hpio's with a kernel
 * submission thread, or {@code hpio-1ring}: hpio's with every FileChannel call on the shared engine alone), at which queue depth or
 * thread count; and, once measured, its figures as the child printed them.
 */
record NioConfig(String kind, String provider, int parameter) {
    static final String AFC = "afc";
    static final String VTHREADS = "vthreads";
    /**
     * Virtual threads reading into heap buffers, more of them than hpio's staging budget holds at once (see
     * {@link NioSettings#HEAP_THREADS}): what most code passes, and the wait for staging memory.
     */
    static final String HEAP = "heap";
    static final String FLOOD = "flood";
    /** {@code Files.readAllBytes} of small files: the obvious call's fixed cost (see {@link SmallFileReads}). */
    static final String SMALL = "small";
    /** The same from one virtual thread (the provider gives a virtual thread's plain read hpio's channel). */
    static final String SMALL_VT = "small-vt";
    /**
     * The same, each call on a virtual thread of its own, started for it and joined (a server's thread per
     * request): what a provider costs each new virtual thread.
     */
    static final String SMALL_VT_EACH = "small-vt-each";
    /** A cold JVM's first FileChannel: open, one read of a small file, close (see {@link FirstChannelCall}). */
    static final String FIRST_READ = "first-read";
    /** The same with one write of a new file. */
    static final String FIRST_WRITE = "first-write";
    /** A cold JVM's first FileChannel on a virtual thread: open, one read of a small file, close. */
    static final String FIRST_READ_VT = "first-read-vt";
    /** The same with one write of a new file. */
    static final String FIRST_WRITE_VT = "first-write-vt";
    /** A cold JVM's first AsynchronousFileChannel: open, one read of a small file (its Future), close. */
    static final String FIRST_ASYNC_READ = "first-async-read";
    /** The same with one write of a new file. */
    static final String FIRST_ASYNC_WRITE = "first-async-write";
    /** Every first-call kind, in the report's order. */
    static final List<String> FIRST_KINDS = List.of(FIRST_READ, FIRST_WRITE, FIRST_READ_VT, FIRST_WRITE_VT,
            FIRST_ASYNC_READ, FIRST_ASYNC_WRITE);
    /** The report's part for every first-call kind. */
    static final String FIRST = "first";
    static final String URING = "uring";
    static final List<String> KINDS = List.of(AFC, VTHREADS, FLOOD);
    /** hpio's provider on an engine whose ring has a kernel submission thread (SQPOLL). */
    static final String HPIO_SQPOLL = "hpio-sqpoll";
    /** The SQPOLL rows' submission thread sleeps after this long without work. */
    static final int SQ_POLL_IDLE_MILLIS = 10;
    /**
     * hpio's provider with {@code -Dhpio.engine.rings=1}: a FileChannel's calls all on the shared engine, one
     * ring and one completion thread, as before the rings (IoEngines.sharedRings): the default's comparison.
     */
    static final String HPIO_ONE_RING = "hpio-1ring";

    /**
     * {@code hpio-afc-qd32}, {@code jdk-vt1000}, {@code hpio-heap64k-vt2000}, {@code hpio-flood},
     * {@code jdk-readall-1k}, {@code hpio-readall-1k-vt}, {@code hpio-first-read}, {@code jdk-first-read-after-250ms},
     * {@code uring-qd32}.
     */
    String configuration() {
        return switch (kind) {
            case AFC -> provider + "-afc-qd" + parameter;
            case VTHREADS -> provider + "-vt" + parameter;
            case HEAP -> provider + "-heap" + NioSettings.HEAP_BLOCK / 1024 + "k-vt" + parameter;
            case FLOOD -> provider + "-flood";
            case SMALL -> provider + "-readall-" + smallSize();
            case SMALL_VT -> provider + "-readall-" + smallSize() + "-vt";
            case SMALL_VT_EACH -> provider + "-readall-" + smallSize() + "-vt-each";
            case FIRST_READ, FIRST_WRITE, FIRST_READ_VT, FIRST_WRITE_VT, FIRST_ASYNC_READ, FIRST_ASYNC_WRITE ->
                    provider + "-" + kind + (parameter > 0 ? "-after-" + parameter + "ms" : "");
            default -> "uring-qd" + parameter;
        };
    }

    private String smallSize() {
        return parameter >= 1024 ? parameter / 1024 + "k" : parameter + "b";
    }

    /** Whether this row reads the small files ({@link SmallFileReads}), from a platform or virtual threads. */
    boolean smallFiles() {
        return kind.equals(SMALL) || kind.equals(SMALL_VT) || kind.equals(SMALL_VT_EACH);
    }

    /**
     * Whether this row times its JVM's first FileChannel or AsynchronousFileChannel ({@link FirstChannelCall}); its
     * parameter is the pause.
     */
    boolean firstCall() {
        return FIRST_KINDS.contains(kind);
    }

    /**
     * The part of the report a row belongs to: its kind (every small-file kind (d)'s, both first-call kinds
     * (f)'s); an engine row, (c)'s at the shared engine's depth, else (b).
     */
    String section() {
        if (smallFiles()) {
            return SMALL;
        }
        if (firstCall()) {
            return FIRST;
        }
        if (!kind.equals(URING)) {
            return kind;
        }
        return parameter == NioSettings.VTHREADS_REFERENCE_DEPTH ? VTHREADS : AFC;
    }

    boolean hpio() {
        return provider.equals("hpio") || sqPoll() || oneRing();
    }

    boolean oneRing() {
        return provider.equals(HPIO_ONE_RING);
    }

    /** The JVM options that make this row's provider what it is, beyond hpio's provider itself. */
    List<String> providerOptions() {
        if (sqPoll()) {
            return List.of("-D" + EngineConfig.SQ_POLL_PROPERTY + "=" + SQ_POLL_IDLE_MILLIS);
        }
        return oneRing() ? List.of("-D" + IoEngines.RINGS_PROPERTY + "=1") : List.of();
    }

    boolean sqPoll() {
        return provider.equals(HPIO_SQPOLL);
    }

    /** A measured row: the run and its figures (numbers as text, "true"/"false", the channel's class). */
    record Measured(NioConfig config, Map<String, String> figures) {
        double number(String key) {
            String v = figures.get(key);
            return v == null ? Double.NaN : Double.parseDouble(v);
        }

        boolean flag(String key) {
            return Boolean.parseBoolean(figures.get(key));
        }

        String name() {
            return config.configuration();
        }
    }
}
