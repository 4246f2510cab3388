package org.hpio.archive;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * The one check of an entry's uncompressed bytes against its central directory record, made by every decoder
 * ({@link WholeEntryDecoder}, {@link EntryDecoder}, {@link EntryInputStream}) and by {@link Archive}'s reads of
 * stored entries: the size must be the directory's (never a byte more, checked as bytes come), the compressed
 * stream must end exactly where the sizes say (bytes after its end, within the compressed size, are tolerated
 * and said in the archive's warnings), and the CRC-32 must be the directory's. Every refusal is an
 * {@link ArchiveFormatException} naming the archive, the entry and its local header's offset, in the same words
 * on every path: "entry NAME (local header at offset N) WHAT".
 *
 * <p>One check per read of one entry; not thread-safe. Streaming decoders {@link #count} the bytes as they
 * produce them and call {@link #ended} at the end; whole-buffer decoders call {@link #endedAfter} and
 * {@link #checkCrc(MemorySegment)}.
 */
final class EntryCheck {
    private final String archive;
    private final ArchiveEntry entry;
    private final ArchiveWarnings warnings;
    private final CRC32 crc = new CRC32();
    private long produced;

    /** The check of {@code entry} of {@code archive} (its name, for messages); warnings go to {@code warnings}. */
    EntryCheck(String archive, ArchiveEntry entry, ArchiveWarnings warnings) {
        this.archive = archive;
        this.entry = entry;
        this.warnings = warnings;
    }

    /** The same check with its warnings going nowhere (for decoding again only to word an error). */
    EntryCheck withoutWarnings() {
        return new EntryCheck(archive, entry, new ArchiveWarnings());
    }

    /** Counts the bytes between {@code bytes}' position and limit (not moving them) into the size and CRC-32. */
    void count(ByteBuffer bytes) throws ArchiveFormatException {
        crc.update(bytes.duplicate());
        counted(bytes.remaining());
    }

    /** Counts {@code b[off, off + n)} into the size and CRC-32. */
    void count(byte[] b, int off, int n) throws ArchiveFormatException {
        crc.update(b, off, n);
        counted(n);
    }

    private void counted(int n) throws ArchiveFormatException {
        produced += n;
        if (produced > entry.uncompressedSize()) {
            throw tooLong();
        }
    }

    /**
     * The streamed entry's compressed stream has ended, with {@code left} compressed bytes not consumed: checks
     * the counted size, says the bytes left in the warnings, and checks the counted CRC-32.
     */
    void ended(long left) throws ArchiveFormatException {
        endedAfter(left, produced);
        checkCrc(crc.getValue());
    }

    /**
     * The compressed stream has ended, with {@code left} compressed bytes not consumed and {@code producedBytes}
     * bytes out: the size must be the directory's. Bytes after the end of the stream are tolerated, since the
     * compressed size says where the entry ends (Python's {@code zipfile} and Info-ZIP read them too), and said
     * in the warnings.
     */
    void endedAfter(long left, long producedBytes) throws ArchiveFormatException {
        if (producedBytes != entry.uncompressedSize()) {
            throw problem("holds " + producedBytes + " bytes, the directory says " + entry.uncompressedSize());
        }
        if (left > 0) {
            warnings.add(archive + ": entry " + entry.name() + " (local header at offset "
                    + entry.localHeaderOffset() + ") has " + left + " bytes after the end of its compressed "
                    + "stream, within its " + entry.compressedSize() + " compressed bytes; ignored");
        }
    }

    /** Checks a CRC-32 computed elsewhere (as the bytes were read) against the directory's. */
    void checkCrc(CRC32 computed) throws ArchiveFormatException {
        checkCrc(computed.getValue());
    }

    /** Checks the CRC-32 of {@code contents}, the whole entry, against the directory's. */
    void checkCrc(MemorySegment contents) throws ArchiveFormatException {
        CRC32 whole = new CRC32();
        long at = 0;
        long size = contents.byteSize();
        while (at < size) { // a ByteBuffer holds at most 2 GiB
            long n = Math.min(size - at, 1L << 30);
            whole.update(contents.asSlice(at, n).asByteBuffer());
            at += n;
        }
        checkCrc(whole.getValue());
    }

    private void checkCrc(long value) throws ArchiveFormatException {
        if (value != entry.crc()) {
            throw problem(String.format("has CRC-32 %08x, the directory says %08x", value, entry.crc()));
        }
    }

    /** The entry makes more bytes than its size. */
    ArchiveFormatException tooLong() {
        return problem("holds more than its size of " + entry.uncompressedSize() + " bytes");
    }

    /** The entry's {@code method} stream wants more input than its compressed size holds. */
    ArchiveFormatException endsEarly(String method) {
        return problem("has a " + method + " stream that ends before its " + entry.compressedSize()
                + " compressed bytes do");
    }

    /** The entry's Deflate stream needs a preset dictionary, which Zip has none of. */
    ArchiveFormatException needsDictionary() {
        return problem("has a Deflate stream that needs a preset dictionary");
    }

    /** The entry's {@code method} data was refused by its decompressor, which said {@code why}. */
    ArchiveFormatException badData(String method, Exception why) {
        return problem("has bad " + method + " data: " + why.getMessage(), why);
    }

    /** What is wrong with the entry's data: {@link #problem(String, ArchiveEntry, String)}. */
    ArchiveFormatException problem(String what) {
        return problem(archive, entry, what);
    }

    private ArchiveFormatException problem(String what, Throwable cause) {
        return new ArchiveFormatException(archive, where(entry) + what, cause);
    }

    /**
     * What is wrong with {@code entry}, naming the archive, the entry and where it lies, as every path says it:
     * "entry NAME (local header at offset N) WHAT".
     */
    static ArchiveFormatException problem(String archive, ArchiveEntry entry, String what) {
        return new ArchiveFormatException(archive, where(entry) + what, null);
    }

    private static String where(ArchiveEntry entry) {
        return "entry " + entry.name() + " (local header at offset " + entry.localHeaderOffset() + ") ";
    }
}
