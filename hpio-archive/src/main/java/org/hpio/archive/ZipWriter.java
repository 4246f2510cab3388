package org.hpio.archive;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

/**
 * Writes the records of a Zip file (PKWARE APPNOTE 6.3.x) in one pass: for each entry a local file header
 * (§4.3.7) followed by its data, packed end to end; then the central directory (§4.3.12) and the end of central
 * directory record (§4.3.16), preceded by the Zip64 end of central directory record and locator (§4.3.14-15)
 * when the entry count, the directory's size or its offset overflow their fields. Sizes are known before each
 * header is written, so no data descriptors are used. Entries whose sizes reach 4 GiB carry the Zip64 extra
 * field (§4.5.3) in both headers; an offset past 4 GiB puts it in the central header. Not thread-safe.
 */
final class ZipWriter {
    /** What the central directory needs to know about an entry already written. */
    private record Written(EncodedEntry entry, byte[] name, long localHeaderOffset) {
    }

    private final CountingOutputStream out;
    private final int dosDateTime;
    private final List<Written> written = new ArrayList<>();

    /** Writes to {@code out} (position 0 = start of the archive; the caller owns and flushes it). */
    ZipWriter(CountingOutputStream out, int dosDateTime) {
        this.out = out;
        this.dosDateTime = dosDateTime;
    }

    /** Writes the local header and the data of {@code entry}; {@code encoder} produces the data. */
    void add(EncodedEntry entry, EntryEncoder encoder) throws IOException {
        byte[] name = entry.name().getBytes(StandardCharsets.UTF_8);
        long offset = out.count();
        boolean zip64 = entry.needsZip64Sizes();
        ByteBuffer h = ZipFormat.littleEndian(ZipFormat.LOCAL_HEADER_SIZE + name.length + (zip64 ? 20 : 0));
        h.putInt(ZipFormat.LOCAL_HEADER).putShort((short) versionNeeded(entry, zip64))
                .putShort((short) flags(entry)).putShort((short) entry.method()).putInt(dosDateTime)
                .putInt((int) entry.crc())
                .putInt(zip64 ? (int) ZipFormat.MAX_32 : (int) entry.compressedSize())
                .putInt(zip64 ? (int) ZipFormat.MAX_32 : (int) entry.uncompressedSize())
                .putShort((short) name.length).putShort((short) (zip64 ? 20 : 0)).put(name);
        if (zip64) {
            h.putShort((short) ZipFormat.ZIP64_EXTRA_ID).putShort((short) 16)
                    .putLong(entry.uncompressedSize()).putLong(entry.compressedSize());
        }
        out.write(h.array());
        encoder.writeData(entry, out);
        written.add(new Written(entry, name, offset));
    }

    /** Writes the central directory and the end records. */
    void finish() throws IOException {
        long directoryOffset = out.count();
        for (Written w : written) {
            out.write(centralHeader(w));
        }
        long directorySize = out.count() - directoryOffset;
        int count = written.size();
        if (count >= ZipFormat.MAX_16 || directorySize >= ZipFormat.MAX_32 || directoryOffset >= ZipFormat.MAX_32) {
            writeZip64End(count, directorySize, directoryOffset);
        }
        ByteBuffer end = ZipFormat.littleEndian(ZipFormat.END_SIZE);
        end.putInt(ZipFormat.END_OF_CENTRAL_DIRECTORY).putShort((short) 0).putShort((short) 0)
                .putShort(ZipFormat.field16(count)).putShort(ZipFormat.field16(count))
                .putInt(ZipFormat.field32(directorySize)).putInt(ZipFormat.field32(directoryOffset))
                .putShort((short) 0);
        out.write(end.array());
    }

    private byte[] centralHeader(Written w) {
        EncodedEntry e = w.entry();
        long[] zip64Fields = LongStream.of(e.uncompressedSize(), e.compressedSize(),
                w.localHeaderOffset()).filter(v -> v >= ZipFormat.MAX_32).toArray();
        int extraLength = zip64Fields.length == 0 ? 0 : 4 + 8 * zip64Fields.length;
        ByteBuffer h = ZipFormat.littleEndian(ZipFormat.CENTRAL_HEADER_SIZE + w.name().length + extraLength);
        int version = versionNeeded(e, zip64Fields.length > 0);
        h.putInt(ZipFormat.CENTRAL_HEADER).putShort((short) (ZipFormat.MADE_BY_UNIX | version))
                .putShort((short) version).putShort((short) flags(e)).putShort((short) e.method())
                .putInt(dosDateTime).putInt((int) e.crc())
                .putInt(ZipFormat.field32(e.compressedSize())).putInt(ZipFormat.field32(e.uncompressedSize()))
                .putShort((short) w.name().length).putShort((short) extraLength).putShort((short) 0)
                .putShort((short) 0).putShort((short) 0).putInt(ZipFormat.REGULAR_FILE_0644)
                .putInt(ZipFormat.field32(w.localHeaderOffset())).put(w.name());
        if (extraLength > 0) {
            h.putShort((short) ZipFormat.ZIP64_EXTRA_ID).putShort((short) (extraLength - 4));
            for (long v : zip64Fields) {
                h.putLong(v);
            }
        }
        return h.array();
    }

    private void writeZip64End(int count, long directorySize, long directoryOffset) throws IOException {
        long recordOffset = out.count();
        ByteBuffer b = ZipFormat.littleEndian(ZipFormat.ZIP64_END_SIZE + ZipFormat.ZIP64_LOCATOR_SIZE);
        b.putInt(ZipFormat.ZIP64_END_OF_CENTRAL_DIRECTORY).putLong(ZipFormat.ZIP64_END_SIZE - 12)
                .putShort((short) (ZipFormat.MADE_BY_UNIX | ZipFormat.VERSION_ZIP64))
                .putShort((short) ZipFormat.VERSION_ZIP64).putInt(0).putInt(0)
                .putLong(count).putLong(count).putLong(directorySize).putLong(directoryOffset);
        b.putInt(ZipFormat.ZIP64_LOCATOR).putInt(0).putLong(recordOffset).putInt(1);
        out.write(b.array());
    }

    private static int versionNeeded(EncodedEntry e, boolean zip64) {
        int method = e.method() == ZipFormat.ZSTD ? ZipFormat.VERSION_ZSTD
                : e.method() == ZipFormat.DEFLATED ? ZipFormat.VERSION_DEFLATE : ZipFormat.VERSION_STORED;
        return zip64 ? Math.max(method, ZipFormat.VERSION_ZIP64) : method;
    }

    private static int flags(EncodedEntry e) {
        return e.name().chars().allMatch(c -> c < 0x80) ? 0 : ZipFormat.FLAG_UTF8;
    }
}
