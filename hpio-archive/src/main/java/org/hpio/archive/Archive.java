package org.hpio.archive;

import org.hpio.archive.order.Layout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Zip archive open for reading: its central directory (Zip64 included), the entries' data (stored or
 * Deflate), and a CRC check of every entry. Reads what {@link ArchiveBuilder}, Info-ZIP {@code zip} and
 * Python's {@code zipfile} write. All reads are positional, so several threads may read entries at once.
 * Owns its file channel: close the archive.
 */
public final class Archive implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final CentralDirectory directory;
    private final Map<String, ArchiveEntry> byName;

    private Archive(Path path, FileChannel channel, CentralDirectory directory) {
        this.path = path;
        this.channel = channel;
        this.directory = directory;
        this.byName = HashMap.newHashMap(directory.entries().size());
        directory.entries().forEach(e -> byName.putIfAbsent(e.name(), e));
    }

    /** Opens the archive at {@code file} and reads its central directory. */
    public static Archive open(Path file) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            return new Archive(file, channel, CentralDirectory.read(channel, file.toString()));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The archive's file. */
    public Path path() {
        return path;
    }

    /** The entries in central directory order. */
    public List<ArchiveEntry> entries() {
        return directory.entries();
    }

    /** The entry named {@code name} (the first, should a foreign archive hold it twice). */
    public Optional<ArchiveEntry> entry(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Where {@code entry}'s data starts, from its local header (which is checked against the directory). */
    public long dataOffset(ArchiveEntry entry) throws IOException {
        String where = "local header of entry " + entry.name();
        if (entry.localHeaderOffset() < 0 || entry.localHeaderOffset() > directory.dataLimit()) {
            throw new ArchiveFormatException(path.toString(), where + " at offset " + entry.localHeaderOffset()
                    + " lies outside the entry data");
        }
        ByteBuffer h = ChannelReads.read(channel, entry.localHeaderOffset(), ZipFormat.LOCAL_HEADER_SIZE,
                path.toString(), where);
        if (h.getInt(0) != ZipFormat.LOCAL_HEADER) {
            throw new ArchiveFormatException(path.toString(), "no " + where + " at offset "
                    + entry.localHeaderOffset());
        }
        int nameLength = Short.toUnsignedInt(h.getShort(26));
        long data = entry.localHeaderOffset() + ZipFormat.LOCAL_HEADER_SIZE + nameLength
                + Short.toUnsignedInt(h.getShort(28));
        if (entry.compressedSize() < 0 || data + entry.compressedSize() > directory.dataLimit()) {
            throw new ArchiveFormatException(path.toString(), "data of entry " + entry.name() + " at offset " + data
                    + " (" + entry.compressedSize() + " bytes) runs into the central directory");
        }
        checkLocalName(entry, nameLength, Short.toUnsignedInt(h.getShort(6)), where);
        return data;
    }

    private void checkLocalName(ArchiveEntry entry, int nameLength, int localFlags, String where)
            throws IOException {
        ByteBuffer name = ChannelReads.read(channel, entry.localHeaderOffset() + ZipFormat.LOCAL_HEADER_SIZE,
                nameLength, path.toString(), where);
        String localName = CentralDirectory.decodeName(name.array(), localFlags);
        if (!localName.equals(entry.name())) {
            throw new ArchiveFormatException(path.toString(), where + " names '" + localName + "'");
        }
    }

    /** The bytes a load of {@code entry} reads: from its local header to the end of its data. */
    public Layout.Extent extent(ArchiveEntry entry) throws IOException {
        return new Layout.Extent(entry.localHeaderOffset(), dataOffset(entry) + entry.compressedSize());
    }

    /** The layout of the archive's file entries, for seek counting. */
    public Layout layout() throws IOException {
        Map<String, Layout.Extent> extents = new HashMap<>();
        for (ArchiveEntry e : entries()) {
            if (!e.isDirectory()) {
                extents.putIfAbsent(e.name(), extent(e));
            }
        }
        return Layout.of(extents);
    }

    /**
     * A stream of {@code entry}'s uncompressed bytes, checked against its sizes and CRC-32 at the end; the
     * caller closes it (the archive stays open).
     */
    public InputStream openStream(ArchiveEntry entry) throws IOException {
        if (entry.isEncrypted()) {
            throw new ArchiveFormatException(path.toString(), "entry " + entry.name() + " is encrypted");
        }
        if (entry.method() != ZipFormat.STORED && entry.method() != ZipFormat.DEFLATED) {
            throw new ArchiveFormatException(path.toString(), "entry " + entry.name() + " uses compression "
                    + entry.methodName() + "; only stored and Deflate are supported");
        }
        return new EntryInputStream(channel, path.toString(), entry, dataOffset(entry));
    }

    /** The whole uncompressed content of {@code entry} (less than 2 GiB), checked. */
    public byte[] read(ArchiveEntry entry) throws IOException {
        if (entry.uncompressedSize() > Integer.MAX_VALUE - 8) {
            throw new IOException("entry " + entry.name() + " of " + entry.uncompressedSize()
                    + " bytes does not fit in an array; use openStream");
        }
        try (InputStream in = openStream(entry)) {
            return in.readAllBytes();
        }
    }

    /** Reads {@code entry} to its end, checking sizes and CRC-32; throws naming the entry when they fail. */
    public void verify(ArchiveEntry entry) throws IOException {
        try (InputStream in = openStream(entry)) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
        }
    }

    /** Verifies every entry; returns the problems found (empty when all are sound). */
    public List<IOException> verifyAll() {
        List<IOException> problems = new ArrayList<>();
        for (ArchiveEntry entry : entries()) {
            try {
                verify(entry);
            } catch (IOException e) {
                problems.add(e);
            }
        }
        return problems;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
