package org.hpio.archive.cache;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.Consumer;

/**
 * The extant list of 002 §3.5.2: the buffers handed out to users and not yet released, with the address and size
 * that the headerless allocator needs to take a region back.
 *
 * <p>Memory returns to its owner (the {@code free} action given at {@link #hand}) only when no user holds it and
 * the cache has let it go ({@link #letGo}); whichever happens last frees it. A buffer may be held by several
 * users at once (they share one read-only view). A release of a buffer that is not held (released twice, or
 * never handed out) is refused with a clear error. A user is a thread: one holding more than
 * {@code warnThreshold} buffers at once gets one warning (the paper expects each buffer released before the next
 * is loaded). Not thread-safe: the {@link FileCache}'s lock guards it.
 */
final class ExtantList {
    /** One handed-out buffer. */
    private static final class Extant {
        final String path;
        final MemorySegment memory;
        final Consumer<MemorySegment> free;
        final List<Thread> holders = new ArrayList<>(2);
        boolean cached;

        Extant(String path, MemorySegment memory, boolean cached, Consumer<MemorySegment> free) {
            this.path = path;
            this.memory = memory;
            this.cached = cached;
            this.free = free;
        }
    }

    private final Map<Long, Extant> byAddress = new HashMap<>();
    private final Map<Thread, Integer> heldByThread = new HashMap<>();
    private final Set<Thread> warned = Collections.newSetFromMap(new WeakHashMap<>());
    private final int warnThreshold;
    private final Consumer<String> warnings;
    private int holds;

    ExtantList(int warnThreshold, Consumer<String> warnings) {
        this.warnThreshold = warnThreshold;
        this.warnings = warnings;
    }

    /**
     * Hands {@code memory} (the file {@code path}) to the calling thread and returns the read-only view the user
     * gets. {@code cached}: the cache keeps it too; {@code free} gives the memory back when neither holds it.
     */
    MemorySegment hand(String path, MemorySegment memory, boolean cached, Consumer<MemorySegment> free) {
        Extant e = byAddress.computeIfAbsent(memory.address(), a -> new Extant(path, memory, cached, free));
        Thread user = Thread.currentThread();
        e.holders.add(user);
        holds++;
        int n = heldByThread.merge(user, 1, Integer::sum);
        if (n > warnThreshold && warned.add(user)) {
            warnings.accept("thread '" + user.getName() + "' holds " + n + " file buffers at once (more than "
                    + warnThreshold + "; the latest is '" + path + "'): release each buffer when done with it, or "
                    + "cached memory cannot be reused (002 §3.5.2). Warned once per thread.");
        }
        return memory.asReadOnly();
    }

    /**
     * The user is done with {@code view}. Frees the memory if the cache has let it go and no one else holds it.
     *
     * @throws IllegalArgumentException if {@code view} is not a held buffer (nothing changes)
     */
    void release(MemorySegment view) {
        Extant e = byAddress.get(view.address());
        if (e == null || e.memory.byteSize() != view.byteSize()) {
            throw new IllegalArgumentException("release: segment 0x" + Long.toHexString(view.address()) + " of "
                    + view.byteSize() + " bytes is not a buffer held from this cache (released already, or never "
                    + "handed out by it)");
        }
        Thread user = Thread.currentThread();
        Thread holder = e.holders.remove(user) ? user : e.holders.removeFirst();
        holds--;
        heldByThread.computeIfPresent(holder, (t, n) -> n == 1 ? null : n - 1);
        if (e.holders.isEmpty()) {
            byAddress.remove(view.address());
            if (!e.cached) {
                e.free.accept(e.memory);
            }
        }
    }

    /**
     * The cache evicts {@code memory}: returns true if no user holds it (the caller frees it now); otherwise it
     * is freed at its last release.
     */
    boolean letGo(MemorySegment memory) {
        Extant e = byAddress.get(memory.address());
        if (e == null) {
            return true;
        }
        e.cached = false;
        return false;
    }

    /** True if a user holds a buffer at {@code memory}'s address. */
    boolean isHeld(MemorySegment memory) {
        return byAddress.containsKey(memory.address());
    }

    /** Holds outstanding, over all buffers and users. */
    int holds() {
        return holds;
    }

    /** Distinct buffers held. */
    int buffers() {
        return byAddress.size();
    }
}
