package org.hpio.nio;

import org.hpio.internal.io.IoEngine;
import org.hpio.internal.sys.NativeFile;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The engines one {@link HpioFileChannel}'s calls are spread over ({@link
 * org.hpio.internal.io.IoEngines#sharedRings}): each thread's calls go to one of them, chosen by its thread id,
 * so a thread's reads queue in one engine's admission order (in turn with the other threads there) and a
 * platform thread reaps the same ring every time. Each call uses the one engine it picked from start to end:
 * its staging memory, its request, its cancellation. One instance serves every channel of a provider.
 *
 * <p>Started or not: channels opened before the engines were started get rings that start them when a call
 * first needs one ({@link #startedOnFirstUse}); a read the page cache serves, a {@code size} or a close needs
 * none, so a program that opens a file and reads what is cached never waits for io_uring's set-up (about
 * 100 ms of a cold JVM, see DESIGN "First calls"). Once started, the engines never change.
 */
final class EngineRings {
    /** Starts the engines, or says they cannot be had now. */
    interface Starter {
        /**
         * The engines, started now if need be; null when they cannot be had now (this thread is starting them,
         * or they are closed: the JVM is shutting down), and the call then goes to the JDK's channel.
         */
        List<IoEngine> start() throws IOException;
    }

    /** The engines; null until {@link #starter} gave them. */
    private volatile IoEngine[] engines;
    private final Starter starter;
    /**
     * 1 once {@link #startInBackground} asked a thread of its own to start the engines (not an AtomicBoolean: see
     * {@link NativeFiles#WARM_UP_STARTED}).
     */
    private final AtomicInteger backgroundStart = new AtomicInteger();
    /** Set when that thread failed: later calls start the engines themselves (and report why they cannot). */
    private volatile boolean backgroundStartFailed;

    /** Over {@code engines}, started, the first of them the one named for the channel. */
    EngineRings(List<IoEngine> engines) {
        this.engines = array(engines);
        this.starter = null;
    }

    private EngineRings(Starter starter) {
        this.starter = starter;
    }

    /** Rings whose engines {@code starter} gives when a call first needs one. */
    static EngineRings startedOnFirstUse(Starter starter) {
        return new EngineRings(starter);
    }

    private static IoEngine[] array(List<IoEngine> engines) {
        if (engines.isEmpty()) {
            throw new IllegalArgumentException("no engine");
        }
        return engines.toArray(IoEngine[]::new);
    }

    /**
     * The engine for the calling thread's calls, starting the engines if this is the first call to need one;
     * null when they cannot be had now (see {@link Starter#start}).
     */
    IoEngine forCurrentThread() throws IOException {
        IoEngine[] started = startedOrNull();
        return started == null ? null : forCurrentThread(started);
    }

    /** Of {@code started}, the one the calling thread's calls go to (by its thread id). */
    private static IoEngine forCurrentThread(IoEngine[] started) {
        if (started.length == 1) {
            return started[0];
        }
        return started[(int) Long.remainderUnsigned(Thread.currentThread().threadId(), started.length)];
    }

    private IoEngine[] startedOrNull() throws IOException {
        IoEngine[] started = engines;
        if (started == null) {
            List<IoEngine> got = starter.start();
            if (got == null) {
                return null;
            }
            started = array(got);
            engines = started;   // a racing first call stores the same engines
        }
        return started;
    }

    /**
     * The first engine (an asynchronous channel's only one), starting the engines if this is the first call to
     * need one; null when they cannot be had now (see {@link Starter#start}).
     */
    IoEngine firstOrStart() throws IOException {
        IoEngine[] started = startedOrNull();
        return started == null ? null : started[0];
    }

    /**
     * The engine for the calling thread's calls if the engines are started; else null, having asked a daemon
     * thread of its own ({@code hpio-engine-start}) to start them (once): for a call the JDK's channel can
     * serve meanwhile, which then does not wait for io_uring's set-up (10-20 ms after the provider's warm-up).
     * If that thread failed, the call starts them itself, as {@link #forCurrentThread} (and the failure is its).
     */
    IoEngine forCurrentThreadOrStartInBackground() throws IOException {
        IoEngine[] started = engines;
        if (started == null) {
            return startInBackground() ? null : forCurrentThread();
        }
        return forCurrentThread(started);
    }

    /**
     * Has a daemon thread of its own start the engines, once (see {@link #forCurrentThreadOrStartInBackground});
     * false when that start failed, so the caller starts them itself and reports why they cannot be had.
     */
    boolean startInBackground() {
        if (backgroundStartFailed) {
            return false;
        }
        if (engines != null || !backgroundStart.compareAndSet(0, 1)) {
            return true;
        }
        Thread start = new Thread(new Runnable() {   // a class, not a lambda: none is bootstrapped for it
            @Override
            public void run() {
                try {
                    startedOrNull();
                } catch (IOException | RuntimeException e) {
                    // The next call that needs the engines starts them itself and reports the failure to its caller.
                    backgroundStartFailed = true;
                    System.getLogger(EngineRings.class.getName()).log(System.Logger.Level.WARNING,
                            "starting hpio's engines in the background failed: " + e.getMessage());
                }
            }
        }, "hpio-engine-start");
        start.setDaemon(true);
        try {
            start.start();
        } catch (RuntimeException | Error e) {   // no thread to be had: the calls start the engines themselves
            backgroundStartFailed = true;
            throw e;
        }
        return true;
    }

    /** The first engine if the engines are started, without starting them; else null. */
    IoEngine firstIfStarted() {
        IoEngine[] started = engines;
        return started == null ? null : started[0];
    }

    /** The first engine, of started rings: the one whose closing (the JVM's shutdown) makes new channels the JDK's. */
    IoEngine first() {
        IoEngine[] started = engines;
        if (started == null) {
            throw new IllegalStateException("the engines are not started");
        }
        return started[0];
    }

    /** Whether the calling thread retires completions of one of the engines now (see IoEngine#retiringOnThisThread). */
    boolean retiringOnThisThread() {
        IoEngine[] started = engines;
        if (started != null) {
            for (IoEngine engine : started) {
                if (engine.retiringOnThisThread()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Cancels {@code file}'s requests on every engine; how many were cancelled (none before the start). */
    int cancelAll(NativeFile file) {
        IoEngine[] started = engines;
        if (started == null) {
            return 0;
        }
        int cancelled = 0;
        for (IoEngine engine : started) {
            cancelled += engine.cancelAll(file);
        }
        return cancelled;
    }

    /**
     * The engines' kind ("uring" or "threads"): the first one's, which the others repeat; started now if need
     * be, or null when they cannot be had now.
     */
    String name() throws IOException {
        IoEngine[] started = startedOrNull();
        return started == null ? null : started[0].name();
    }

    /** The engines' kind if they are started, without starting them; else "not started". */
    String nameIfStarted() {
        IoEngine[] started = engines;
        return started == null ? "not started" : started[0].name();
    }
}
