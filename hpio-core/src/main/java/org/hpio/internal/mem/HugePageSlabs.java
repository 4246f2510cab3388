package org.hpio.internal.mem;

import org.hpio.internal.sys.VirtualMemory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Buffers of one size carved from 2 MiB slabs that the kernel is asked to back with a transparent huge page
 * ({@link VirtualMemory#reserveHugePage}), for the size classes from {@link #MIN_BUFFER} to a slab: a buffer in
 * one physically contiguous page reaches a device as one segment. Measured with a C harness on the project's
 * virtio disk (AMD EPYC), O_DIRECT reads into huge-page memory against 4 KiB pages: 64 KiB 1.33x at one in flight
 * and 1.7x at sixteen, 256 KiB 2.0x, 1 MiB 2.5x; 4 KiB the same (one page either way); through hpio's
 * channel, 2,000 virtual threads' 64 KiB reads into heap buffers 1.6x. Unmeasured on other devices (NVMe).
 *
 * <p>Lifetime: each slab lives in an automatic arena; a carved buffer is a slice of it, so the slab is unmapped
 * once the collector finds neither it nor any of its buffers reachable (as a pooled buffer from
 * {@code Arena.ofAuto()} is freed). A slab stays while any one of its buffers does: at most {@code 2 MiB /
 * size} buffers share one, so this suits short-lived buffers (staging), not memory a caller may keep for long.
 * Carved memory starts zeroed, as the kernel hands it out; pools never promise that. Thread-safe.
 */
final class HugePageSlabs {
    /** The smallest buffer carved from slabs: below it a 4 KiB page holds most of a buffer anyway. */
    static final long MIN_BUFFER = 64 << 10;
    static final long SLAB = VirtualMemory.HUGE_PAGE_BYTES;
    /**
     * Whether carving is worth it here: the kernel backs advised memory with huge pages, and
     * {@code -Dhpio.memory.hugePages=false} does not turn the slabs off (every buffer then an allocation of its own).
     */
    private static final boolean AVAILABLE = VirtualMemory.hugePagesForIo();

    private final long bufferBytes;
    private MemorySegment slab;   // guarded by this
    private long next;            // guarded by this

    private HugePageSlabs(long bufferBytes) {
        this.bufferBytes = bufferBytes;
    }

    /** Slabs for buffers of {@code bufferBytes}, or null where they do not apply (size, or no huge pages here). */
    static HugePageSlabs forBuffersOf(long bufferBytes) {
        return AVAILABLE && applies(bufferBytes) ? new HugePageSlabs(bufferBytes) : null;
    }

    /** Whether buffers of {@code bufferBytes} are carved from slabs where huge pages are available. */
    static boolean applies(long bufferBytes) {
        return bufferBytes >= MIN_BUFFER && bufferBytes <= SLAB && SLAB % bufferBytes == 0;
    }

    /** A new buffer of this size, 4 KiB aligned; from an ordinary allocation when no slab can be mapped. */
    synchronized MemorySegment carve() {
        if (slab == null || next == SLAB) {
            try {
                slab = VirtualMemory.reserveHugePage(Arena.ofAuto());
            } catch (IOException e) {   // ENOMEM for address space: the ordinary way still works
                slab = null;
                return Arena.ofAuto().allocate(bufferBytes, MemoryPool.ALIGNMENT);
            }
            next = 0;
        }
        MemorySegment buffer = slab.asSlice(next, bufferBytes);
        next += bufferBytes;
        return buffer;
    }
}
