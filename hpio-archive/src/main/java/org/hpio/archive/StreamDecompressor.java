package org.hpio.archive;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;

/**
 * One entry's compressed stream decoded piece by piece, whatever its method (Deflate: {@link DeflateStream};
 * Zstandard: {@link ZstdStream}; bzip2: {@link Bzip2Stream}), for the decoders that read an entry in pieces
 * ({@link EntryDecoder}, {@link EntryInputStream}, and {@link WholeEntryDecoder} for bzip2). The input buffer is
 * kept and its position advanced as bytes are taken.
 */
interface StreamDecompressor extends AutoCloseable {
    /** The decompressor of {@code entry}'s method, or null for a stored entry. */
    static StreamDecompressor of(ArchiveEntry entry) {
        return switch (entry.method()) {
            case ZipFormat.DEFLATED -> new DeflateStream();
            case ZipFormat.ZSTD -> new ZstdStream();
            case ZipFormat.BZIP2 -> new Bzip2Stream();
            default -> null;
        };
    }

    /** The method's name for messages ("Deflate"). */
    String method();

    /** Takes compressed bytes from {@code input}'s position to its limit (replacing any left). */
    void setInput(ByteBuffer input);

    /** Writes decompressed bytes from {@code out}'s position on; returns how many (0 when it needs input or ended). */
    int decompress(ByteBuffer out) throws DataFormatException;

    /** Whether the compressed stream has ended. */
    boolean finished();

    /** Whether it can go on only with more input. */
    boolean needsInput();

    /** Whether the stream needs a preset dictionary (which Zip entries never have). */
    boolean needsDictionary();

    /** Input bytes given and not taken. */
    int remaining();

    @Override
    void close();
}
