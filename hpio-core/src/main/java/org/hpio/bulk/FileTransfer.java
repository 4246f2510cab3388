package org.hpio.bulk;

import org.hpio.internal.array.ArrayKind;
import org.hpio.internal.mem.StagingPool;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * Positional transfers between a file and a primitive array: the data path of {@link BulkRandomAccessFile}
 * (001 §6, without JNI).
 *
 * <p>Reads: the kernel copies straight into the array, in critical calls of at most
 * {@link Syscalls#CRITICAL_CHUNK} bytes; in a foreign byte order each chunk is swapped in place right after
 * (booleans, whose bytes are not their memory form, go through staging). Writes: when the array's memory is the
 * file's byte form (native order) straight from the array; otherwise through one pooled off-heap staging
 * buffer (owned by the call, returned to {@link StagingPool#shared()} before it ends), swapped in bulk, since
 * the caller's array must not change. One system call per chunk, never one per element. Safe from many threads
 * at once: nothing here is shared but the pool.
 */
final class FileTransfer {
    /** Chunk of an in-place swapped read: small enough that the swap finds it in L2. */
    private static final long SWAP_CHUNK = 256 * 1024;

    private FileTransfer() {
    }

    /**
     * Reads {@code count} elements at {@code position} into {@code array[offset ..]}. Bounds and end of file
     * are checked before any I/O (against the size this handle last saw or wrote, asking the kernel only when
     * that is too short: {@link NativeFile#sizeAtLeast}); if the file shrank meanwhile, through another handle
     * or during the read, the EOFException says how many elements arrived.
     */
    static void read(NativeFile file, long position, ArrayKind kind, Object array, int offset, int count,
                     ByteOrder order) throws IOException {
        kind.checkRange(array, offset, count);
        checkPosition(position);
        if (count == 0) {
            return; // a no-op wherever the position is, even past the end of the file
        }
        long bytes = kind.byteSize(count);
        long available = file.sizeAtLeast(position + bytes) - position;
        if (bytes > available) {
            throw new EOFException("end of file: " + count + " " + kind.typeName() + "s requested at offset "
                    + position + " of " + file.path() + " but only " + Math.max(0, available) / kind.elementSize()
                    + " remain; 0 read, nothing changed");
        }
        if (kind == ArrayKind.BOOLEAN) {
            readStaged(file, position, kind, array, offset, count, order);
        } else {
            readInPlace(file, position, kind, array, offset, count, order);
        }
    }

    /**
     * The kernel copies straight into the array; in a foreign byte order each chunk is then swapped in place
     * while it is still in the cache (as the C reference does), so no staging copy is made.
     */
    private static void readInPlace(NativeFile file, long position, ArrayKind kind, Object array, int offset,
                                    int count, ByteOrder order) throws IOException {
        long bytes = kind.byteSize(count);
        MemorySegment target = kind.heapSegment(array).asSlice(kind.byteSize(offset), bytes);
        boolean swap = !kind.isMemoryForm(order);
        long chunkBytes = swap ? SWAP_CHUNK : Syscalls.CRITICAL_CHUNK;
        for (long done = 0; done < bytes; ) {
            MemorySegment chunk = target.asSlice(done, Math.min(chunkBytes, bytes - done));
            long got = readUpTo(file, chunk, position + done);
            int whole = (int) (got / kind.elementSize());
            if (swap) {
                kind.swapInPlace(chunk, order, whole);
            }
            done += got;
            if (got < chunk.byteSize()) {
                throw shrunk(file, position, kind, done / kind.elementSize(), count);
            }
        }
    }

    private static void readStaged(NativeFile file, long position, ArrayKind kind, Object array, int offset,
                                   int count, ByteOrder order) throws IOException {
        StagingPool pool = StagingPool.shared();
        MemorySegment staging = pool.acquire();
        try {
            int perChunk = (int) (staging.byteSize() / kind.elementSize());
            int done = 0;
            while (done < count) {
                int n = Math.min(perChunk, count - done);
                long want = kind.byteSize(n);
                long got = readUpTo(file, staging.asSlice(0, want), position + kind.byteSize(done));
                int whole = (int) (got / kind.elementSize());
                kind.decode(staging, 0, order, array, offset + done, whole);
                done += whole;
                if (got < want) {
                    throw shrunk(file, position, kind, done, count);
                }
            }
        } finally {
            pool.release(staging);
        }
    }

    /** Reads until {@code buffer} is full or the file ends; returns the bytes read. */
    private static long readUpTo(NativeFile file, MemorySegment buffer, long position) throws IOException {
        long done = 0;
        while (done < buffer.byteSize()) {
            long got = file.read(buffer.asSlice(done), position + done);
            if (got == 0) {
                break;
            }
            done += got;
        }
        return done;
    }

    private static EOFException shrunk(NativeFile file, long position, ArrayKind kind, long read, long count) {
        file.forgetSize();   // the next check asks the kernel
        return new EOFException("end of file: " + file.path() + " ended during a read of " + count + " "
                + kind.typeName() + "s at offset " + position + "; " + read + " read");
    }

    /** Writes {@code count} elements of {@code array[offset ..]} at {@code position}, extending the file. */
    static void write(NativeFile file, long position, ArrayKind kind, Object array, int offset, int count,
                      ByteOrder order) throws IOException {
        kind.checkRange(array, offset, count);
        checkPosition(position);
        if (count == 0) {
            return;
        }
        if (kind.isMemoryForm(order)) {
            MemorySegment source = kind.heapSegment(array).asSlice(kind.byteSize(offset), kind.byteSize(count));
            for (long done = 0; done < source.byteSize(); ) {
                long chunk = Math.min(Syscalls.CRITICAL_CHUNK, source.byteSize() - done);
                done += writeFully(file, source.asSlice(done, chunk), position + done);
            }
        } else {
            writeStaged(file, position, kind, array, offset, count, order);
        }
    }

    private static void writeStaged(NativeFile file, long position, ArrayKind kind, Object array, int offset,
                                    int count, ByteOrder order) throws IOException {
        StagingPool pool = StagingPool.shared();
        MemorySegment staging = pool.acquire();
        try {
            int perChunk = (int) (staging.byteSize() / kind.elementSize());
            for (int done = 0; done < count; ) {
                int n = Math.min(perChunk, count - done);
                kind.encode(array, offset + done, n, order, staging, 0);
                writeFully(file, staging.asSlice(0, kind.byteSize(n)), position + kind.byteSize(done));
                done += n;
            }
        } finally {
            pool.release(staging);
        }
    }

    /** Writes all of {@code buffer}, continuing after short writes; returns its size. */
    private static long writeFully(NativeFile file, MemorySegment buffer, long position) throws IOException {
        long done = 0;
        while (done < buffer.byteSize()) {
            long wrote = file.write(buffer.asSlice(done), position + done);
            if (wrote == 0) {
                throw new IOException("pwrite wrote nothing at offset " + (position + done) + " of " + file.path());
            }
            done += wrote;
        }
        return done;
    }

    static void checkPosition(long position) {
        if (position < 0) {
            throw new IllegalArgumentException("negative file position: " + position);
        }
    }
}
