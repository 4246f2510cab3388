package org.hpio.bulk;

import org.hpio.internal.array.ArrayKind;
import org.hpio.internal.sys.NativeFile;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * A read copied out of a mapping of the file made for this call alone ({@link NativeFile#readMapped}): the JVM's
 * vectorised copy (swapping in a foreign byte order) straight from the page cache into the array, one copy in
 * all, as the {@code mmap} rows of {@code bench bulk} do. The read of every transfer of at least
 * {@link FileTransfer#MAPPED_MIN} bytes, where it beats {@link StagedRead} by more than the ~7 microseconds
 * that mapping and unmapping cost (see {@link FileTransfer}).
 *
 * <p>The copy runs in pieces: {@value #COPY_CHUNK} bytes in native order, {@value #SWAP_CHUNK} bytes when
 * swapping. The swapping copy runs inside the JVM, where a fault on a page past the end of a file truncated
 * meanwhile does not stop the copy but skips one instruction at a time (about 4 microseconds per element: a
 * 64 MiB swap over a truncated file took 36 s in one piece); in pieces the fault surfaces after at most one
 * piece (tens of milliseconds). The fault becomes an EOFException (the file shrank) or an IOException (it
 * did not: an I/O error), never an error of the JVM. Booleans never come here (their decode is a Java loop).
 * Thread-safe; the mapping is never seen outside the call.
 */
final class MappedRead {
    static final int COPY_CHUNK = 1 << 20;
    static final int SWAP_CHUNK = 64 << 10;

    private MappedRead() {
    }

    /**
     * Reads {@code count} elements at {@code position} (already checked against the file's size); false,
     * having read nothing, when the file cannot be mapped.
     */
    static boolean read(NativeFile file, long position, ArrayKind kind, Object array, int offset, int count,
                        ByteOrder order) throws IOException {
        long bytes = kind.byteSize(count);
        long sizeNow = file.readMapped(position, bytes, mapped -> copyOut(mapped, kind, array, offset, count, order));
        if (sizeNow < 0) {
            return false;
        }
        if (sizeNow < position + bytes) {
            throw FileTransfer.shrunk(file, position, kind, Math.max(0, sizeNow - position) / kind.elementSize(),
                    count);
        }
        return true;
    }

    /** Copies {@code count} elements from the start of {@code mapped} into {@code array[offset ..]}, in pieces. */
    static void copyOut(MemorySegment mapped, ArrayKind kind, Object array, int offset, int count,
                                ByteOrder order) {
        int perPiece = (kind.isMemoryForm(order) ? COPY_CHUNK : SWAP_CHUNK) / kind.elementSize();
        for (int done = 0; done < count; ) {
            int n = Math.min(perPiece, count - done);
            kind.decode(mapped, kind.byteSize(done), order, array, offset + done, n);
            done += n;
        }
    }
}
