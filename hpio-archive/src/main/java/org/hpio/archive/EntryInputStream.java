package org.hpio.archive;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;
import java.util.zip.DataFormatException;

/**
 * The uncompressed bytes of one entry, read with positional reads from the archive's channel (which this
 * stream does not own) and decompressed when the entry is compressed (Deflate, Zstandard, bzip2). At the end of
 * the data its {@link EntryCheck} checks that the size and the CRC-32 match the central directory (bytes after
 * the end of the compressed stream are said in the archive's warnings), and throws
 * {@link ArchiveFormatException} naming the entry when they do not. Owns its {@link StreamDecompressor}; close it.
 */
final class EntryInputStream extends InputStream {
    private static final int CHUNK = 1 << 16;

    private final FileChannel channel;
    private final String archive;
    private final ArchiveEntry entry;
    private final StreamDecompressor inflater;
    private final byte[] input;
    private final EntryCheck check;
    private long position;
    private long compressedLeft;
    private boolean ended;

    EntryInputStream(FileChannel channel, String archive, ArchiveEntry entry, long dataOffset,
                     ArchiveWarnings warnings) {
        this.channel = channel;
        this.check = new EntryCheck(archive, entry, warnings);
        this.archive = archive;
        this.entry = entry;
        this.position = dataOffset;
        this.compressedLeft = entry.compressedSize();
        this.inflater = StreamDecompressor.of(entry);
        this.input = new byte[(int) Math.min(CHUNK, Math.max(1, compressedLeft))];
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (ended) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int n = inflater == null ? readStored(b, off, len) : readInflated(b, off, len);
        if (n < 0) {
            ended = true;
            check.ended(inflater == null ? 0 : compressedLeft + inflater.remaining());
            return -1;
        }
        check.count(b, off, n);
        return n;
    }

    private int readStored(byte[] b, int off, int len) throws IOException {
        if (compressedLeft == 0) {
            return -1;
        }
        ByteBuffer target = ByteBuffer.wrap(b, off, (int) Math.min(len, compressedLeft));
        ChannelReads.readFully(channel, target, position, archive, "data of entry " + entry.name());
        int n = target.position() - off;
        position += n;
        compressedLeft -= n;
        return n;
    }

    private int readInflated(byte[] b, int off, int len) throws IOException {
        try {
            while (true) {
                int n = inflater.decompress(ByteBuffer.wrap(b, off, len));
                if (n > 0) {
                    return n;
                }
                if (inflater.finished()) {
                    return -1;
                }
                if (inflater.needsDictionary()) {
                    throw check.needsDictionary();
                }
                if (compressedLeft == 0) {
                    throw check.endsEarly(inflater.method());
                }
                fillInput();
            }
        } catch (DataFormatException e) {
            throw check.badData(inflater.method(), e);
        }
    }

    private void fillInput() throws IOException {
        int n = (int) Math.min(input.length, compressedLeft);
        ChannelReads.readFully(channel, ByteBuffer.wrap(input, 0, n), position, archive,
                "data of entry " + entry.name());
        position += n;
        compressedLeft -= n;
        inflater.setInput(ByteBuffer.wrap(input, 0, n));
    }

    @Override
    public void close() {
        ended = true;
        if (inflater != null) {
            inflater.close();
        }
    }
}
