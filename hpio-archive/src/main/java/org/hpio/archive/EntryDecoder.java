package org.hpio.archive;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;

/**
 * The uncompressed bytes of one entry from a {@link BlockStream} of its data: each block is inflated (or, for a
 * stored entry, copied) as soon as it arrives, while the following blocks are still being read (002 §3.2). The
 * {@link StreamDecompressor} (Deflate or Zstandard) reads the block's off-heap memory in place.
 *
 * <p>At the end it checks the size and CRC-32 against the central directory ({@link WholeEntryDecoder}'s
 * checks; bytes after the end of the compressed stream are said in the archive's warnings), throwing
 * {@link ArchiveFormatException} naming the entry when they differ; the data is not valid until {@link #read} has
 * returned -1. Owns the stream and its decompressor: close it.
 */
final class EntryDecoder implements AutoCloseable {
    private final String archive;
    private final ArchiveEntry entry;
    private final BlockStream blocks;
    private final StreamDecompressor inflater;
    private final CRC32 crc = new CRC32();
    private final ArchiveWarnings warnings;
    private ByteBuffer input;
    private long produced;
    private boolean ended;

    EntryDecoder(String archive, ArchiveEntry entry, BlockStream blocks, ArchiveWarnings warnings) {
        this.archive = archive;
        this.warnings = warnings;
        this.entry = entry;
        this.blocks = blocks;
        this.inflater = StreamDecompressor.of(entry);
    }

    /**
     * Fills {@code out} from its position with the next bytes of the entry; returns how many (0 only when
     * {@code out} has no room), or -1 once the entry has ended and passed its checks.
     */
    int read(ByteBuffer out) throws IOException {
        if (ended) {
            return -1;
        }
        int before = out.position();
        boolean atEnd = inflater == null ? copy(out) : inflate(out);
        int n = out.position() - before;
        if (n > 0) {
            crc.update(out.duplicate().position(before).limit(out.position()));
            produced += n;
            if (produced > entry.uncompressedSize()) {
                throw problem("holds more than its size of " + entry.uncompressedSize() + " bytes");
            }
            return n;
        }
        if (atEnd) {
            ended = true;
            checkEnd();
            return -1;
        }
        return 0;
    }

    /** Copies stored data; true when the data has ended. */
    private boolean copy(ByteBuffer out) throws IOException {
        while (out.hasRemaining()) {
            if (input == null || !input.hasRemaining()) {
                input = blocks.next();
                if (input == null) {
                    return true;
                }
                continue;
            }
            int n = Math.min(out.remaining(), input.remaining());
            out.put(out.position(), input, input.position(), n);
            out.position(out.position() + n);
            input.position(input.position() + n);
        }
        return false;
    }

    /** Decompresses; true when the compressed stream has finished. */
    private boolean inflate(ByteBuffer out) throws IOException {
        try {
            while (out.hasRemaining()) {
                inflater.decompress(out);
                if (inflater.finished()) {
                    return true;
                }
                if (inflater.needsDictionary()) {
                    throw problem("has a Deflate stream that needs a preset dictionary");
                }
                if (inflater.needsInput()) {
                    input = blocks.next();
                    if (input == null) {
                        throw problem("has a " + inflater.method() + " stream that ends before its "
                                + entry.compressedSize() + " compressed bytes do");
                    }
                    inflater.setInput(input);
                }
            }
            return inflater.finished();
        } catch (DataFormatException e) {
            throw WholeEntryDecoder.problem(archive, entry, "has bad " + inflater.method() + " data: "
                    + e.getMessage(), e);
        }
    }

    private void checkEnd() throws ArchiveFormatException {
        long left = inflater == null ? 0 : inflater.remaining() + blocks.remaining();
        WholeEntryDecoder.checkEnd(archive, entry, left, produced, warnings);
        WholeEntryDecoder.checkCrc(archive, entry, crc.getValue());
    }

    private ArchiveFormatException problem(String what) {
        return WholeEntryDecoder.problem(archive, entry, what);
    }

    @Override
    public void close() {
        if (inflater != null) {
            inflater.close();
        }
        blocks.close();
    }
}
