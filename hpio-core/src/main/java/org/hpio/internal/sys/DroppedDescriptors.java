package org.hpio.internal.sys;

import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Closes the descriptors whose owners (a channel, a file) were dropped unclosed ({@link NativeFile#closeWhenUnreachable}),
 * as the JDK's channels close theirs, without a thread of hpio's and without leaving the collector anything to
 * process for an owner that was closed.
 *
 * <p>Each owner's handle is watched by a phantom reference of its own ({@link Registration}) on one queue; the
 * owner's close takes it out ({@link Registration#unregister}), so a closed owner's reference is plain garbage.
 * The queue is drained at each new registration (as {@code WeakHashMap} expunges stale entries), and after each
 * collection while any registration is live: an automatic arena that nothing refers to is made once per
 * collection, and its cleanup, which the JDK's own cleaner thread runs once a collection found the arena
 * unreachable, drains the queue and makes the next one ({@link AfterCollection}). A collection may find the
 * arena before the owners it found are queued; those wait for the next collection's drain.
 *
 * <p>Why not the alternatives (session 31): an automatic arena per owner (session 30) left every channel
 * registered with the JDK's cleaner until a collection processed it, which cost a virtual thread reading 1 KiB
 * files with {@code Files.readAllBytes} 7% of the process's CPU in the collector; a {@code Cleaner} of hpio's
 * needs a thread, and one whose thread is virtual still cost an OS thread, the scheduler adding a carrier for
 * it while it waits in the reference queue's timed {@code Object.wait} (JDK 25); {@code bench nio}'s (c)
 * bounds the OS threads of the process.
 */
final class DroppedDescriptors {
    private static final ReferenceQueue<Object> DROPPED = new ReferenceQueue<>();
    /** The registrations neither closed nor drained: keeps each reference reachable until then. */
    private static final Set<Registration> LIVE = ConcurrentHashMap.newKeySet();
    /**
     * 1 while an arena of {@link #watchNextCollection} waits for a collection. The flags here are
     * {@code AtomicInteger}s, 0 or 1: an {@code AtomicBoolean}'s first use initializes the JDK's variable handles,
     * 2-3 ms of a cold JVM's first channel (DESIGN, "First calls").
     */
    private static final AtomicInteger WATCHING = new AtomicInteger();
    private static final Consumer<MemorySegment> AFTER_COLLECTION = new AfterCollection();
    /** Whether {@link #register} may arm the watch: see {@link #allowWatch}. */
    private static volatile boolean watchAllowed;

    private DroppedDescriptors() {
    }

    /**
     * Watches {@code owner}: once it is collected, {@code descriptor} is closed unless {@code done} was set
     * (the owner's own close sets it and then calls {@link Registration#unregister}). {@code nativeCallsMade}:
     * the descriptor is one hpio opened, so the Foreign Function API is in use and the watch may be armed (see
     * {@link #allowWatch}).
     */
    static Registration register(Object owner, Closeable descriptor, AtomicInteger done, boolean nativeCallsMade) {
        closeDropped();
        Registration registration = new Registration(owner, descriptor, done);
        LIVE.add(registration);
        if (nativeCallsMade && !watchAllowed) {   // written once, not by every open
            watchAllowed = true;
        }
        if (watchAllowed) {   // read after the add: allowWatch sets it, then looks at LIVE
            watchNextCollection();
        }
        return registration;
    }

    /**
     * From now on, the watch after each collection is armed whenever any registration is live (and now, if one
     * is). Until then only registrations of descriptors hpio has opened arm it: the watch's arena is the
     * Foreign Function API's, which a registration made before hpio's native calls are ready must not start
     * (see {@link NativeFile.DescriptorCloser#forDescriptorNotOpenedYet}).
     */
    static void allowWatch() {
        watchAllowed = true;
        if (!LIVE.isEmpty()) {   // read after the write: a register that missed it has added to LIVE first
            watchNextCollection();
        }
    }

    /** Closes the descriptors of the owners collections found dropped so far. */
    static void closeDropped() {
        Reference<?> dropped;
        while ((dropped = DROPPED.poll()) != null) {
            ((Registration) dropped).closeDropped();
        }
    }

    /** Whether an arena of {@link #watchNextCollection} waits for a collection now (for tests). */
    static boolean watching() {
        return WATCHING.get() != 0;
    }

    /**
     * For tests: as before any native call, the watch not allowed and not pending (an arena still pending then
     * drains once more when it is collected: harmless).
     */
    static void resetWatchForTests() {
        watchAllowed = false;
        WATCHING.set(0);
    }

    /** How many owners are watched now (for tests). */
    static int live() {
        return LIVE.size();
    }

    private static void watchNextCollection() {
        if (WATCHING.get() == 0 && WATCHING.compareAndSet(0, 1)) {
            try {
                MemorySegment.NULL.reinterpret(0, Arena.ofAuto(), AFTER_COLLECTION);   // the arena: referred to by nothing
            } catch (RuntimeException | Error e) {
                WATCHING.set(0);   // no watch is pending: the next registration arms one
                throw e;
            }
        }
    }

    /** The cleanup of {@link #watchNextCollection}'s arena, on the JDK's cleaner thread (a class: no lambda to bootstrap). */
    private static final class AfterCollection implements Consumer<MemorySegment> {
        @Override
        public void accept(MemorySegment unused) {
            WATCHING.set(0);
            try {
                closeDropped();
            } finally {
                if (!LIVE.isEmpty()) {
                    watchNextCollection();
                }
            }
        }
    }

    /** One owner's watch: refers to its descriptor and once-flag, never to the owner. */
    static final class Registration extends PhantomReference<Object> {
        /** Spreads the registrations' hash codes (the golden ratio's increment, as ThreadLocal's). */
        private static final AtomicInteger NEXT_HASH = new AtomicInteger();
        private final Closeable descriptor;
        private final AtomicInteger done;
        private final int hash = NEXT_HASH.getAndAdd(0x61c88647);

        private Registration(Object owner, Closeable descriptor, AtomicInteger done) {
            super(owner, DROPPED);
            this.descriptor = descriptor;
            this.done = done;
        }

        /**
         * A hash of its own for {@link #LIVE}: an object's first identity hash is a call into the JVM that
         * stores it in the object's header, a measurable part of a 1 KiB file's open and close.
         */
        @Override
        public int hashCode() {
            return hash;
        }

        /** Identity, as {@link Object#equals} (the hash above changes nothing of that). */
        @Override
        public boolean equals(Object other) {
            return this == other;
        }

        /** At the owner's close: no longer watched, nothing left for the collector. */
        void unregister() {
            LIVE.remove(this);
            clear();
        }

        private void closeDropped() {
            LIVE.remove(this);
            closeLogged(descriptor, done);
        }
    }

    /** Closes {@code descriptor} unless {@code done} was set (and sets it); a failure is logged (DEBUG). */
    static void closeLogged(Closeable descriptor, AtomicInteger done) {
        if (!done.compareAndSet(0, 1)) {
            return;
        }
        try {
            descriptor.close();
        } catch (IOException | RuntimeException e) {   // never the failure of whoever drains: it is logged
            System.getLogger(NativeFile.class.getName()).log(System.Logger.Level.DEBUG,
                    "closing " + descriptor + ": " + e);
        }
    }
}
