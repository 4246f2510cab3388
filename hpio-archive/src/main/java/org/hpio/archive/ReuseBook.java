package org.hpio.archive;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@link ArchiveLoader}'s book of repeats: which positions of the list load a file again, which earlier
 * position's memory they share, and what that kept memory costs. A file loaded more than once is read (and
 * inflated, and checked) once while the loader can keep it: its first position becomes a holder, whose run the
 * loader keeps a reference to ({@link LoaderSlot.Hold}); once delivered, that run's memory counts in
 * {@link #keptBytes()}, and when memory runs short the holder whose next use is furthest away is dropped first
 * (Belady's rule, exact since the list is known). This is 002 §3.5's file cache for a load sequence known in
 * advance.
 *
 * <p>Guarded by the loader's lock; the reuse counts of a run ({@link ReadRun#loaderHolds},
 * {@link ReadRun#idleHolds}) are kept here too.
 */
final class ReuseBook {
    /** Each position's key ({@link LoaderSlot#key}). */
    private final String[] keys;
    /** For each position, the next one with the same key, or -1 (all -1 without reuse). */
    private final int[] nextUse;
    /** By key: the position whose memory later positions of that key reuse. */
    private final Map<String, LoaderSlot> holders = new HashMap<>();
    /** Delivered holders no admitted position reuses yet, by the position that will: the ones memory may drop. */
    private final TreeMap<Integer, LoaderSlot> idle = new TreeMap<>();
    /** Memory of the runs held for reuse after their holder's delivery, each run counted once. */
    private long keptBytes;
    /** The part of {@link #keptBytes} that dropping every idle holder would free (runs only idle holders keep). */
    private long freeableBytes;

    /** The book of {@code paths}; with {@code reuse} off, no position is ever reused. */
    ReuseBook(String[] paths, boolean reuse) {
        this.keys = Arrays.stream(paths).map(ReuseBook::key).toArray(String[]::new);
        this.nextUse = nextUses(keys, reuse);
    }

    /** The entry name {@code path} stands for; a path that names no entry is its own key (it fails to load). */
    private static String key(String path) {
        try {
            return EntryNames.of(path);
        } catch (IllegalArgumentException e) {
            return "\0" + path;
        }
    }

    /** For each position the next with the same key, or -1; all -1 when nothing is reused. */
    private static int[] nextUses(String[] keys, boolean reuse) {
        int[] next = new int[keys.length];
        Arrays.fill(next, -1);
        if (reuse) {
            Map<String, Integer> later = new HashMap<>();
            for (int i = keys.length - 1; i >= 0; i--) {
                Integer j = later.put(keys[i], i);
                next[i] = j == null ? -1 : j;
            }
        }
        return next;
    }

    /** Position {@code position}'s key. */
    String key(int position) {
        return keys[position];
    }

    /** Memory of the runs kept for reuse (delivered holders), each run counted once. */
    long keptBytes() {
        return keptBytes;
    }

    /** The part of {@link #keptBytes()} that dropping every idle holder would not free. */
    long pinnedBytes() {
        return keptBytes - freeableBytes;
    }

    /**
     * The position whose memory a new position with {@code key} can reuse, or null (one whose load failed, or was
     * not kept, is forgotten).
     */
    LoaderSlot reusable(String key) {
        LoaderSlot h = holders.get(key);
        if (h != null && h.isDone() && !h.isHolding()) {
            holders.remove(key);
            return null;
        }
        return h;
    }

    /** Admits {@code s} as a reuse of {@code from}'s memory: {@code from} is no longer idle, and kept until then. */
    void admitReuse(LoaderSlot s, LoaderSlot from) {
        s.reuse(from);
        LoaderSlot wasIdle = idle.remove(s.position);
        if (wasIdle != null) {
            count(wasIdle.run, 0, -1);
        }
        from.lastUse = s.position;
    }

    /** Admits {@code s}, which reads its own file: a holder when a later position loads the file again. */
    void admitReader(LoaderSlot s) {
        if (nextUse[s.position] >= 0) {
            s.hold = LoaderSlot.Hold.WANTED;
            holders.put(s.key, s);
        }
    }

    /**
     * Drops idle holders, the one needed again last first (Belady), while the kept bytes exceed {@code room}; a
     * holder whose run another, not idle, holder keeps is skipped, since dropping it frees nothing.
     */
    void dropFarthest(long room) {
        Iterator<LoaderSlot> farthestFirst = idle.descendingMap().values().iterator();
        while (keptBytes > room && farthestFirst.hasNext()) {
            LoaderSlot dropped = farthestFirst.next();
            if (dropped.run.idleHolds < dropped.run.loaderHolds) {
                continue;
            }
            farthestFirst.remove();
            count(dropped.run, 0, -1);
            release(dropped);
        }
    }

    /** After {@code s} loaded as {@code file}: a holder keeps a reference to its run for the later positions. */
    void hold(LoaderSlot s, LoadedFile file) {
        if (file != null && s.hold == LoaderSlot.Hold.WANTED && !s.standalone) {
            s.run.retain();
            s.hold = LoaderSlot.Hold.HELD;
            s.contents = file.segment();
        }
    }

    /**
     * Gives {@code head} (a reusing position) a view of its source's memory; null when the source holds none
     * (its load failed, was interrupted, or came from a fallback), and the caller loads the file by itself.
     */
    LoadedFile share(LoaderSlot head, BlockIo io) {
        LoaderSlot from = head.source;
        if (!from.isHolding()) {
            return null;
        }
        from.run.retain();
        io.countLoad(from.contents.byteSize());
        return new LoadedFile(from.entry.name(), from.contents, from.run::release);
    }

    /**
     * After delivering {@code head}: the memory it or its source holds for later positions starts counting
     * against the look-ahead's bytes, and is dropped, or becomes droppable, once no admitted position needs it.
     */
    void afterDelivery(LoaderSlot head) {
        LoaderSlot h = !head.readsItself() ? head.source : head.isHolder() ? head : null;
        if (h == null) {
            return;
        }
        if (h.hold == LoaderSlot.Hold.HELD) {
            h.hold = LoaderSlot.Hold.COUNTED;
            count(h.run, 1, 0);
        }
        if (h.lastUse == head.position) {
            int next = nextUse[head.position];
            if (h.isHolding() && next >= 0) {
                idle.put(next, h);
                count(h.run, 0, 1);
            } else {
                release(h);
            }
        }
    }

    /** Gives back every reference held (the loader closes). */
    void releaseAll() {
        for (LoaderSlot h : holders.values().toArray(LoaderSlot[]::new)) {
            release(h);
        }
        idle.clear();
    }

    /** Gives back the reference {@code h} holds for reuse; its later positions will read the file again. */
    private void release(LoaderSlot h) {
        holders.remove(h.key, h);
        if (h.isHolding()) {
            if (h.hold == LoaderSlot.Hold.COUNTED) {
                count(h.run, -1, 0);
            }
            h.hold = LoaderSlot.Hold.GIVEN_BACK;
            h.run.release();
        }
    }

    /**
     * Changes a run's counts of holders kept (delivered) and idle, keeping {@link #keptBytes} (runs with a kept
     * holder) and {@link #freeableBytes} (runs whose kept holders are all idle) in step.
     */
    private void count(ReadRun run, int kept, int idleHolders) {
        long size = run.memory.byteSize();
        boolean wasKept = run.loaderHolds > 0;
        boolean wasFreeable = wasKept && run.idleHolds == run.loaderHolds;
        run.loaderHolds += kept;
        run.idleHolds += idleHolders;
        boolean isKept = run.loaderHolds > 0;
        boolean isFreeable = isKept && run.idleHolds == run.loaderHolds;
        keptBytes += isKept == wasKept ? 0 : isKept ? size : -size;
        freeableBytes += isFreeable == wasFreeable ? 0 : isFreeable ? size : -size;
    }
}
