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
 * {@link FileTransfer#MAPPED_MIN} bytes whose pages are in the page cache, where it beats {@link StagedRead} by
 * more than the ~11 microseconds that mapping, the residency samples and unmapping cost (see
 * {@link FileTransfer}).
 *
 * <p>The copy runs in pieces: {@value #COPY_CHUNK} bytes in native order, {@value #SWAP_CHUNK} bytes when
 * swapping. Native order: the JVM's copy stub switches to its path for large copies (non-temporal stores) from
 * 2.5 MB, so 4 MiB pieces measured 17.0 GB/s where 1 MiB pieces made 10.2 and 256 KiB 8.0 (one 256 MiB copy:
 * 15.8; AMD EPYC, 256 MiB warm, medians of 11 interleaved rounds); a piece still bounds how long the copy holds
 * off a safepoint (~0.3 ms). Swapping: the swap copy runs inside the JVM, where a fault on a page past the end
 * of a file truncated meanwhile does not stop the copy but skips one instruction at a time (about 4
 * microseconds per element: a 64 MiB swap over a truncated file took 36 s in one piece), so pieces bound the
 * cost of that fault to one piece (~0.1 s); 256 KiB pieces measured 10.4 GB/s, 1 MiB 10.7, one piece 11.1,
 * 64 KiB 7.4. The fault becomes an EOFException (the file shrank) or an IOException (it did not: an I/O
 * error), never an error of the JVM. Booleans never come here (their decode is a Java loop).
 * Thread-safe; the mapping is never seen outside the call.
 */
final class MappedRead {
    static final int COPY_CHUNK = 4 << 20;
    static final int SWAP_CHUNK = 256 << 10;

    private MappedRead() {
    }

    /**
     * Reads {@code count} elements at {@code position} (already checked against the file's size); false,
     * having read nothing, when the file cannot be mapped or not all of the range is in the page cache (a page
     * fault that reads the disk would hold off the JVM's safepoints; a pread waits in native code).
     */
    static boolean read(NativeFile file, long position, ArrayKind kind, Object array, int offset, int count,
                        ByteOrder order) throws IOException {
        long bytes = kind.byteSize(count);
        long sizeNow = file.readMapped(position, bytes, mapped -> copyOut(mapped, kind, array, offset, count, order));
        if (sizeNow < 0) {
            return false;
        }
        if (sizeNow < position + bytes) {
            // The copy may have stopped short of the new end (a fault abandons the piece it is in): read what the
            // file still has again, so that the elements the exception counts are in the array.
            int arrived = (int) (Math.max(0, sizeNow - position) / kind.elementSize());
            StagedRead.read(file, position, kind, array, offset, arrived, order);
            throw FileTransfer.shrunk(file, position, kind, arrived, count);
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
