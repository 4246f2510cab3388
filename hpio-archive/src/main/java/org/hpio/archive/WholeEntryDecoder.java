package org.hpio.archive;

import org.hpio.internal.sys.Libdeflate;
import org.hpio.internal.sys.Libzstd;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decodes one entry whose compressed data is in memory whole into a destination of exactly its size, and checks
 * it as {@link EntryDecoder} and {@link EntryInputStream} do, with the checks they share ({@link #checkEnd},
 * {@link #checkCrc}): the size and CRC-32 must be the central directory's; bytes after the end of the compressed
 * stream, within the compressed size, are tolerated and said in the archive's warnings. A mismatch is an
 * {@link ArchiveFormatException} naming the entry; the destination's contents are then undefined (never
 * returned as valid).
 *
 * <p>Zstandard goes through libzstd's whole-buffer call on the first frame ({@link Libzstd}); bzip2 through
 * libbz2, streaming over the whole buffers. Deflate goes through libdeflate's whole-buffer decompressor ({@link Libdeflate}) when the system has it
 * and {@code native} is asked for, else through {@code java.util.zip.Inflater} in one pass; both give the same
 * bytes and the same verdict (valid, or an error naming the entry). Stored data is only checked. This trades
 * 002 §3.2's per-block overlap of reading and inflating within one file for a decompressor about 2.5 times
 * as fast; {@link ArchiveLoader} overlaps reading and inflating across files instead.
 *
 * <p>Neither segment is kept; the caller owns both.
 */
final class WholeEntryDecoder {
    private WholeEntryDecoder() {
    }

    /** Whether whole-buffer Deflate decoding with {@code nativeInflate} uses libdeflate on this system. */
    static boolean usesLibdeflate(boolean nativeInflate) {
        return nativeInflate && Libdeflate.available();
    }

    /**
     * Decodes {@code data} (exactly the entry's compressed bytes, off-heap) into {@code destination} (exactly its
     * uncompressed size, off-heap) and checks sizes and CRC-32; a stored entry's data is the destination itself
     * or is copied into it.
     */
    static void decode(String archive, ArchiveEntry entry, MemorySegment data, MemorySegment destination,
                       boolean nativeInflate, ArchiveWarnings warnings) throws ArchiveFormatException {
        if (data.byteSize() != entry.compressedSize() || destination.byteSize() != entry.uncompressedSize()) {
            throw new IllegalArgumentException("entry " + entry.name() + ": " + data.byteSize() + " bytes of data, "
                    + destination.byteSize() + " of destination");
        }
        if (entry.method() == ZipFormat.STORED) {
            if (!data.equals(destination)) {
                destination.copyFrom(data);
            }
        } else if (entry.method() == ZipFormat.ZSTD) {
            decompressZstd(archive, entry, data, destination, warnings);
        } else if (entry.method() == ZipFormat.BZIP2) {
            try (StreamDecompressor bzip2 = new Bzip2Stream()) {
                decodeStreaming(archive, entry, bzip2, data, destination, warnings);
            }
        } else if (usesLibdeflate(nativeInflate)) {
            inflateNative(archive, entry, data, destination, warnings);
        } else {
            inflateJdk(archive, entry, data, destination, warnings);
        }
        checkCrc(archive, entry, destination);
    }

    private static void inflateNative(String archive, ArchiveEntry entry, MemorySegment data,
                                      MemorySegment destination, ArchiveWarnings warnings)
            throws ArchiveFormatException {
        Libdeflate.Decoded d = Libdeflate.inflate(data, destination);
        switch (d.result()) {
            case SUCCESS -> checkEnd(archive, entry, data.byteSize() - d.consumed(), d.produced(), warnings);
            case INSUFFICIENT_SPACE -> throw problem(archive, entry, "holds more than its size of "
                    + entry.uncompressedSize() + " bytes");
            default -> throw problem(archive, entry, "has bad Deflate data (or a stream that ends before its "
                    + entry.compressedSize() + " compressed bytes do): libdeflate says " + d.result());
        }
    }

    private static void decompressZstd(String archive, ArchiveEntry entry, MemorySegment data,
                                       MemorySegment destination, ArchiveWarnings warnings)
            throws ArchiveFormatException {
        Libzstd.Decoded d = Libzstd.decompress(data, destination);
        if (d.tooSmall()) {
            throw problem(archive, entry, "holds more than its size of " + entry.uncompressedSize() + " bytes");
        }
        if (d.error() != null) {
            throw zstdProblem(archive, entry, data, destination, d.error());
        }
        checkEnd(archive, entry, data.byteSize() - d.consumed(), d.produced(), warnings);
    }

    /**
     * What is wrong with Zstandard data the whole-buffer call refused, in the words of the streaming paths
     * ({@link EntryDecoder}, {@link EntryInputStream}), whose libzstd call may name the fault differently: the
     * data is decoded again, streaming, to where it fails. Only on this error path.
     */
    private static ArchiveFormatException zstdProblem(String archive, ArchiveEntry entry, MemorySegment data,
                                                      MemorySegment destination, String wholeError) {
        try (ZstdStream stream = new ZstdStream()) {
            decodeStreaming(archive, entry, stream, data, destination, new ArchiveWarnings());
            return problem(archive, entry, "has bad Zstandard data: " + wholeError);
        } catch (ArchiveFormatException e) {
            return e;
        }
    }

    /**
     * Decodes {@code data} into {@code destination} piece by piece through {@code stream}, failing in the words of
     * {@link EntryDecoder} and {@link EntryInputStream}, and makes the shared end check. Both under 2 GiB.
     */
    private static void decodeStreaming(String archive, ArchiveEntry entry, StreamDecompressor stream,
                                        MemorySegment data, MemorySegment destination, ArchiveWarnings warnings)
            throws ArchiveFormatException {
        if (data.byteSize() > Integer.MAX_VALUE || destination.byteSize() > Integer.MAX_VALUE) {
            throw problem(archive, entry, "is " + stream.method() + " of over 2 GiB, which hpio reads only with "
                    + "Archive.stream or openStream");
        }
        ByteBuffer in = data.asByteBuffer();
        ByteBuffer out = destination.asByteBuffer();
        stream.setInput(in);
        try {
            while (!stream.finished()) {
                int taken = in.position();
                boolean full = !out.hasRemaining();
                int n = stream.decompress(full ? ByteBuffer.allocate(1) : out); // full: the stream must end here
                if (full && n > 0) {
                    throw problem(archive, entry, "holds more than its size of " + entry.uncompressedSize()
                            + " bytes");
                }
                if (n == 0 && stream.needsInput()) {
                    throw problem(archive, entry, "has a " + stream.method() + " stream that ends before its "
                            + entry.compressedSize() + " compressed bytes do");
                }
                if (n == 0 && in.position() == taken && !stream.finished()) {
                    throw problem(archive, entry, "has " + stream.method() + " data that makes no progress");
                }
            }
        } catch (java.util.zip.DataFormatException e) {
            throw problem(archive, entry, "has bad " + stream.method() + " data: " + e.getMessage());
        }
        checkEnd(archive, entry, stream.remaining(), out.position(), warnings);
    }

    private static void inflateJdk(String archive, ArchiveEntry entry, MemorySegment data,
                                   MemorySegment destination, ArchiveWarnings warnings)
            throws ArchiveFormatException {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(data.asByteBuffer());
            ByteBuffer out = destination.asByteBuffer();
            while (!inflater.finished() && out.hasRemaining()) {
                inflater.inflate(out);
                if (!inflater.finished() && inflater.needsDictionary()) {
                    throw problem(archive, entry, "has a Deflate stream that needs a preset dictionary");
                }
                if (!inflater.finished() && inflater.needsInput()) {
                    throw problem(archive, entry, "has a Deflate stream that ends before its "
                            + entry.compressedSize() + " compressed bytes do");
                }
            }
            ByteBuffer probe = ByteBuffer.allocate(1);
            while (!inflater.finished()) { // the destination is full: the stream must end here
                if (inflater.inflate(probe) > 0) {
                    throw problem(archive, entry, "holds more than its size of " + entry.uncompressedSize()
                            + " bytes");
                }
                if (!inflater.finished() && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw problem(archive, entry, "has a Deflate stream that ends before its "
                            + entry.compressedSize() + " compressed bytes do");
                }
            }
            checkEnd(archive, entry, inflater.getRemaining(), out.position(), warnings);
        } catch (DataFormatException e) {
            throw problem(archive, entry, "has bad Deflate data: "
                    + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }

    /**
     * The check every decoder makes once the compressed stream has ended, with {@code left} compressed bytes
     * not consumed and {@code produced} bytes out: the size must be the directory's. Bytes after the end of the
     * stream are tolerated, since the compressed size says where the entry ends (Python's {@code zipfile} and
     * Info-ZIP read them too), and said in {@code warnings}.
     */
    static void checkEnd(String archive, ArchiveEntry entry, long left, long produced, ArchiveWarnings warnings)
            throws ArchiveFormatException {
        if (produced != entry.uncompressedSize()) {
            throw problem(archive, entry, "holds " + produced + " bytes, the directory says "
                    + entry.uncompressedSize());
        }
        if (left > 0) {
            warnings.add(archive + ": entry " + entry.name() + " (local header at offset "
                    + entry.localHeaderOffset() + ") has " + left + " bytes after the end of its compressed "
                    + "stream, within its " + entry.compressedSize() + " compressed bytes; ignored");
        }
    }

    /** The check of a streamed entry's CRC-32, {@code crc}, against the directory's. */
    static void checkCrc(String archive, ArchiveEntry entry, long crc) throws ArchiveFormatException {
        if (crc != entry.crc()) {
            throw problem(archive, entry, String.format("has CRC-32 %08x, the directory says %08x", crc,
                    entry.crc()));
        }
    }

    static void checkCrc(String archive, ArchiveEntry entry, MemorySegment contents) throws ArchiveFormatException {
        CRC32 crc = new CRC32();
        long at = 0;
        long size = contents.byteSize();
        while (at < size) { // a ByteBuffer holds at most 2 GiB
            long n = Math.min(size - at, 1L << 30);
            crc.update(contents.asSlice(at, n).asByteBuffer());
            at += n;
        }
        checkCrc(archive, entry, crc.getValue());
    }

    /**
     * What is wrong with {@code entry}'s data, naming the archive, the entry and where it lies, as every decoder
     * says it: "entry NAME (local header at offset N) WHAT".
     */
    static ArchiveFormatException problem(String archive, ArchiveEntry entry, String what) {
        return problem(archive, entry, what, null);
    }

    /** {@link #problem(String, ArchiveEntry, String)} with the exception that found it. */
    static ArchiveFormatException problem(String archive, ArchiveEntry entry, String what, Throwable cause) {
        return new ArchiveFormatException(archive, "entry " + entry.name() + " (local header at offset "
                + entry.localHeaderOffset() + ") " + what, cause);
    }
}
