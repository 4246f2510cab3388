package org.hpio.bulk;

import org.hpio.internal.array.ArrayKind;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * A read the kernel copies straight into the array: one critical {@code pread} per
 * {@link Syscalls#CRITICAL_CHUNK} bytes with the array's heap segment, no staging; in a foreign byte order the
 * elements are then swapped in place, while they are still in the cache. The path of every read before issue 16,
 * now kept for transfers below {@link FileTransfer#DIRECT_MAX} (not booleans, whose bytes are not their memory
 * form): there the call's fixed cost dominates and a staging copy did not pay (a small array's elements may well
 * be cache-line aligned, which is what the kernel's copy wants; see {@link FileTransfer}). Nothing is borrowed
 * but the array, for the duration of each call. Thread-safe.
 */
final class DirectRead {
    private DirectRead() {
    }

    /** Reads {@code count} elements at {@code position}; stops early, with an EOFException, if the file ends. */
    static void read(NativeFile file, long position, ArrayKind kind, Object array, int offset, int count,
                     ByteOrder order) throws IOException {
        long bytes = kind.byteSize(count);
        MemorySegment target = kind.heapSegment(array).asSlice(kind.byteSize(offset), bytes);
        boolean swap = !kind.isMemoryForm(order);
        for (long done = 0; done < bytes; ) {
            MemorySegment chunk = target.asSlice(done, Math.min(Syscalls.CRITICAL_CHUNK, bytes - done));
            long got = FileTransfer.readUpTo(file, chunk, position + done);
            if (swap) {
                kind.swapInPlace(chunk, order, (int) (got / kind.elementSize()));
            }
            done += got;
            if (got < chunk.byteSize()) {
                throw FileTransfer.shrunk(file, position, kind, done / kind.elementSize(), count);
            }
        }
    }
}
