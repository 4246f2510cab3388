package org.hpio.nio;

/**
 * The names that a plain read-only open found, by its {@code statx} of the name, to be regular files the engine
 * serves, each with the device it was on: a bounded and lossy memory ({@value #SLOTS} slots, one per hash, the
 * latest name in a slot wins), so that opening such a name again ({@code Files.readAllBytes} of the same files
 * over and over) can skip that {@code statx} and check the type by the descriptor instead, within a call the
 * channel makes anyway ({@link LateDescriptor#unchecked}). A name here is a hint, never trusted: what the open
 * finds is checked before any call uses it.
 *
 * <p>Thread-safe without locks: the slots hold immutable entries, whose final fields make a racy read safe; a
 * lost write only costs the next open of that name its {@code statx}.
 */
final class RegularFileNames {
    /** What {@link #deviceOf} answers for a name not remembered. */
    static final long UNKNOWN = Long.MIN_VALUE;
    private static final int SLOTS = 1024;

    private record Entry(String name, long dev) {
    }

    private static final Entry[] TABLE = new Entry[SLOTS];

    private RegularFileNames() {
    }

    /** The device {@code name} was remembered on ({@code Statx.dev()}), or {@link #UNKNOWN}. */
    static long deviceOf(String name) {
        Entry e = TABLE[slot(name)];
        return e != null && e.name.equals(name) ? e.dev : UNKNOWN;
    }

    /** Remembers that {@code name} is a regular file the engine serves, on device {@code dev}. */
    static void remember(String name, long dev) {
        TABLE[slot(name)] = new Entry(name, dev);
    }

    /** Forgets {@code name} (what its open found was not what was remembered). */
    static void forget(String name) {
        int slot = slot(name);
        Entry e = TABLE[slot];
        if (e != null && e.name.equals(name)) {
            TABLE[slot] = null;
        }
    }

    private static int slot(String name) {
        int h = name.hashCode();
        return (h ^ h >>> 16) & (SLOTS - 1);
    }
}
