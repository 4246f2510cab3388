package org.hpio.internal.io;

import org.hpio.internal.mem.BufferPool;
import org.hpio.internal.mem.MemoryPool;
import org.hpio.internal.mem.StagingBuffer;
import org.hpio.internal.sys.NativeAccess;
import org.hpio.internal.sys.UringRing;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Opens engines. {@code -Dhpio.engine=uring|threads|auto} (default auto) chooses: auto takes io_uring when it
 * starts and offers every operation hpio uses, else the portable engine, logging the reason once; forcing
 * {@code uring} where it cannot start is an error, never a silent fallback.
 *
 * <p>Every open engine is drained and closed by a shutdown hook, so no request is in flight when the JVM exits.
 */
public final class IoEngines {
    public static final String PROPERTY = "hpio.engine";
    /** How many io_uring engines {@link #sharedRings} spreads blocking channel calls over (1 to 64). */
    public static final String RINGS_PROPERTY = "hpio.engine.rings";

    private static final Set<IoEngine> OPEN = ConcurrentHashMap.newKeySet();
    private static volatile boolean fallbackLogged;
    /** Why the automatic choice last fell back from io_uring, or null. */
    private static volatile String uringRefusal;
    private static volatile IoEngine shared;
    private static volatile List<IoEngine> sharedRings;
    private static final ReentrantLock SHARED_LOCK = new ReentrantLock();

    /**
     * The shutdown hook that closes every open engine, registered with the first engine (not when this class
     * loads: a program's first channel may need no engine, and the hook's set-up is part of a cold JVM's first call).
     */
    private static final class ShutdownHook {
        static {
            try {
                Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("hpio-engine-shutdown").unstarted(() -> {
                    for (IoEngine engine : OPEN) {
                        try {
                            engine.close();
                        } catch (IOException | RuntimeException e) {
                            log().log(System.Logger.Level.WARNING, "closing " + engine.name() + " engine at exit: " + e);
                        }
                    }
                }));
            } catch (IllegalStateException e) {
                // The JVM is already shutting down (the first engine started from a shutdown hook): the process
                // ends with it, and its kernel resources with the process.
            }
        }

        static void ensureRegistered() {
            // the class's initialization registers it, once
        }
    }

    /** The logger, made when something is logged (making it loads the logging service: milliseconds of a cold JVM). */
    private static System.Logger log() {
        return System.getLogger(IoEngines.class.getName());
    }

    private IoEngines() {
    }

    /**
     * Prepares a later start of the io_uring engine, for a thread that does it ahead of the first need (the
     * {@code FileSystemProvider}'s warm-up): links io_uring's calls by calls the kernel refuses before it sets
     * anything up ({@link UringRing#exerciseCalls}), and loads and initializes the engine's classes. It opens
     * nothing, so nothing needs closing. The first engine's start then cost a cold JVM 6.6-11 ms instead of
     * 53-75 (AMD EPYC, 2 cores). Nothing to do where the portable engine is chosen or native calls are off.
     */
    public static void prepareStart() throws IllegalAccessException {
        if (!NativeAccess.available() || choice().equals("threads")) {
            return;
        }
        UringRing.exerciseCalls();
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        for (Class<?> c : List.of(EngineConfig.class, IoOperation.class, IoOperation.Kind.class, IoRequest.class,
                IoRequests.class, Completions.class, UringEngine.class, UringEngine.UringJob.class, AdmissionGate.class,
                LiveJobs.class, StagingBudget.class, StagingBuffer.class, MemoryPool.class, BufferPool.class)) {
            lookup.ensureInitialized(c);
        }
    }

    /** An engine chosen by {@value #PROPERTY}. */
    public static IoEngine open(EngineConfig config) throws IOException {
        String choice = choice();
        return switch (choice) {
            case "uring" -> register(UringEngine.open(config));
            case "threads" -> register(ThreadPoolEngine.open(config));
            case "auto" -> register(openAuto(config));
            default -> throw new IllegalArgumentException("-D" + PROPERTY + " must be uring, threads or auto, not " + choice);
        };
    }

    /** {@value #PROPERTY}'s value, lower case (auto when unset). */
    private static String choice() {
        return System.getProperty(PROPERTY, "auto").toLowerCase(Locale.ROOT);
    }

    /** The io_uring engine, or an IOException saying why it cannot start here. */
    public static IoEngine openUring(EngineConfig config) throws IOException {
        return register(UringEngine.open(config));
    }

    /** The portable engine. */
    public static IoEngine openThreads(EngineConfig config) throws IOException {
        return register(ThreadPoolEngine.open(config));
    }

    /** The portable engine with workers from {@code threads} (tests hold them at a gate to keep requests queued). */
    public static IoEngine openThreads(EngineConfig config, ThreadFactory threads) {
        return register(ThreadPoolEngine.open(config, threads));
    }

    /** One engine with the default bounds for the whole JVM, opened on first use. */
    public static IoEngine shared() throws IOException {
        IoEngine engine = shared;
        if (engine == null) {
            SHARED_LOCK.lock();   // a lock, not synchronized: opening makes system calls, virtual threads park
            try {
                engine = shared;
                if (engine == null) {
                    engine = open(EngineConfig.defaults());
                    shared = engine;
                }
            } finally {
                SHARED_LOCK.unlock();
            }
        }
        return engine;
    }

    /**
     * The engines that blocking channel calls (hpio's {@code FileChannel}) are spread over: the shared engine
     * first and, when it is io_uring's, more engines like it up to {@link #ringCount()}, each with its own ring,
     * completion thread and bounds (opened on first use, kept for the JVM's life). The kernel posts a read's
     * completion on the thread that submitted it, and under virtual-thread load that is the engine's completion
     * thread: with one ring, one thread submits and completes every read, and the device's queue waits for it.
     * With one ring per core (two on the 2-vCPU test machine) that work runs on every core, and the reads in
     * flight are the rings' bounds added up (see docs/DESIGN.md, "FileChannel"). A ring that cannot be opened is
     * logged and left out; the portable engine is never repeated (its pool is its parallelism).
     */
    public static List<IoEngine> sharedRings() throws IOException {
        List<IoEngine> rings = sharedRings;
        if (rings == null) {
            SHARED_LOCK.lock();
            try {
                rings = sharedRings;
                if (rings == null) {
                    rings = openRingsBeside(shared());
                    sharedRings = rings;
                }
            } finally {
                SHARED_LOCK.unlock();
            }
        }
        return rings;
    }

    /** Whether {@link #sharedRings()} has opened its engines (then asking for them costs nothing). */
    public static boolean sharedRingsStarted() {
        return sharedRings != null;
    }

    /** Whether {@link #shared()} has its engine already, so that asking costs no start. */
    public static boolean sharedStarted() {
        return shared != null;
    }

    /**
     * {@value #RINGS_PROPERTY}, or by default one ring per core up to two (the depth measured; more cores
     * have not been). An IllegalArgumentException names a value outside 1 to 64.
     */
    public static int ringCount() {
        int cores = Runtime.getRuntime().availableProcessors();
        String value = System.getProperty(RINGS_PROPERTY);
        if (value == null) {
            return Math.min(2, cores);
        }
        try {
            int rings = Integer.parseInt(value.trim());
            if (rings >= 1 && rings <= 64) {
                return rings;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("-D" + RINGS_PROPERTY + " must be a whole number from 1 to 64, not "
                + value);
    }

    private static List<IoEngine> openRingsBeside(IoEngine first) {
        int wanted = ringCount();
        List<IoEngine> rings = new ArrayList<>(List.of(first));
        if (!(first instanceof UringEngine)) {
            return List.copyOf(rings);
        }
        while (rings.size() < wanted) {
            try {
                rings.add(openUring(first.config()));
            } catch (IOException | RuntimeException e) {
                log().log(System.Logger.Level.WARNING, "channel calls stay on " + rings.size()
                        + " io_uring engine(s): another could not be opened: " + e.getMessage());
                break;
            }
        }
        return List.copyOf(rings);
    }

    private static IoEngine openAuto(EngineConfig config) throws IOException {
        try {
            return UringEngine.open(config);
        } catch (IOException | UnsupportedOperationException e) {
            uringRefusal = e.getMessage();
            if (!fallbackLogged && NativeAccess.available()) { // else NativeAccess said why
                fallbackLogged = true;
                log().log(System.Logger.Level.INFO, "io_uring unavailable, using the thread-pool engine: " + e.getMessage());
            }
            return ThreadPoolEngine.open(config);
        }
    }

    /** Why the automatic choice fell back from io_uring to the thread-pool engine, or null when it did not. */
    public static String uringRefusal() {
        return uringRefusal;
    }

    private static IoEngine register(IoEngine engine) {
        ShutdownHook.ensureRegistered();
        OPEN.add(engine);
        return engine;
    }

    /** Called by an engine's close. */
    static void closed(IoEngine engine) {
        OPEN.remove(engine);
    }
}
