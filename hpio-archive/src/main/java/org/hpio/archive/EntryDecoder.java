package org.hpio.archive;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;

/**
 * The uncompressed bytes of one entry from a {@link BlockStream} of its data: each block is inflated (or, for a
 * stored entry, copied) as soon as it arrives, while the following blocks are still being read (002 §3.2). The
 * {@link StreamDecompressor} (Deflate or Zstandard) reads the block's off-heap memory in place.
 *
 * <p>Its {@link EntryCheck} counts the bytes as they come and checks the size and CRC-32 against the central
 * directory at the end (bytes after the end of the compressed stream are said in the archive's warnings),
 * throwing {@link ArchiveFormatException} naming the entry when they differ; the data is not valid until
 * {@link #read} has returned -1. Owns the stream and its decompressor: close it.
 */
final class EntryDecoder implements AutoCloseable {
    private final BlockStream blocks;
    private final StreamDecompressor inflater;
    private final EntryCheck check;
    private ByteBuffer input;
    private boolean ended;

    EntryDecoder(String archive, ArchiveEntry entry, BlockStream blocks, ArchiveWarnings warnings) {
        this.blocks = blocks;
        this.inflater = StreamDecompressor.of(entry);
        this.check = new EntryCheck(archive, entry, warnings);
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
            check.count(out.duplicate().position(before).limit(out.position()));
            return n;
        }
        if (atEnd) {
            ended = true;
            check.ended(inflater == null ? 0 : inflater.remaining() + blocks.remaining());
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
                    throw check.needsDictionary();
                }
                if (inflater.needsInput()) {
                    input = blocks.next();
                    if (input == null) {
                        throw check.endsEarly(inflater.method());
                    }
                    inflater.setInput(input);
                }
            }
            return inflater.finished();
        } catch (DataFormatException e) {
            throw check.badData(inflater.method(), e);
        }
    }

    @Override
    public void close() {
        if (inflater != null) {
            inflater.close();
        }
        blocks.close();
    }
}
