package org.hpio.archive;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * One position of an {@link ArchiveLoader}'s list, from its admission into the window to its delivery. Two
 * state machines run on it: its decoding ({@link State}: waiting, decoding, done) and, for a position whose file
 * the list loads again, the reference the loader keeps for the later positions ({@link Hold}, kept by the
 * {@link ReuseBook}). Fields are guarded by the loader's lock, except while the thread that claimed the slot
 * decodes it.
 */
final class LoaderSlot {
    /** Where the slot's decoding is. */
    enum State {
        /** Admitted (its reads queued or in flight): a worker or the caller may claim it. */
        WAITING,
        /** Claimed: one thread reads (if needed) and decodes it. */
        DECODING,
        /** Its file or its failure is set (or it shares an earlier position's memory): ready to deliver. */
        DONE
    }

    /** The loader's reference to the slot's run, for later positions of the same file. */
    enum Hold {
        /** No later position loads this file (or nothing is reused). */
        NONE,
        /** Later positions will reuse it once it is loaded (it stays so if its load fails: then they read again). */
        WANTED,
        /** Loaded: the loader holds a reference to its run. */
        HELD,
        /** Held, and delivered: the run's memory counts in the loader's kept bytes. */
        COUNTED,
        /** Given back (dropped, needed no more, or the loader closed); later positions read the file again. */
        GIVEN_BACK
    }

    final String path;
    /** The entry name the path stands for (what repeats are matched by). */
    final String key;
    final int position;
    State state = State.WAITING;
    Hold hold = Hold.NONE;
    ArchiveEntry entry;
    ReadRun run;
    /** Bytes the slot takes of the window: its read and its decoded contents. */
    long cost;
    /** Where in its run's memory a compressed entry's contents go; -1 for a stored entry. */
    long outputOffset = -1;
    LoadedFile file;
    IOException failure;
    /** The earlier position whose memory this one reuses (it reads nothing itself), or null. */
    LoaderSlot source;
    /** The last admitted position that reuses this one's memory (its own position at first). */
    int lastUse;
    /** The checked contents, read-only, for the positions that reuse them. */
    MemorySegment contents;
    /** Loaded by a read of its own after its run's read failed: its memory is not the run's. */
    boolean standalone;

    LoaderSlot(String path, String key, int position) {
        this.path = path;
        this.key = key;
        this.position = position;
        this.lastUse = position;
    }

    /** A slot for loading {@code like}'s entry in a read of its own. */
    static LoaderSlot standaloneLike(LoaderSlot like) {
        LoaderSlot alone = new LoaderSlot(like.path, like.key, like.position);
        alone.entry = like.entry;
        alone.standalone = true;
        return alone;
    }

    /** Takes the slot for decoding; false when another thread has it or it needs no decoding. */
    boolean claim() {
        if (state != State.WAITING) {
            return false;
        }
        state = State.DECODING;
        return true;
    }

    /** The slot's load ended, with {@code file} or {@code failure}. */
    void finish(LoadedFile loaded, IOException failed) {
        file = loaded;
        failure = failed;
        state = State.DONE;
    }

    /** This position shares {@code earlier}'s memory: nothing to read or decode. */
    void reuse(LoaderSlot earlier) {
        source = earlier;
        entry = earlier.entry;
        state = State.DONE;
    }

    boolean isDone() {
        return state == State.DONE;
    }

    /** Whether the slot reads its own file (it does not reuse an earlier position's memory). */
    boolean readsItself() {
        return source == null;
    }

    /** Whether later positions reuse (or were to reuse) this one's memory. */
    boolean isHolder() {
        return hold != Hold.NONE;
    }

    /** Whether the loader holds a reference to this slot's run for later positions. */
    boolean isHolding() {
        return hold == Hold.HELD || hold == Hold.COUNTED;
    }

    /** Whether a worker should take it: waiting, and compressed (a stored entry's check is left to the caller). */
    boolean worthHandingOver() {
        return state == State.WAITING && entry != null && entry.method() != ZipFormat.STORED;
    }
}
