package org.hpio.archive;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The contents of one loaded file: a read-only view of memory whose bytes were checked (CRC-32 for an archive
 * entry).
 *
 * <p>Ownership: the caller owns the loaded file and must {@link #close()} it exactly once when done (try with
 * resources). Closing gives the memory back: a small file's Java array to the garbage collector, a larger
 * file's off-heap memory to the pool it came from (the next load may reuse it at once), or the
 * {@link org.hpio.archive.cache.FileCache}'s copy to that cache. After closing, {@link #segment()} and
 * {@link #buffer()} throw; views taken before must not be used (a view of recycled memory may show another
 * file's bytes: scoping every load's memory to an arena of its own that fails on access after close cost a
 * JVM-wide handshake per load, about 50 us here, ten times the load of a small file). The view may be read by
 * any thread while the file is open. Small files (see {@link Archive#load(String)}) live on the Java heap, so
 * their {@link #buffer()} is a heap buffer; larger ones are off-heap, their buffer direct.
 */
public final class LoadedFile implements AutoCloseable {
    /** The release of memory that the garbage collector frees (a Java array). */
    static final Runnable NOTHING_TO_RELEASE = () -> { };
    private final String name;
    private final MemorySegment contents;
    private final Runnable release;
    private final AtomicBoolean closed = new AtomicBoolean();

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
        requireOpen();
        return contents;
    }

    /**
     * The contents as a read-only buffer (position 0, limit the size): a heap buffer for a small file, direct
     * for a larger one.
     *
     * @throws UnsupportedOperationException for files of 2 GiB or more (use {@link #segment()})
     */
    public ByteBuffer buffer() {
        requireOpen();
        if (contents.byteSize() > Integer.MAX_VALUE) {
            throw new UnsupportedOperationException(name + " has " + contents.byteSize()
                    + " bytes, more than a ByteBuffer holds; use segment()");
        }
        return contents.asByteBuffer();
    }

    /** A copy of the contents on the heap (for files under 2 GiB). */
    public byte[] toByteArray() {
        requireOpen();
        return contents.toArray(ValueLayout.JAVA_BYTE);
    }

    private void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException(name + " was closed: its memory was given back");
        }
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
