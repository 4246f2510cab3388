package org.hpio.bulk;

import org.hpio.internal.array.ArrayKind;
import org.hpio.internal.sys.NativeFile;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * A read the kernel copies straight into the array: one critical {@code pread} per
 * {@link org.hpio.internal.sys.Syscalls#CRITICAL_CHUNK} bytes with the array's heap segment, no staging. Only
 * where the array's memory is the file's byte form (native order, not booleans) and only for transfers below
 * {@link FileTransfer#DIRECT_MAX}: there the call's fixed cost dominates and a staging copy did not pay (a small
 * array's elements may well be cache-line aligned, which is what the kernel's copy wants; see {@link FileTransfer}).
 * Nothing is borrowed but the array, for the duration of each call. Thread-safe.
 */
final class DirectRead {
    private DirectRead() {
    }

    /** Reads {@code count} elements at {@code position}; stops early, with an EOFException, if the file ends. */
    static void read(NativeFile file, long position, ArrayKind kind, Object array, int offset, int count)
            throws IOException {
        long bytes = kind.byteSize(count);
        MemorySegment target = kind.heapSegment(array).asSlice(kind.byteSize(offset), bytes);
        for (long done = 0; done < bytes; ) {
            long chunk = Math.min(org.hpio.internal.sys.Syscalls.CRITICAL_CHUNK, bytes - done);
            long got = FileTransfer.readUpTo(file, target.asSlice(done, chunk), position + done);
            done += got;
            if (got < chunk) {
                throw FileTransfer.shrunk(file, position, kind, done / kind.elementSize(), count);
            }
        }
    }
}
