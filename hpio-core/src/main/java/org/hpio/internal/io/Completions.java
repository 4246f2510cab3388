package org.hpio.internal.io;

import java.util.function.BooleanSupplier;

/**
 * How a thread that waits for requests gets their completions retired: the engine's side of
 * {@link IoRequest#await} and {@link IoRequests}. The thread-pool engine's workers complete requests by
 * themselves, so a waiter just parks; on the io_uring engine a waiting platform thread reaps the completion
 * ring itself (no hand-off through another thread), and the engine's completion thread serves only those
 * who cannot: listeners and parked (for example virtual) threads.
 */
interface Completions {
    /** Retires the completions already posted, if no other thread is at it; never blocks. */
    default void reapAvailable() {
    }

    /**
     * Lets the calling thread wait inside the engine for at most {@code nanos} until some completion was
     * retired (or {@code satisfied} holds). Returns false when this thread should park instead (the caller
     * then brackets its park with {@link #parking}). {@code beforeParking} runs before the thread parks here
     * as a standby, so that the completions it waits for unpark it (a thread that polls needs no such
     * registration: it retires them itself).
     */
    default boolean pollFor(BooleanSupplier satisfied, long nanos, Runnable beforeParking) {
        return false;
    }

    /**
     * A thread that polls this engine regularly (see {@link IoEngine#pollerPresent}) starts ({@code true}) or
     * stops being present between its polls: while any is, the completion thread leaves the completions to it.
     */
    default void pollerPresence(boolean present) {
    }

    /** A waiter starts ({@code true}) or stops parking: while any parks, someone must retire completions. */
    default void parking(boolean start) {
    }

    /**
     * Queued jobs were made live for threads that wait for them and may have parked already, perhaps while
     * nothing was live (so nobody needed to retire completions then): someone must now.
     */
    default void queuedJobsAdmitted() {
    }

    /** A listener was set on a request still in flight ({@code true}), or ran ({@code false}). */
    default void listener(boolean added) {
    }

    /**
     * What {@code waiter} waits for may have come without a completion being posted: a place or staging bytes
     * handed to it, a queued request cancelled ({@code null}: whichever thread waits for it). Unparking reaches
     * a parked thread; an engine whose waiting threads sleep in the kernel ({@link #pollFor}) wakes the one that
     * does, if it may be {@code waiter}.
     */
    default void waitEndedOffRing(Thread waiter) {
    }

    /** For requests made outside an engine (tests): completed by whoever calls complete. */
    Completions NONE = new Completions() { };
}
