package org.hpio.internal.io;

import org.hpio.internal.sys.NativeFile;

import java.lang.foreign.MemorySegment;
import java.util.Locale;
import java.util.Objects;

/**
 * One operation for an {@link IoEngine}: what to do, on which file, with which buffer.
 *
 * <p>Buffer ownership: the buffer must be a native (off-heap) segment, since the kernel may write it after
 * the call that submitted it returned. From submission until the request completes the engine owns it: the
 * caller must not touch it, and must keep its arena open (a cancel does not end this early: the buffer is
 * the caller's again only when the request is done).
 *
 * @param kind     what to do
 * @param file     the file; the engine holds it open until the request completes
 * @param buffer   for READ and WRITE / WRITE_THEN_FSYNC: the bytes; otherwise null
 * @param position the file offset (64-bit) for READ and WRITE
 * @param metadata for FSYNC and WRITE_THEN_FSYNC: fsync (true) or fdatasync (false)
 * @param offloadCopy for a buffered READ or WRITE: whether an engine may hand the page-cache copy to a kernel
 *                    worker so that it overlaps the submitting thread's work (io_uring's IOSQE_ASYNC, see
 *                    {@code UringEngine}); false keeps it with the submission, for callers whose own threads
 *                    already keep every core busy. A hint: engines without such workers ignore it
 */
public record IoOperation(Kind kind, NativeFile file, MemorySegment buffer, long position, boolean metadata,
                          boolean offloadCopy) {
    public enum Kind { READ, WRITE, FSYNC, WRITE_THEN_FSYNC, NOP }

    public IoOperation {
        Objects.requireNonNull(kind, "kind");
        if (kind != Kind.NOP) {
            Objects.requireNonNull(file, "file");
        }
        if (kind == Kind.READ || kind == Kind.WRITE || kind == Kind.WRITE_THEN_FSYNC) {
            Objects.requireNonNull(buffer, "buffer");
            if (!buffer.isNative()) {
                throw new IllegalArgumentException("asynchronous I/O needs an off-heap buffer, not " + buffer);
            }
            if (position < 0) {
                throw new IllegalArgumentException("negative file position: " + position);
            }
            if (kind == Kind.READ && buffer.isReadOnly()) {
                throw new IllegalArgumentException("cannot read into a read-only buffer");
            }
        }
    }

    /** Reads up to {@code buffer.byteSize()} bytes at {@code position}; the result may be short. */
    public static IoOperation read(NativeFile file, MemorySegment buffer, long position) {
        return new IoOperation(Kind.READ, file, buffer, position, false, true);
    }

    /** Writes up to {@code buffer.byteSize()} bytes at {@code position}; the result may be short. */
    public static IoOperation write(NativeFile file, MemorySegment buffer, long position) {
        return new IoOperation(Kind.WRITE, file, buffer, position, false, true);
    }

    /** fsync ({@code metadata}) or fdatasync. */
    public static IoOperation fsync(NativeFile file, boolean metadata) {
        return new IoOperation(Kind.FSYNC, file, null, 0, metadata, true);
    }

    /**
     * Writes all of {@code buffer} at {@code position}, then forces the file: the result is the bytes written
     * once the force succeeded. A short write is continued before the force is issued, never reported as
     * durable.
     */
    public static IoOperation writeThenFsync(NativeFile file, MemorySegment buffer, long position, boolean metadata) {
        return new IoOperation(Kind.WRITE_THEN_FSYNC, file, buffer, position, metadata, true);
    }

    public static IoOperation nop() {
        return new IoOperation(Kind.NOP, null, null, 0, false, true);
    }

    /** This operation with its page-cache copy kept with the submission ({@code offloadCopy} false). */
    public IoOperation withoutCopyOffload() {
        return offloadCopy ? new IoOperation(kind, file, buffer, position, metadata, false) : this;
    }

    /** This operation on the first {@code bytes} of its buffer only. */
    public IoOperation shortenedTo(long bytes) {
        return new IoOperation(kind, file, buffer.asSlice(0, bytes), position, metadata, offloadCopy);
    }

    /** Bytes this operation moves (0 for FSYNC and NOP). */
    public long length() {
        return buffer == null ? 0 : buffer.byteSize();
    }

    public String describe() {
        return switch (kind) {
            case NOP -> "nop";
            case FSYNC -> (metadata ? "fsync " : "fdatasync ") + file.path();
            default -> kind.name().toLowerCase(Locale.ROOT) + " of " + length() + " bytes at offset "
                    + position + " of " + file.path();
        };
    }
}
