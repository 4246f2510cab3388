package org.hpio.nio;

import org.hpio.internal.io.IoEngine;

import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The executor that runs completion handlers of channels opened without one, one per engine: platform daemon
 * threads made on demand, idle ones leave after 60 s. Made on first use, never when the provider loads.
 *
 * <p>A proactor, as the JDK's Windows channel is (its group's threads wait on the completion port and run the
 * handlers), where the JDK on Linux runs a blocking call and then the handler on a pool thread (003): one
 * thread of the pool, the leader, waits for its engine's completions itself ({@link IoEngine#pollCompletions}),
 * and runs the handlers of those it retired before it waits again. A handler that starts the next operation
 * submits it from the same thread, whose wait then also takes that operation's completion: about one thread
 * wake-up per batch of completions, where a hand-off from the engine's completion thread to a pool costs two
 * per operation. Between its waits the leader is present for the engine ({@link IoEngine#pollerPresent}), so
 * the engine's completion thread stays out of the way.
 *
 * <p>Handlers may block. The other threads (followers) park; they run tasks that other threads hand over
 * (a completion retired by the engine's thread, a handler for an operation that needed no I/O). The
 * {@link Watchdog} looks every {@link #STALL_NANOS} while the pool is busy: a leader inside one task that long
 * loses the role (and its presence) to a follower, or a new thread; and when every thread has been inside a
 * task with tasks waiting and none finished, another thread starts (the JDK's cached pool starts one per
 * task, which also never leaves a task waiting behind a blocked one).
 *
 * <p>Thread-safe. Tasks run in no particular order across threads; a task that throws does not end its thread.
 */
final class DefaultHandlerPool implements Executor {
    private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** The longest one wait of an idle thread lasts before it looks at the queue again. */
    private static final long WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** How long a leader may stay in one task, and every thread be in tasks while tasks wait, before help comes. */
    static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final Map<IoEngine, DefaultHandlerPool> POOLS = new ConcurrentHashMap<>();
    private static final AtomicInteger NUMBER = new AtomicInteger();

    private final IoEngine engine;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /** Followers parked waiting for a task: the ones execute and the watchdog can wake. */
    private final Queue<Worker> parked = new ConcurrentLinkedQueue<>();
    /** The thread that waits for the engine's completions; null when none does (the engine's thread then serves). */
    private final AtomicReference<Worker> leader = new AtomicReference<>();
    /** Threads alive, and those running a task now. */
    private final AtomicInteger workers = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    /** Threads started that have not yet come to their first wait (each runs the queue before it waits). */
    private final AtomicInteger starting = new AtomicInteger();
    /** Tasks finished so far: the watchdog's sign of progress. */
    private final LongAdder finished = new LongAdder();
    /** {@link #finished} when the watchdog last looked (only the watchdog reads and writes it). */
    private long finishedSeen = -1;

    private DefaultHandlerPool(IoEngine engine) {
        this.engine = engine;
    }

    /** The pool of {@code engine}'s channels. */
    static DefaultHandlerPool of(IoEngine engine) {
        DefaultHandlerPool pool = POOLS.get(engine);
        if (pool == null) {
            POOLS.keySet().removeIf(IoEngine::isClosed);   // pools of closed engines (tests) are not kept
            pool = POOLS.computeIfAbsent(engine, DefaultHandlerPool::new);
        }
        return pool;
    }

    /**
     * Queues {@code task}. From a thread of this pool nothing more: it comes back to the queue when its current
     * task ends (the watchdog sees to it if that task blocks). From any other thread a parked follower is woken,
     * else a new thread started when the pool has none or its leader waits in the kernel (a follower is made
     * once and parked afterwards); a leader busy with tasks comes to the queue next.
     */
    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        if (Thread.currentThread() instanceof Worker w && w.pool == this) {
            return;
        }
        Worker follower = parked.poll();
        if (follower != null) {
            LockSupport.unpark(follower);
            return;
        }
        Worker lead = leader.get();
        if (workers.get() == 0 || lead != null && lead.taskStarted == 0 && starting.get() == 0) {
            startWorker();
        }
    }

    private void startWorker() {
        workers.incrementAndGet();
        starting.incrementAndGet();
        new Worker(this).start();
    }

    /** The calling worker leads if it does, or if nobody does and it takes the role (and the presence). */
    private boolean lead(Worker me) {
        if (leader.get() == me) {
            return true;
        }
        if (engine.isClosed() || !leader.compareAndSet(null, me)) {
            return false;
        }
        engine.pollerPresent(true);
        return true;
    }

    /** Ends {@code from}'s leadership (by itself, idle, or by the watchdog); true if this call ended it. */
    private boolean abdicate(Worker from) {
        if (leader.compareAndSet(from, null)) {
            engine.pollerPresent(false);
            return true;
        }
        return false;
    }

    /** A thread of the pool: runs queued tasks; when there are none, leads (waits for completions) or parks. */
    private static final class Worker extends Thread {
        private final DefaultHandlerPool pool;
        /** System.nanoTime() when the running task started; 0 between tasks (only this thread writes it). */
        volatile long taskStarted;

        Worker(DefaultHandlerPool pool) {
            super(null, null, "hpio-nio-handler-" + NUMBER.incrementAndGet(), 0, false);
            this.pool = pool;
            setDaemon(true);
            // Not the class loader of whichever thread needed a worker (it would stay reachable from a shared
            // thread): the system's, as the JDK's default pool threads have.
            setContextClassLoader(ClassLoader.getSystemClassLoader());
        }

        @Override
        public void run() {
            long idleSince = System.nanoTime();
            boolean started = true;
            try {
                while (true) {
                    Runnable task = pool.tasks.poll();
                    if (task != null) {
                        runTask(task);
                        idleSince = System.nanoTime();
                        continue;
                    }
                    if (started) {
                        started = false;
                        pool.starting.decrementAndGet();
                    }
                    if ((pool.engine.isClosed() || System.nanoTime() - idleSince > IDLE_NANOS) && pool.retire()) {
                        return;
                    } else if (pool.lead(this)) {
                        pool.poll();
                    } else {
                        pool.park(this);
                    }
                }
            } finally {
                if (started) {
                    pool.starting.decrementAndGet();
                }
                pool.abdicate(this);
            }
        }

        private void runTask(Runnable task) {
            taskStarted = Math.max(1, System.nanoTime());
            pool.running.incrementAndGet();
            Watchdog.watch(pool);
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                reportUncaught(e);
            } finally {
                Thread.interrupted();   // a handler's interrupt is not the next one's (the JDK's Invoker clears it)
                pool.finished.increment();
                pool.running.decrementAndGet();
                taskStarted = 0;
            }
        }

        /**
         * A handler's own failure goes where the JDK's pool threads send it, this thread's uncaught-exception
         * handler (by default the default handler, or a stack trace on standard error), and the thread carries
         * on with the next task.
         */
        private void reportUncaught(Throwable e) {
            try {
                getUncaughtExceptionHandler().uncaughtException(this, e);
            } catch (RuntimeException | Error ignored) {
                // as the JVM ignores an exception thrown by an uncaught-exception handler
            }
        }
    }

    /** An idle thread leaves, unless tasks came meanwhile and nobody else is free; true when it left. */
    private boolean retire() {
        workers.decrementAndGet();
        if (!tasks.isEmpty() && running.get() >= workers.get()) {
            workers.incrementAndGet();
            return false;
        }
        return true;
    }

    /** The leader's wait: for the engine's completions, whose handlers come back to this queue (at most WAIT_NANOS). */
    private void poll() {
        try {
            if (engine.pollCompletions(() -> !tasks.isEmpty(), WAIT_NANOS, () -> { })) {
                return;
            }
        } catch (RuntimeException e) {
            // The engine closed while this thread polled (JVM exit): the loop sees it.
        }
        LockSupport.parkNanos(this, WAIT_NANOS);   // an engine whose completions come by themselves (portable)
    }

    /** A follower's wait, until execute or the watchdog wakes it (at most WAIT_NANOS). */
    private void park(Worker me) {
        parked.add(me);
        if (tasks.isEmpty()) {
            LockSupport.parkNanos(this, WAIT_NANOS);
        }
        parked.remove(me);
    }

    /**
     * For the watchdog: takes the role from a leader inside one task for {@link #STALL_NANOS} and hands it to a
     * follower (or a new thread); starts a thread when tasks wait, every thread is in a task and none finished
     * since the last look. Returns whether to keep watching (a task is running or waiting).
     */
    private boolean checkStall() {
        long now = System.nanoTime();
        Worker lead = leader.get();
        long started = lead == null ? 0 : lead.taskStarted;
        if (started != 0 && now - started > STALL_NANOS && abdicate(lead)) {
            Worker follower = parked.poll();
            if (follower != null) {
                LockSupport.unpark(follower);
            } else {
                startWorker();
            }
        }
        long done = finished.sum();
        if (!tasks.isEmpty() && running.get() >= workers.get() && done == finishedSeen) {
            startWorker();
        }
        finishedSeen = done;
        return running.get() > 0 || !tasks.isEmpty();
    }

    /**
     * One daemon thread for every pool, started the first time a pool runs a task; it looks at each busy pool
     * every {@link #STALL_NANOS} and parks while none is busy.
     */
    private static final class Watchdog {
        private static final Set<DefaultHandlerPool> WATCHED = ConcurrentHashMap.newKeySet();
        private static volatile Thread thread;

        static void watch(DefaultHandlerPool pool) {
            if (!WATCHED.contains(pool) && WATCHED.add(pool)) {
                Thread t = thread;
                LockSupport.unpark(t != null ? t : start());
            }
        }

        private static synchronized Thread start() {
            if (thread == null) {
                thread = Thread.ofPlatform().daemon().name("hpio-nio-handler-watchdog").start(Watchdog::loop);
            }
            return thread;
        }

        private static void loop() {
            while (true) {
                if (WATCHED.isEmpty()) {
                    LockSupport.park(Watchdog.class);
                    continue;
                }
                LockSupport.parkNanos(Watchdog.class, STALL_NANOS);
                for (DefaultHandlerPool pool : WATCHED) {
                    if (!pool.checkStall()) {
                        WATCHED.remove(pool);
                        if (pool.running.get() > 0 || !pool.tasks.isEmpty()) {   // it got busy meanwhile
                            WATCHED.add(pool);
                        }
                    }
                }
            }
        }
    }
}
