package org.hpio.archive;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The contents of one loaded file: a read-only view of off-heap memory whose bytes were checked (CRC-32 for an
 * archive entry).
 *
 * <p>Ownership: the caller owns the loaded file and must {@link #close()} it exactly once when done (try with
 * resources). Closing gives the memory back: to the operating system for a plain load, or to the
 * {@link org.hpio.archive.cache.FileCache} it came from, which keeps it for later loads. After closing, the
 * segment and buffer views must not be used (a segment of a freed plain load throws on access; one from a file
 * cache may show another file). The view may be read by any thread while the file is open.
 */
public final class LoadedFile implements AutoCloseable {
    private final String name;
    private final MemorySegment contents;
    private final Runnable release;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    LoadedFile(String name, MemorySegment contents, Runnable release) {
        this.name = name;
        this.contents = contents.asReadOnly();
        this.release = Objects.requireNonNull(release);
    }

    /** The path it was loaded as. */
    public String name() {
        return name;
    }

    /** Bytes of the file. */
    public long size() {
        return contents.byteSize();
    }

    /** The contents, read-only. */
    public MemorySegment segment() {
        return contents;
    }

    /**
     * The contents as a read-only direct buffer (position 0, limit the size).
     *
     * @throws UnsupportedOperationException for files of 2 GiB or more (use {@link #segment()})
     */
    public ByteBuffer buffer() {
        if (contents.byteSize() > Integer.MAX_VALUE) {
            throw new UnsupportedOperationException(name + " has " + contents.byteSize()
                    + " bytes, more than a ByteBuffer holds; use segment()");
        }
        return contents.asByteBuffer();
    }

    /** A copy of the contents on the heap (for files under 2 GiB). */
    public byte[] toByteArray() {
        return contents.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    /** Gives the memory back; idempotent, from any thread. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {   // once, even when two threads close it at once
            release.run();
        }
    }

    @Override
    public String toString() {
        return "LoadedFile[" + name + ", " + contents.byteSize() + " bytes]";
    }
}
