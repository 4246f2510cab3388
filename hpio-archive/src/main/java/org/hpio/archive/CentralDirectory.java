package org.hpio.archive;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A Zip file's central directory (PKWARE APPNOTE §4.3.12-16), parsed once into a compact index: the directory's
 * raw bytes, four numbers per entry (sizes and offsets with Zip64 values applied), and an open-addressing hash
 * table from name to entry, so that a lookup by path costs one hash and one byte comparison, with no scan and
 * no object per entry. {@link ArchiveEntry} records are made on demand.
 *
 * <p>Reading: finds the end of central directory record and, when there is one, the Zip64 record, checking
 * each candidate before trusting it ({@link EndOfDirectory}: tolerates a trailer after the record, and a
 * locator signature inside an entry name), and parses every central header, taking
 * sizes and offsets from the Zip64 extra field (§4.5.3) where the 32-bit fields hold the marker. Names are UTF-8
 * when flag bit 11 says so, else code page 437.
 *
 * <p>Hostile input (002 gives none of this; it is ours): counts and sizes are checked against the bytes that
 * hold them before anything is allocated; names that are absolute, hold a {@code ..} component or a NUL are
 * refused; entries whose data would overlap the next local header (in offset order) are refused, which also
 * refuses several entries sharing one data stream (the overlapping "zip bomb"). Each entry's data must end by
 * its {@link #dataEnd(int) limit}: the next local header, or the start of the directory.
 */
final class CentralDirectory {
    private static final Charset CP437 = Charset.isSupported("IBM437") ? Charset.forName("IBM437")
            : StandardCharsets.ISO_8859_1;

    private final String archive;
    private final byte[] raw;
    private final int count;
    private final int[] headerAt;
    private final long[] compressed;
    private final long[] uncompressed;
    private final long[] localOffset;
    private final long[] dataEnd;
    /** Where each entry's data starts, once a load has checked its local header; 0 until then. */
    private final AtomicLongArray checkedDataStart;
    private final long dataLimit;
    private final long endRecordAt;
    private final long trailingBytes;
    private final long prefixBytes;
    private final NameTable names;
    private final List<ArchiveEntry> entries = new EntryList();

    private CentralDirectory(String archive, byte[] raw, int count, long dataLimit, long endRecordAt,
                             long trailingBytes, long prefixBytes) {
        this.archive = archive;
        this.endRecordAt = endRecordAt;
        this.trailingBytes = trailingBytes;
        this.prefixBytes = prefixBytes;
        this.raw = raw;
        this.count = count;
        this.headerAt = new int[count];
        this.compressed = new long[count];
        this.uncompressed = new long[count];
        this.localOffset = new long[count];
        this.dataEnd = new long[count];
        this.checkedDataStart = new AtomicLongArray(count);
        this.dataLimit = dataLimit;
        this.names = new NameTable(count);
    }

    /** Reads the directory of the Zip file open on {@code channel}; {@code archive} names it in errors. */
    static CentralDirectory read(FileChannel channel, String archive) throws IOException {
        EndOfDirectory.Found end = EndOfDirectory.find(channel, archive);
        byte[] raw = ChannelReads.read(channel, end.offset(), (int) end.size(), archive, "central directory").array();
        // The headers the directory's bytes hold, when more than the end record counts: an archive of more than
        // 65,535 entries written without Zip64 stores the count modulo 65,536. java.util.zip, Python's zipfile
        // and Info-ZIP read every header within the directory's size; so does hpio (it read only `count`).
        int count = (int) Math.max(end.count(), headersIn(raw));
        CentralDirectory directory = new CentralDirectory(archive, raw, count, end.offset(),
                end.recordAt(), end.trailingBytes(), end.prefixBytes());
        directory.parseAll(end.offset());
        directory.checkOverlaps();
        return directory;
    }

    /** How many whole central headers {@code raw} holds back to back from its start. */
    static int headersIn(byte[] raw) {
        int n = 0;
        int p = 0;
        while (raw.length - p >= ZipFormat.CENTRAL_HEADER_SIZE && le32(raw, p) == ZipFormat.CENTRAL_HEADER) {
            int total = ZipFormat.CENTRAL_HEADER_SIZE + le16(raw, p + 28) + le16(raw, p + 30) + le16(raw, p + 32);
            if (raw.length - p < total) {
                break;
            }
            n++;
            p += total;
        }
        return n;
    }

    private static int le16(byte[] b, int p) {
        return (b[p] & 0xff) | (b[p + 1] & 0xff) << 8;
    }

    private static int le32(byte[] b, int p) {
        return le16(b, p) | le16(b, p + 2) << 16;
    }

    /** An entry name: UTF-8 when flag bit 11 is set, else code page 437. */
    static String decodeName(byte[] name, int flags) {
        return new String(name, (flags & ZipFormat.FLAG_UTF8) != 0 ? StandardCharsets.UTF_8 : CP437);
    }

    /** The entries in directory order (a view: each {@code get} makes the record). */
    List<ArchiveEntry> entries() {
        return entries;
    }

    int size() {
        return count;
    }

    /** The offset where entry data must end (the start of the central directory). */
    long dataLimit() {
        return dataLimit;
    }

    /** Where the end of central directory record starts. */
    long endRecordAt() {
        return endRecordAt;
    }

    /** How many bytes follow the end of central directory record and its comment (a trailer; usually 0). */
    long trailingBytes() {
        return trailingBytes;
    }

    /** How many bytes come before the archive (a self-extractor's stub; usually 0): its offsets are shifted. */
    long prefixBytes() {
        return prefixBytes;
    }

    /** Where entry {@code i}'s data must have ended: the next local header in offset order, or the directory. */
    long dataEnd(int i) {
        return dataEnd[i];
    }

    /**
     * Where entry {@code i}'s data starts, as {@link #rememberDataStart} recorded after its local header was
     * checked, or 0 when no load has checked it yet (data never starts at 0: a local header comes first).
     */
    long checkedDataStart(int i) {
        return checkedDataStart.get(i);
    }

    /** Records that entry {@code i}'s local header was checked and its data starts at {@code offset}. */
    void rememberDataStart(int i, long offset) {
        checkedDataStart.set(i, offset);
    }

    /** The length in bytes of entry {@code i}'s name as the central directory stores it. */
    int nameBytes(int i) {
        return u16(headerAt[i] + 28);
    }

    /** The index of the entry named {@code name} (the first, if a foreign archive holds it twice), or -1. */
    int find(String name) {
        return names.find(name);
    }

    /** The record of entry {@code i}. */
    ArchiveEntry entry(int i) {
        int p = headerAt[i];
        return new ArchiveEntry(name(i), u16(p + 10), u16(p + 8), Integer.toUnsignedLong(i32(p + 16)),
                compressed[i], uncompressed[i], localOffset[i], i32(p + 12));
    }

    /** The name of entry {@code i}. */
    String name(int i) {
        String decoded = names.nonAscii.isEmpty() ? null : names.nonAscii.get(i);
        if (decoded != null) {
            return decoded;
        }
        int p = headerAt[i];
        return new String(raw, p + ZipFormat.CENTRAL_HEADER_SIZE, u16(p + 28), StandardCharsets.ISO_8859_1);
    }

    // ---- parsing ----

    private void parseAll(long directoryOffset) throws ArchiveFormatException {
        int p = 0;
        for (int i = 0; i < count; i++) {
            p = parseHeader(i, p, directoryOffset);
        }
    }

    /** Parses the header of entry {@code index} at {@code p}; returns where the next one starts. */
    private int parseHeader(int index, int p, long directoryOffset) throws ArchiveFormatException {
        if (raw.length - p < ZipFormat.CENTRAL_HEADER_SIZE || i32(p) != ZipFormat.CENTRAL_HEADER) {
            throw new ArchiveFormatException(archive, "central directory entry " + index + " at offset "
                    + (directoryOffset + p) + " has no central header signature");
        }
        int nameLength = u16(p + 28);
        int extraLength = u16(p + 30);
        int total = ZipFormat.CENTRAL_HEADER_SIZE + nameLength + extraLength + u16(p + 32);
        if (raw.length - p < total) {
            throw new ArchiveFormatException(archive, "central directory entry " + index + " at offset "
                    + (directoryOffset + p) + " runs past the end of the directory");
        }
        headerAt[index] = p;
        long[] sizes = {Integer.toUnsignedLong(i32(p + 24)), Integer.toUnsignedLong(i32(p + 20)),
                Integer.toUnsignedLong(i32(p + 42))};
        names.add(index);
        if (sizes[0] == ZipFormat.MAX_32 || sizes[1] == ZipFormat.MAX_32 || sizes[2] == ZipFormat.MAX_32) {
            applyZip64(p + ZipFormat.CENTRAL_HEADER_SIZE + nameLength, extraLength, sizes, name(index));
        }
        uncompressed[index] = sizes[0];
        compressed[index] = sizes[1];
        localOffset[index] = sizes[2] + prefixBytes;
        checkEntry(index, directoryOffset + p);
        return p + total;
    }

    private void checkEntry(int i, long at) throws ArchiveFormatException {
        if (mayBeUnsafe(i)) {
            String name = name(i);
            String unsafe = EntryNames.unsafeReason(name);
            if (unsafe != null) {
                throw new ArchiveFormatException(archive, "entry " + i + " at offset " + at + " has an unsafe name '"
                        + name + "': " + unsafe);
            }
        }
        if (compressed[i] < 0 || uncompressed[i] < 0 || localOffset[i] < 0 || localOffset[i] >= dataLimit
                || compressed[i] > dataLimit - localOffset[i]) {
            throw new ArchiveFormatException(archive, "entry " + name(i) + ": local header at offset " + localOffset[i]
                    + " with " + compressed[i] + " compressed bytes lies outside the entry data (which ends at "
                    + dataLimit + ")");
        }
    }

    /**
     * Whether entry {@code i}'s name needs {@link EntryNames#unsafeReason}: it is empty, not ASCII, starts with a
     * separator, or holds a NUL, a ':' or two dots in a row. A quick scan of the raw bytes, so that opening makes
     * no String for the usual name.
     */
    private boolean mayBeUnsafe(int i) {
        int p = headerAt[i] + ZipFormat.CENTRAL_HEADER_SIZE;
        int length = u16(headerAt[i] + 28);
        if (length == 0 || raw[p] == '/' || raw[p] == '\\') {
            return true;
        }
        for (int k = p; k < p + length; k++) {
            byte c = raw[k];
            if (c <= 0 || c == ':' || c == '.' && k + 1 < p + length && raw[k + 1] == '.') {
                return true;
            }
        }
        return false;
    }

    /** Replaces each of {uncompressed, compressed, offset} that holds the marker by the Zip64 extra's value. */
    private void applyZip64(int extraStart, int extraLength, long[] values, String name)
            throws ArchiveFormatException {
        int needed = 0;
        for (long v : values) {
            needed += v == ZipFormat.MAX_32 ? 8 : 0;
        }
        if (needed == 0) {
            return;
        }
        for (int q = extraStart; q + 4 <= extraStart + extraLength; ) {
            int id = u16(q);
            int size = u16(q + 2);
            if (id == ZipFormat.ZIP64_EXTRA_ID) {
                if (size < needed || q + 4 + size > extraStart + extraLength) {
                    break;
                }
                int r = q + 4;
                for (int i = 0; i < values.length; i++) {
                    if (values[i] == ZipFormat.MAX_32) {
                        values[i] = i64(r);
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

    /**
     * In offset order, each entry's local header, name and data must end by the next entry's local header;
     * sets {@link #dataEnd}. Archives are nearly always in offset order already, so the sort is skipped then.
     */
    private void checkOverlaps() throws ArchiveFormatException {
        Integer[] order = null;
        for (int i = 1; i < count && order == null; i++) {
            if (localOffset[i] <= localOffset[i - 1]) {
                order = new Integer[count];
                Arrays.setAll(order, k -> k);
                Arrays.sort(order, (a, b) -> Long.compare(localOffset[a], localOffset[b]));
            }
        }
        for (int k = 0; k < count; k++) {
            int i = order == null ? k : order[k];
            long next = k + 1 < count ? localOffset[order == null ? k + 1 : order[k + 1]] : dataLimit;
            long minimalEnd = localOffset[i] + ZipFormat.LOCAL_HEADER_SIZE + u16(headerAt[i] + 28) + compressed[i];
            if (minimalEnd > next) {
                throw new ArchiveFormatException(archive, "entry " + name(i) + " (local header at offset "
                        + localOffset[i] + ", " + compressed[i] + " compressed bytes) overlaps "
                        + (k + 1 < count ? "the entry whose local header is at offset " + next : "the central directory"));
            }
            dataEnd[i] = next;
        }
    }

    private int u16(int p) {
        return (raw[p] & 0xff) | (raw[p + 1] & 0xff) << 8;
    }

    private int i32(int p) {
        return u16(p) | u16(p + 2) << 16;
    }

    private long i64(int p) {
        return Integer.toUnsignedLong(i32(p)) | (long) i32(p + 4) << 32;
    }

    /** The entries as a list; each element is made when asked for. */
    private final class EntryList extends AbstractList<ArchiveEntry> implements RandomAccess {
        @Override
        public ArchiveEntry get(int index) {
            Objects.checkIndex(index, count);
            return entry(index);
        }

        @Override
        public int size() {
            return count;
        }
    }

    /**
     * Name to entry index, by open addressing over a power-of-two table of twice the entry count. Pure-ASCII
     * names (nearly all) are hashed and compared as the raw bytes of the directory; any other name is decoded
     * once and kept as a String (its UTF-8 bytes hashed), so a lookup is right for every name.
     */
    private final class NameTable {
        private final int[] slots;
        private final int[] hashes;
        private final int mask;
        private final Map<Integer, String> nonAscii = new HashMap<>();

        NameTable(int entries) {
            int size = Integer.highestOneBit(Math.max(4, entries * 2 - 1)) << 1;
            slots = new int[size];
            hashes = new int[entries];
            mask = size - 1;
        }

        void add(int index) {
            int p = headerAt[index] + ZipFormat.CENTRAL_HEADER_SIZE;
            int length = u16(headerAt[index] + 28);
            int hash;
            if (isAscii(raw, p, length)) {
                hash = hash(raw, p, length);
            } else {
                String name = decodeName(Arrays.copyOfRange(raw, p, p + length), u16(headerAt[index] + 8));
                nonAscii.put(index, name);
                byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
                hash = hash(utf8, 0, utf8.length);
            }
            hashes[index] = hash;
            for (int s = hash & mask; ; s = (s + 1) & mask) {
                if (slots[s] == 0) {
                    slots[s] = index + 1;
                    return;
                }
                if (hashes[slots[s] - 1] == hash && sameName(slots[s] - 1, index)) {
                    slots[s] = index + 1;   // a duplicate name: the last takes the slot, as java.util.zip and Python
                    return;
                }
            }
        }

        int find(String name) {
            byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
            int hash = hash(utf8, 0, utf8.length);
            for (int s = hash & mask; slots[s] != 0; s = (s + 1) & mask) {
                int i = slots[s] - 1;
                if (hashes[i] == hash && matches(i, name, utf8)) {
                    return i;
                }
            }
            return -1;
        }

        private boolean matches(int i, String name, byte[] utf8) {
            String decoded = nonAscii.isEmpty() ? null : nonAscii.get(i);
            if (decoded != null) {
                return decoded.equals(name);
            }
            int p = headerAt[i] + ZipFormat.CENTRAL_HEADER_SIZE;
            return Arrays.equals(raw, p, p + u16(headerAt[i] + 28), utf8, 0, utf8.length);
        }

        private boolean sameName(int a, int b) {
            return name(a).equals(name(b));
        }

        private static boolean isAscii(byte[] b, int from, int length) {
            for (int i = from; i < from + length; i++) {
                if (b[i] < 0) {
                    return false;
                }
            }
            return true;
        }

        /** FNV-1a, then mixed so that the low bits (the slot) depend on every byte. */
        private static int hash(byte[] b, int from, int length) {
            int h = 0x811c9dc5;
            for (int i = from; i < from + length; i++) {
                h = (h ^ (b[i] & 0xff)) * 0x01000193;
            }
            return h ^ (h >>> 16);
        }
    }
}
