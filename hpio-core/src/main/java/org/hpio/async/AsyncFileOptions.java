package org.hpio.async;

import java.nio.ByteOrder;
import java.util.Objects;

/**
 * How an {@link AsyncFile} is opened and bounded, beyond its mode.
 *
 * @param direct      O_DIRECT: the page cache is bypassed; positions and lengths must be multiples of the
 *                    file's direct-I/O alignment (from statx), else initiation throws an IOException naming it
 * @param dsync       O_DSYNC: each write is durable (data) when it completes
 * @param sync        O_SYNC: each write is durable (data and metadata) when it completes
 * @param maxInFlight requests of this file in flight at once; at the bound, initiation waits (or fails fast)
 * @param failFast    at this file's bound ({@code maxInFlight}), initiation throws an IOException at once
 *                    instead of waiting; the shared engine's bounds (requests, staging bytes) serve every file
 *                    of the JVM and are waited for (see AsyncFile, Bounds)
 * @param order       byte order of array elements in the file: big-endian (what DataOutputStream and
 *                    BulkDataOutputStream write) by default, or native order, which copies without swapping
 * @param offloadCopies whether a large buffered transfer's page-cache copy may go to a kernel worker, so that it
 *                    overlaps the initiating thread's work (io_uring's IOSQE_ASYNC for 128 KiB or more, when
 *                    there is a second core; the default). Turn it off where the program's own threads keep
 *                    every core busy: the worker then only takes a core from them (hpio's look-ahead loader,
 *                    with a decode worker per other core: its cold python-trace replay 4 % faster without, see
 *                    DESIGN). A hint: the portable engine's pool threads do every transfer whichever way it is
 *                    set, and O_DIRECT transfers never copy
 */
public record AsyncFileOptions(boolean direct, boolean dsync, boolean sync, int maxInFlight, boolean failFast,
                               ByteOrder order, boolean offloadCopies) {
    public static final int DEFAULT_MAX_IN_FLIGHT = 64;

    public AsyncFileOptions {
        Objects.requireNonNull(order, "order");
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1: " + maxInFlight);
        }
    }

    /**
     * Buffered, no sync, {@value #DEFAULT_MAX_IN_FLIGHT} requests in flight, waiting at the bound, big-endian,
     * large copies offloaded.
     */
    public static AsyncFileOptions defaults() {
        return new AsyncFileOptions(false, false, false, DEFAULT_MAX_IN_FLIGHT, false, ByteOrder.BIG_ENDIAN, true);
    }

    public AsyncFileOptions withDirect(boolean on) {
        return new AsyncFileOptions(on, dsync, sync, maxInFlight, failFast, order, offloadCopies);
    }

    public AsyncFileOptions withDsync(boolean on) {
        return new AsyncFileOptions(direct, on, sync, maxInFlight, failFast, order, offloadCopies);
    }

    public AsyncFileOptions withSync(boolean on) {
        return new AsyncFileOptions(direct, dsync, on, maxInFlight, failFast, order, offloadCopies);
    }

    public AsyncFileOptions withMaxInFlight(int requests) {
        return new AsyncFileOptions(direct, dsync, sync, requests, failFast, order, offloadCopies);
    }

    public AsyncFileOptions withFailFast(boolean on) {
        return new AsyncFileOptions(direct, dsync, sync, maxInFlight, on, order, offloadCopies);
    }

    public AsyncFileOptions withOrder(ByteOrder byteOrder) {
        return new AsyncFileOptions(direct, dsync, sync, maxInFlight, failFast, byteOrder, offloadCopies);
    }

    public AsyncFileOptions withOffloadCopies(boolean on) {
        return new AsyncFileOptions(direct, dsync, sync, maxInFlight, failFast, order, on);
    }
}
