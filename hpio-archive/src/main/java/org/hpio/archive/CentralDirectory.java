package org.hpio.archive;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a Zip file's central directory (PKWARE APPNOTE §4.3.12-16): finds the end of central directory record
 * (scanning back over a comment of up to 64 KiB), follows the Zip64 locator to the Zip64 record when there is
 * one, and parses every central header, taking sizes and offsets from the Zip64 extra field (§4.5.3) where the
 * 32-bit fields hold the marker. Names are UTF-8 when flag bit 11 says so, else code page 437.
 *
 * @param entries   the entries in directory order
 * @param dataLimit the offset where entry data must end (the start of the central directory)
 */
record CentralDirectory(List<ArchiveEntry> entries, long dataLimit) {
    private static final Charset CP437 = Charset.isSupported("IBM437") ? Charset.forName("IBM437")
            : StandardCharsets.ISO_8859_1;

    /** Reads the directory of the Zip file open on {@code channel}; {@code archive} names it in errors. */
    static CentralDirectory read(FileChannel channel, String archive) throws IOException {
        long fileSize = channel.size();
        long end = findEnd(channel, fileSize, archive);
        ByteBuffer e = ChannelReads.read(channel, end, ZipFormat.END_SIZE, archive, "end of central directory");
        if (e.getShort(4) != 0 || e.getShort(6) != 0) {
            throw new ArchiveFormatException(archive, "multi-disk archives are not supported");
        }
        long count = Short.toUnsignedInt(e.getShort(10));
        long size = Integer.toUnsignedLong(e.getInt(12));
        long offset = Integer.toUnsignedLong(e.getInt(16));
        long limit = end;
        if (end >= ZipFormat.ZIP64_LOCATOR_SIZE && ChannelReads.read(channel, end - ZipFormat.ZIP64_LOCATOR_SIZE,
                4, archive, "Zip64 locator").getInt(0) == ZipFormat.ZIP64_LOCATOR) {
            ByteBuffer locator = ChannelReads.read(channel, end - ZipFormat.ZIP64_LOCATOR_SIZE,
                    ZipFormat.ZIP64_LOCATOR_SIZE, archive, "Zip64 locator");
            limit = locator.getLong(8);
            ByteBuffer z = ChannelReads.read(channel, limit, ZipFormat.ZIP64_END_SIZE, archive,
                    "Zip64 end of central directory");
            if (z.getInt(0) != ZipFormat.ZIP64_END_OF_CENTRAL_DIRECTORY) {
                throw new ArchiveFormatException(archive, "no Zip64 end of central directory record at offset "
                        + limit + " where the locator points");
            }
            count = z.getLong(32);
            size = z.getLong(40);
            offset = z.getLong(48);
        }
        if (offset < 0 || size < 0 || count < 0 || offset + size > limit || size > Integer.MAX_VALUE - 8
                || count > size / ZipFormat.CENTRAL_HEADER_SIZE) {
            throw new ArchiveFormatException(archive, "central directory of " + count + " entries at offset "
                    + offset + ", " + size + " bytes, does not fit before offset " + limit);
        }
        ByteBuffer directory = ChannelReads.read(channel, offset, (int) size, archive, "central directory");
        List<ArchiveEntry> entries = new ArrayList<>((int) count);
        for (int i = 0; i < count; i++) {
            entries.add(parseHeader(directory, i, offset, archive));
        }
        return new CentralDirectory(List.copyOf(entries), offset);
    }

    /** An entry name: UTF-8 when flag bit 11 is set, else code page 437. */
    static String decodeName(byte[] name, int flags) {
        return new String(name, (flags & ZipFormat.FLAG_UTF8) != 0 ? StandardCharsets.UTF_8 : CP437);
    }

    /** The offset of the end of central directory record: the last signature whose comment ends the file. */
    private static long findEnd(FileChannel channel, long fileSize, String archive) throws IOException {
        if (fileSize < ZipFormat.END_SIZE) {
            throw new ArchiveFormatException(archive, "too short to be a Zip file (" + fileSize + " bytes)");
        }
        int tail = (int) Math.min(fileSize, ZipFormat.END_SIZE + ZipFormat.MAX_16);
        ByteBuffer b = ChannelReads.read(channel, fileSize - tail, tail, archive, "end of the file");
        for (int i = tail - ZipFormat.END_SIZE; i >= 0; i--) {
            if (b.getInt(i) == ZipFormat.END_OF_CENTRAL_DIRECTORY
                    && i + ZipFormat.END_SIZE + Short.toUnsignedInt(b.getShort(i + 20)) == tail) {
                return fileSize - tail + i;
            }
        }
        throw new ArchiveFormatException(archive, "no end of central directory record: not a Zip file");
    }

    private static ArchiveEntry parseHeader(ByteBuffer d, int index, long directoryOffset, String archive)
            throws ArchiveFormatException {
        int p = d.position();
        if (d.remaining() < ZipFormat.CENTRAL_HEADER_SIZE || d.getInt(p) != ZipFormat.CENTRAL_HEADER) {
            throw new ArchiveFormatException(archive, "central directory entry " + index + " at offset "
                    + (directoryOffset + p) + " has no central header signature");
        }
        int flags = Short.toUnsignedInt(d.getShort(p + 8));
        int nameLength = Short.toUnsignedInt(d.getShort(p + 28));
        int extraLength = Short.toUnsignedInt(d.getShort(p + 30));
        int commentLength = Short.toUnsignedInt(d.getShort(p + 32));
        int total = ZipFormat.CENTRAL_HEADER_SIZE + nameLength + extraLength + commentLength;
        if (d.remaining() < total) {
            throw new ArchiveFormatException(archive, "central directory entry " + index + " at offset "
                    + (directoryOffset + p) + " runs past the end of the directory");
        }
        byte[] nameBytes = new byte[nameLength];
        d.get(p + ZipFormat.CENTRAL_HEADER_SIZE, nameBytes);
        String name = decodeName(nameBytes, flags);
        long[] sizes = {Integer.toUnsignedLong(d.getInt(p + 24)), Integer.toUnsignedLong(d.getInt(p + 20)),
                Integer.toUnsignedLong(d.getInt(p + 42))};
        applyZip64(d, p + ZipFormat.CENTRAL_HEADER_SIZE + nameLength, extraLength, sizes, name, archive);
        d.position(p + total);
        return new ArchiveEntry(name, Short.toUnsignedInt(d.getShort(p + 10)), flags,
                Integer.toUnsignedLong(d.getInt(p + 16)), sizes[1], sizes[0], sizes[2], d.getInt(p + 12));
    }

    /** Replaces each of {uncompressed, compressed, offset} that holds the marker by the Zip64 extra's value. */
    private static void applyZip64(ByteBuffer d, int extraStart, int extraLength, long[] values, String name,
                                   String archive) throws ArchiveFormatException {
        int needed = 0;
        for (long v : values) {
            needed += v == ZipFormat.MAX_32 ? 8 : 0;
        }
        if (needed == 0) {
            return;
        }
        for (int q = extraStart; q + 4 <= extraStart + extraLength; ) {
            int id = Short.toUnsignedInt(d.getShort(q));
            int size = Short.toUnsignedInt(d.getShort(q + 2));
            if (id == ZipFormat.ZIP64_EXTRA_ID) {
                if (size < needed || q + 4 + size > extraStart + extraLength) {
                    break;
                }
                int r = q + 4;
                for (int i = 0; i < values.length; i++) {
                    if (values[i] == ZipFormat.MAX_32) {
                        values[i] = d.getLong(r);
                        r += 8;
                    }
                }
                return;
            }
            q += 4 + size;
        }
        throw new ArchiveFormatException(archive, "entry " + name
                + " has Zip64 markers but no Zip64 extra field with the values");
    }
}
