package org.hpio.archive.simulation;

/**
 * A whole-file cache as a simulation sees it: which loads it would serve from memory. One simulation replays
 * one sequence of loads; it holds names and sizes only, never data. Not thread-safe.
 */
public interface FileCacheSimulation {
    /**
     * The program loads the whole file {@code path} of {@code size} bytes: returns {@code true} when the cache
     * holds it (no I/O), else {@code false} after the file was read and, if the policy keeps it, inserted.
     */
    boolean load(String path, long size);

    /** The program released the buffer a load of {@code path} returned (policies that pin in-use files care). */
    default void free(String path, long size) {
    }
}
