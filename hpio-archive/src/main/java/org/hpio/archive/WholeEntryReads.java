package org.hpio.archive;

import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Small entries read whole by one blocking {@code pread} on the caller's thread: the per-file cost that 002 §3.1
 * minimises, at the JDK's {@code ZipFile} cost or less (issue 16). A small entry is one or two of the block
 * pipeline's blocks, so a queue depth has nothing to overlap, while the hand-off to io_uring and back (a
 * submission, a futex wake, the request's bookkeeping) and a shared arena per load (about 50 us to close
 * here) cost more than the read itself when the data is in the page cache.
 *
 * <p>The first load of an entry reads from its local header to the end of its data in one call and checks the
 * header ({@link Archive#dataOffset(ArchiveEntry, ByteBuffer, long)}, the check every path makes); the archive
 * then remembers where the data starts, and later loads read the data alone. Stored data is CRC-checked in
 * place ({@link EntryCheck}); Deflate data is inflated into an array of the entry's size (libdeflate through a
 * critical downcall on the arrays, else {@code Inflater}) and checked by {@link WholeEntryDecoder}, as on the
 * asynchronous path.
 *
 * <p>Memory: {@link #load} returns a segment of a new Java array that the caller owns and the garbage
 * collector frees (no pool, nothing to give back); a Deflate entry's compressed bytes go through a per-thread
 * scratch array that never leaves this class. Thread-safe (all reads are positional).
 */
final class WholeEntryReads {
    /** Local extra field bytes read with the header on a first load; a longer extra field costs a second read. */
    private static final int EXTRA_ALLOWANCE = 64;
    private static final ThreadLocal<byte[][]> SCRATCH = ThreadLocal.withInitial(() -> new byte[1][]);

    private final Archive archive;
    private final CentralDirectory directory;
    private final NativeFile file;
    private final BlockIo counts;
    private final boolean nativeInflate;

    WholeEntryReads(Archive archive, CentralDirectory directory, NativeFile file, BlockIo counts,
                    boolean nativeInflate) {
        this.archive = archive;
        this.directory = directory;
        this.file = file;
        this.counts = counts;
        this.nativeInflate = nativeInflate;
    }

    /** The bytes of one read: {@code compressedSize} bytes of entry data at {@code dataAt} of {@code bytes}. */
    private record Span(byte[] bytes, int dataAt) {
        MemorySegment data(ArchiveEntry entry) {
            return MemorySegment.ofArray(bytes).asSlice(dataAt, entry.compressedSize());
        }
    }

    /**
     * The checked contents of {@code entry} (directory index {@code index}, or -1 for an entry that is not this
     * archive's own), in a new Java array's segment.
     */
    MemorySegment load(int index, ArchiveEntry entry) throws IOException {
        if (entry.method() == ZipFormat.STORED) {
            MemorySegment data = read(index, entry, false).data(entry);
            checkCrc(entry, data);
            return data;
        }
        MemorySegment contents = MemorySegment.ofArray(new byte[(int) entry.uncompressedSize()]);
        decodeInto(index, entry, contents);
        return contents;
    }

    /** Decodes {@code entry} into {@code destination} (exactly its size, heap or off-heap) and checks it. */
    void decodeInto(int index, ArchiveEntry entry, MemorySegment destination) throws IOException {
        long start = index >= 0 ? directory.checkedDataStart(index) : 0;
        if (entry.method() == ZipFormat.STORED && start != 0) {
            readFully(entry, destination, start);
            checkCrc(entry, destination);
            return;
        }
        WholeEntryDecoder.decode(archive.path().toString(), entry, read(index, entry, true).data(entry),
                destination, nativeInflate, archive.warningSink());
    }

    private void checkCrc(ArchiveEntry entry, MemorySegment contents) throws ArchiveFormatException {
        new EntryCheck(archive.path().toString(), entry, archive.warningSink()).checkCrc(contents);
    }

    /** The entry's compressed bytes: its data alone once its header was checked, else header and data. */
    private Span read(int index, ArchiveEntry entry, boolean scratch) throws IOException {
        long start = index >= 0 ? directory.checkedDataStart(index) : 0;
        if (start != 0) {
            return readData(entry, start, scratch);
        }
        long header = entry.localHeaderOffset();
        long end = archive.spanEnd(entry);
        if (header < 0 || header >= end) {
            archive.dataOffset(entry); // refuses it, naming the entry and the offset
            throw new IllegalStateException("entry " + entry.name() + " at offset " + header + " was not refused");
        }
        int nameBytes = index >= 0 ? directory.nameBytes(index) : entry.name().length() * 3;
        long wanted = Math.min(end - header,
                ZipFormat.LOCAL_HEADER_SIZE + nameBytes + EXTRA_ALLOWANCE + entry.compressedSize());
        byte[] bytes = array((int) wanted, scratch);
        int got = readUpTo(MemorySegment.ofArray(bytes).asSlice(0, wanted), header);
        long data = archive.dataOffset(entry, ByteBuffer.wrap(bytes, 0, got), header);
        if (index >= 0) {
            directory.rememberDataStart(index, data);
        }
        if (data + entry.compressedSize() <= header + got) {
            counts.countRead(header, data + entry.compressedSize(), got);
            return new Span(bytes, (int) (data - header));
        }
        counts.countRead(header, header + got, got);
        return readData(entry, data, scratch); // a long local extra field, or a file cut short
    }

    private Span readData(ArchiveEntry entry, long data, boolean scratch) throws IOException {
        byte[] bytes = array((int) entry.compressedSize(), scratch);
        readFully(entry, MemorySegment.ofArray(bytes).asSlice(0, entry.compressedSize()), data);
        return new Span(bytes, 0);
    }

    /** An array of at least {@code length} bytes: this thread's scratch (grown as needed) or a new one. */
    private static byte[] array(int length, boolean scratch) {
        if (!scratch) {
            return new byte[length];
        }
        byte[][] holder = SCRATCH.get();
        if (holder[0] == null || holder[0].length < length) {
            holder[0] = new byte[Math.max(length, 4096)];
        }
        return holder[0];
    }

    /**
     * Fills {@code into} with {@code entry}'s data, which starts at {@code position}; the end of the file first is
     * an error naming the archive.
     */
    private void readFully(ArchiveEntry entry, MemorySegment into, long position) throws IOException {
        long got = readUpTo(into, position);
        counts.countRead(entry.localHeaderOffset(), position + got, got);
        if (got < into.byteSize()) {
            throw new ArchiveFormatException(archive.path().toString(), "entry data at offset " + position
                    + " (" + into.byteSize() + " bytes) runs past the end of the file, at offset " + (position + got));
        }
    }

    /**
     * Reads into {@code into} from {@code position} until it is full or the file ends; returns the bytes read (the
     * caller counts the read in {@link LoadStats}).
     */
    private int readUpTo(MemorySegment into, long position) throws IOException {
        long total = into.byteSize();
        long done = 0;
        while (done < total) {
            long n = Math.min(total - done, Syscalls.CRITICAL_CHUNK);
            long got = file.read(into.asSlice(done, n), position + done);
            if (got == 0) {
                break;
            }
            done += got;
        }
        return (int) done;
    }
}
