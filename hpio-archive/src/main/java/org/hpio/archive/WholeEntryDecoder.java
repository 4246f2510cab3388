package org.hpio.archive;

import org.hpio.internal.sys.Libdeflate;
import org.hpio.internal.sys.Libzstd;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decodes one entry whose compressed data is in memory whole into a destination of exactly its size, and checks
 * it with the {@link EntryCheck} every decoder makes: the size and CRC-32 must be the central directory's; bytes
 * after the end of the compressed stream, within the compressed size, are tolerated and said in the archive's
 * warnings. A mismatch is an {@link ArchiveFormatException} naming the entry; the destination's contents are
 * then undefined (never returned as valid).
 *
 * <p>Zstandard goes through libzstd's whole-buffer call on the first frame ({@link Libzstd}); bzip2 through
 * libbz2, streaming over the whole buffers. Deflate goes through libdeflate's whole-buffer decompressor
 * ({@link Libdeflate}) when the system has it and {@code native} is asked for, else through
 * {@code java.util.zip.Inflater} in one pass; both give the same bytes and the same verdict (valid, or an error
 * naming the entry). Stored data is only checked. This trades 002 §3.2's per-block overlap of reading and
 * inflating within one file for a decompressor about 2.5 times as fast; {@link ArchiveLoader} overlaps reading
 * and inflating across files instead.
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
        EntryCheck check = new EntryCheck(archive, entry, warnings);
        if (entry.method() == ZipFormat.STORED) {
            if (!data.equals(destination)) {
                destination.copyFrom(data);
            }
        } else if (entry.method() == ZipFormat.ZSTD) {
            decompressZstd(check, data, destination);
        } else if (entry.method() == ZipFormat.BZIP2) {
            try (StreamDecompressor bzip2 = new Bzip2Stream()) {
                decodeStreaming(check, bzip2, data, destination);
            }
        } else if (usesLibdeflate(nativeInflate)) {
            inflateNative(check, entry, data, destination);
        } else {
            inflateJdk(check, data, destination);
        }
        check.checkCrc(destination);
    }

    private static void inflateNative(EntryCheck check, ArchiveEntry entry, MemorySegment data,
                                      MemorySegment destination) throws ArchiveFormatException {
        Libdeflate.Decoded d = Libdeflate.inflate(data, destination);
        switch (d.result()) {
            case SUCCESS -> check.endedAfter(data.byteSize() - d.consumed(), d.produced());
            case INSUFFICIENT_SPACE -> throw check.tooLong();
            default -> throw check.problem("has bad Deflate data (or a stream that ends before its "
                    + entry.compressedSize() + " compressed bytes do): libdeflate says " + d.result());
        }
    }

    private static void decompressZstd(EntryCheck check, MemorySegment data, MemorySegment destination)
            throws ArchiveFormatException {
        Libzstd.Decoded d = Libzstd.decompress(data, destination);
        if (d.tooSmall()) {
            throw check.tooLong();
        }
        if (d.error() != null) {
            throw zstdProblem(check, data, destination, d.error());
        }
        check.endedAfter(data.byteSize() - d.consumed(), d.produced());
    }

    /**
     * What is wrong with Zstandard data the whole-buffer call refused, in the words of the streaming paths
     * ({@link EntryDecoder}, {@link EntryInputStream}), whose libzstd call may name the fault differently: the
     * data is decoded again, streaming, to where it fails (its warnings go nowhere). Only on this error path.
     */
    private static ArchiveFormatException zstdProblem(EntryCheck check, MemorySegment data,
                                                      MemorySegment destination, String wholeError) {
        try (ZstdStream stream = new ZstdStream()) {
            decodeStreaming(check.withoutWarnings(), stream, data, destination);
            return check.problem("has bad Zstandard data: " + wholeError);
        } catch (ArchiveFormatException e) {
            return e;
        }
    }

    /**
     * Decodes {@code data} into {@code destination} piece by piece through {@code stream}, failing in the words of
     * {@link EntryDecoder} and {@link EntryInputStream}, and makes the shared end check. Both under 2 GiB.
     */
    private static void decodeStreaming(EntryCheck check, StreamDecompressor stream, MemorySegment data,
                                        MemorySegment destination) throws ArchiveFormatException {
        if (data.byteSize() > Integer.MAX_VALUE || destination.byteSize() > Integer.MAX_VALUE) {
            throw check.problem("is " + stream.method() + " of over 2 GiB, which hpio reads only with "
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
                    throw check.tooLong();
                }
                if (n == 0 && stream.needsInput()) {
                    throw check.endsEarly(stream.method());
                }
                if (n == 0 && in.position() == taken && !stream.finished()) {
                    throw check.problem("has " + stream.method() + " data that makes no progress");
                }
            }
        } catch (DataFormatException e) {
            throw check.badData(stream.method(), e);
        }
        check.endedAfter(stream.remaining(), out.position());
    }

    private static void inflateJdk(EntryCheck check, MemorySegment data, MemorySegment destination)
            throws ArchiveFormatException {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(data.asByteBuffer());
            ByteBuffer out = destination.asByteBuffer();
            while (!inflater.finished() && out.hasRemaining()) {
                inflater.inflate(out);
                if (!inflater.finished() && inflater.needsDictionary()) {
                    throw check.needsDictionary();
                }
                if (!inflater.finished() && inflater.needsInput()) {
                    throw check.endsEarly("Deflate");
                }
            }
            ByteBuffer probe = ByteBuffer.allocate(1);
            while (!inflater.finished()) { // the destination is full: the stream must end here
                if (inflater.inflate(probe) > 0) {
                    throw check.tooLong();
                }
                if (!inflater.finished() && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw check.endsEarly("Deflate");
                }
            }
            check.endedAfter(inflater.getRemaining(), out.position());
        } catch (DataFormatException e) {
            throw check.badData("Deflate", e);
        } finally {
            inflater.end();
        }
    }
}
