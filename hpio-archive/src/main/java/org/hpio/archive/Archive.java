package org.hpio.archive;

import org.hpio.archive.order.Layout;

import org.hpio.archive.cache.FileCache;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * A Zip archive open for reading: its central directory (Zip64 included) parsed once into a compact index
 * (lookup by path without a scan), the entries' data (stored or Deflate), and a CRC check of every entry. Reads
 * what {@link ArchiveBuilder}, Info-ZIP {@code zip}, Python's {@code zipfile} and {@code java.util.zip} write.
 *
 * <h2>Loading (002 §3.1, §3.2, §3.4, §3.5; DESIGN.md "How data flows")</h2>
 * {@link #load(String)} returns a {@link LoadedFile}: name, then (with a {@link LoadOptions#fileCache() file
 * cache}) a cache hit, else an aligned block plan whose blocks are read asynchronously at the queue depth, each
 * block inflated while the next ones are read; a stored entry is read straight into its destination. The
 * CRC-32 is checked before anything is returned: corrupt data is never returned as valid. The small block
 * cache keeps the partial blocks that neighbouring entries share. {@link #stream(String, ChunkConsumer)} does
 * the same with bounded memory for files too large to hold.
 *
 * <h2>Bad input</h2>
 * Truncated, malformed or hostile archives fail {@link #open} or {@link #load} with an
 * {@link ArchiveFormatException} naming the archive and the entry or offset: see {@link CentralDirectory} for
 * what opening checks, and {@link #load(String)} for what loading checks (sizes a method cannot produce are
 * refused before memory is allocated for them).
 *
 * <p>All reads are positional, so several threads may load at once. Owns its file handles: close the archive
 * after the loads are done (loaded files stay valid: they own their memory).
 */
public final class Archive implements AutoCloseable {
    /** Deflate's greatest expansion: 258 bytes from one bit, about 1032:1 (zlib's technical note). */
    static final long MAX_DEFLATE_RATIO = 1032;

    private final Path path;
    private final FileChannel channel;
    private final CentralDirectory directory;
    private final LoadOptions options;
    private final BlockIo io;

    private Archive(Path path, FileChannel channel, CentralDirectory directory, LoadOptions options, BlockIo io) {
        this.path = path;
        this.channel = channel;
        this.directory = directory;
        this.options = options;
        this.io = io;
    }

    /** Opens the archive at {@code file} with the {@link LoadOptions#defaults() default load options}. */
    public static Archive open(Path file) throws IOException {
        return open(file, LoadOptions.defaults());
    }

    /** Opens the archive at {@code file} and reads its central directory; loads use {@code options}. */
    public static Archive open(Path file, LoadOptions options) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        BlockIo io = null;
        try {
            CentralDirectory directory = CentralDirectory.read(channel, file.toString());
            io = BlockIo.open(file, options, true);
            return new Archive(file, channel, directory, options, io);
        } catch (IOException | RuntimeException e) {
            if (io != null) {
                io.close();
            }
            channel.close();
            throw e;
        }
    }

    /** The options loads use. */
    public LoadOptions options() {
        return options;
    }

    /** The archive's file. */
    public Path path() {
        return path;
    }

    /** The entries in central directory order. */
    public List<ArchiveEntry> entries() {
        return directory.entries();
    }

    /** The entry named {@code name} (the first, should a foreign archive hold it twice); a hash lookup. */
    public Optional<ArchiveEntry> entry(String name) {
        int i = directory.find(name);
        return i < 0 ? Optional.empty() : Optional.of(directory.entry(i));
    }

    /** Whether the archive holds a file (not a directory entry) at {@code path}. */
    public boolean contains(String path) {
        int i = directory.find(path);
        return i >= 0 && !directory.entry(i).isDirectory();
    }

    /** The number of entries. */
    public int size() {
        return directory.size();
    }

    /** Where {@code entry}'s data starts, from its local header (which is checked against the directory). */
    public long dataOffset(ArchiveEntry entry) throws IOException {
        return dataOffset(entry, null, 0);
    }

    /**
     * {@link #dataOffset(ArchiveEntry)}, reading the local header from {@code bytes} (the file's bytes from
     * offset {@code bytesAt} on) when they hold it, else from the file.
     */
    long dataOffset(ArchiveEntry entry, ByteBuffer bytes, long bytesAt) throws IOException {
        long limit = spanEnd(entry);
        String where = "local header of entry " + entry.name();
        if (entry.localHeaderOffset() < 0 || entry.localHeaderOffset() > directory.dataLimit()) {
            throw new ArchiveFormatException(path.toString(), where + " at offset " + entry.localHeaderOffset()
                    + " lies outside the entry data");
        }
        byte[] centralName = entry.name().getBytes(StandardCharsets.UTF_8);
        long wanted = Math.min(ZipFormat.LOCAL_HEADER_SIZE + (long) centralName.length,
                directory.dataLimit() - entry.localHeaderOffset());
        if (wanted < ZipFormat.LOCAL_HEADER_SIZE) {
            throw new ArchiveFormatException(path.toString(), "no " + where + " at offset "
                    + entry.localHeaderOffset() + ": the central directory starts there");
        }
        long inBytes = entry.localHeaderOffset() - bytesAt;
        ByteBuffer h = bytes != null && inBytes >= 0 && inBytes + wanted <= bytes.limit()
                ? bytes.slice((int) inBytes, bytes.limit() - (int) inBytes).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                : ChannelReads.read(channel, entry.localHeaderOffset(), (int) wanted, path.toString(), where);
        if (h.getInt(0) != ZipFormat.LOCAL_HEADER) {
            throw new ArchiveFormatException(path.toString(), "no " + where + " at offset "
                    + entry.localHeaderOffset());
        }
        int nameLength = Short.toUnsignedInt(h.getShort(26));
        long data = entry.localHeaderOffset() + ZipFormat.LOCAL_HEADER_SIZE + nameLength
                + Short.toUnsignedInt(h.getShort(28));
        if (entry.compressedSize() < 0 || data > limit || entry.compressedSize() > limit - data) {
            throw new ArchiveFormatException(path.toString(), "data of entry " + entry.name() + " at offset " + data
                    + " (" + entry.compressedSize() + " bytes) runs past offset " + limit
                    + (limit == directory.dataLimit() ? " (the central directory)" : " (the next entry)"));
        }
        checkLocalName(entry, h, nameLength, Short.toUnsignedInt(h.getShort(6)), where);
        return data;
    }

    /**
     * Where {@code entry}'s bytes must have ended: the next local header in offset order, or the central
     * directory (for an entry that is not this archive's own: the central directory).
     */
    long spanEnd(ArchiveEntry entry) {
        int i = directory.find(entry.name());
        return i >= 0 && directory.entry(i).equals(entry) ? directory.dataEnd(i) : directory.dataLimit();
    }

    private void checkLocalName(ArchiveEntry entry, ByteBuffer header, int nameLength, int localFlags, String where)
            throws IOException {
        ByteBuffer name = ZipFormat.LOCAL_HEADER_SIZE + nameLength <= header.limit()
                ? header.slice(ZipFormat.LOCAL_HEADER_SIZE, nameLength)
                : ChannelReads.read(channel, entry.localHeaderOffset() + ZipFormat.LOCAL_HEADER_SIZE, nameLength,
                path.toString(), where);
        byte[] bytes = new byte[nameLength];
        name.get(0, bytes);
        String localName = CentralDirectory.decodeName(bytes, localFlags);
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
            throw new ArchiveFormatException(path.toString(), "unsupported method " + entry.method() + " in entry "
                    + entry.name());
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

    // ---- loading ----

    /**
     * Loads the file at {@code path} (an entry name; "." components are dropped, a path leaving the root is
     * refused). The result is checked (sizes, CRC-32) and owned by the caller, who closes it (see
     * {@link LoadedFile}).
     *
     * <p>Before any memory is allocated, the entry must be readable: stored or Deflate, not encrypted, a stored
     * entry's sizes equal, a Deflate entry's size at most {@value #MAX_DEFLATE_RATIO} times its compressed size,
     * its data inside the archive and before the next entry.
     *
     * @throws NoSuchFileException when the archive holds no file at {@code path}
     * @throws ArchiveFormatException when the entry is damaged or cannot be read, naming it
     */
    public LoadedFile load(String path) throws IOException {
        return load(requireFile(path));
    }

    /** Loads {@code entry} (one of this archive's); see {@link #load(String)}. */
    public LoadedFile load(ArchiveEntry entry) throws IOException {
        long data = checkLoadable(entry);
        FileCache cache = options.fileCache();
        if (cache != null) {
            MemorySegment view = cache.get(cacheKey(entry), entry.uncompressedSize(),
                    (name, destination) -> decodeInto(entry, data, destination));
            io.countLoad(entry.uncompressedSize());
            return new LoadedFile(entry.name(), view, () -> cache.release(view));
        }
        Arena arena = Arena.ofShared();
        try {
            MemorySegment view = entry.method() == ZipFormat.STORED ? readStored(entry, data, arena)
                    : decodeInto(entry, data, io.allocate(arena, entry.uncompressedSize())
                    .asSlice(0, entry.uncompressedSize()));
            io.countLoad(entry.uncompressedSize());
            return new LoadedFile(entry.name(), view, arena::close);
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /**
     * Loads {@code entry} into {@code destination}, which must be exactly its size; on an error the
     * destination's contents are undefined (never valid data).
     */
    public void loadInto(ArchiveEntry entry, MemorySegment destination) throws IOException {
        long data = checkLoadable(entry);
        if (destination.byteSize() != entry.uncompressedSize()) {
            throw new IllegalArgumentException("destination of " + destination.byteSize() + " bytes for entry "
                    + entry.name() + " of " + entry.uncompressedSize());
        }
        decodeInto(entry, data, destination);
        io.countLoad(entry.uncompressedSize());
    }

    /**
     * Streams the file at {@code path} to {@code consumer} in chunks of up to 256 KiB, with memory bounded by
     * the queue depth's blocks and one chunk whatever the file's size. Only when this method returns normally
     * were sizes and CRC-32 right: a consumer must treat what it got as unchecked until then.
     */
    public void stream(String path, ChunkConsumer consumer) throws IOException {
        ArchiveEntry entry = requireFile(path);
        long data = checkLoadable(entry);
        try (Arena arena = Arena.ofConfined();
             EntryDecoder decoder = decoder(entry, data)) {
            ByteBuffer chunk = arena.allocate(Math.max(options.blockSize(), 256 << 10)).asByteBuffer();
            while (true) {
                chunk.clear();
                if (decoder.read(chunk) < 0) {
                    break;
                }
                consumer.accept(chunk.flip().asReadOnlyBuffer());
            }
        }
        io.countLoad(entry.uncompressedSize());
    }

    /**
     * A loader of {@code paths} (entry names, in the order the caller will ask for them) that works ahead of the
     * caller as {@code lookAhead} says; see {@link ArchiveLoader}. The caller closes it before the archive.
     */
    public ArchiveLoader loader(List<String> paths, LookAhead lookAhead) throws IOException {
        return new ArchiveLoader(this, paths, lookAhead);
    }

    /** What loads of this archive did so far. */
    public LoadStats stats() {
        return io.stats();
    }

    ArchiveEntry requireFile(String path) throws IOException {
        String name;
        try {
            name = EntryNames.of(path);
        } catch (IllegalArgumentException e) {
            throw new NoSuchFileException(this.path + "!" + path, null, e.getMessage());
        }
        int i = directory.find(name);
        if (i < 0 || directory.entry(i).isDirectory()) {
            throw new NoSuchFileException(this.path + "!" + name, null, i < 0 ? "no such entry" : "a directory");
        }
        return directory.entry(i);
    }

    /** Checks what can be checked before allocating; returns where the data starts. */
    private long checkLoadable(ArchiveEntry entry) throws IOException {
        checkReadable(entry);
        return dataOffset(entry);
    }

    /** Checks what the central directory alone tells: method, encryption, sizes (no I/O). */
    void checkReadable(ArchiveEntry entry) throws ArchiveFormatException {
        String archive = path.toString();
        if (entry.isEncrypted()) {
            throw new ArchiveFormatException(archive, "entry " + entry.name() + " is encrypted");
        }
        if (entry.method() != ZipFormat.STORED && entry.method() != ZipFormat.DEFLATED) {
            throw new ArchiveFormatException(archive, "unsupported method " + entry.method() + " in entry "
                    + entry.name());
        }
        if (entry.method() == ZipFormat.STORED && entry.compressedSize() != entry.uncompressedSize()) {
            throw new ArchiveFormatException(archive, "entry " + entry.name() + " is stored but says "
                    + entry.uncompressedSize() + " bytes in " + entry.compressedSize());
        }
        if (entry.method() == ZipFormat.DEFLATED
                && entry.uncompressedSize() / MAX_DEFLATE_RATIO > entry.compressedSize() + 1) {
            throw new ArchiveFormatException(archive, "entry " + entry.name() + " claims " + entry.uncompressedSize()
                    + " bytes from " + entry.compressedSize() + " compressed: more than Deflate can expand");
        }
    }

    /**
     * A stored entry straight into memory of {@code arena}, read in place from its local header on (so that
     * entries loaded in archive order are read contiguously, with no seek: 002 §4.3), aligned out to O_DIRECT's
     * grid; the view is the data's part of that memory.
     */
    private MemorySegment readStored(ArchiveEntry entry, long data, Arena arena) throws IOException {
        CRC32 crc = new CRC32();
        MemorySegment view = readRaw(entry, data, arena, crc);
        checkCrc(entry, crc);
        return view;
    }

    /**
     * The entry's compressed bytes read into memory of {@code arena} from its local header on, aligned out to
     * O_DIRECT's grid, in aligned pieces at the queue depth; the result is the data's part of that memory.
     * When {@code crc} is given the data's bytes are added to it as the pieces arrive.
     */
    private MemorySegment readRaw(ArchiveEntry entry, long data, Arena arena, CRC32 crc) throws IOException {
        long size = entry.compressedSize();
        int align = io.offsetAlignment();
        long header = entry.localHeaderOffset();
        long from = header - header % align;
        long to = Math.min(io.fileSize(), (data + size + align - 1) / align * align);
        MemorySegment memory = io.allocate(arena, to - from).asSlice(0, to - from);
        StraightReads.read(io, from, memory, crc, data - from, size, path + ": entry " + entry.name());
        return memory.asSlice(data - from, size);
    }

    /** Whether {@code entry} is inflated whole (read whole, then one decompressor call). */
    private boolean inflatesWhole(ArchiveEntry entry) {
        return entry.method() == ZipFormat.DEFLATED && options.inflation() != LoadOptions.Inflation.BLOCKS
                && entry.compressedSize() <= LoadOptions.Inflation.MAX_WHOLE_BYTES
                && entry.uncompressedSize() <= Integer.MAX_VALUE - 8;
    }

    /**
     * Decodes {@code entry} into {@code destination} (exactly its size): whole when {@link #inflatesWhole},
     * else through the block pipeline.
     */
    private MemorySegment decodeInto(ArchiveEntry entry, long data, MemorySegment destination) throws IOException {
        if (!inflatesWhole(entry)) {
            return decodeBlocks(entry, data, destination);
        }
        try (Arena scratch = Arena.ofConfined()) { // the compressed bytes: this method's, freed on return
            MemorySegment compressed = readRaw(entry, data, scratch, null);
            WholeEntryDecoder.decode(path.toString(), entry, compressed, destination,
                    options.inflation() == LoadOptions.Inflation.WHOLE);
        }
        return destination;
    }

    /** Decodes {@code entry} through the block pipeline into {@code destination} (exactly its size). */
    private MemorySegment decodeBlocks(ArchiveEntry entry, long data, MemorySegment destination)
            throws IOException {
        try (EntryDecoder decoder = decoder(entry, data)) {
            ByteBuffer out = destination.asByteBuffer();
            while (out.hasRemaining()) {
                if (decoder.read(out) < 0) {
                    break;
                }
            }
            ByteBuffer probe = ByteBuffer.allocate(1);
            while (decoder.read(probe.clear()) >= 0) {
                // the entry must end here: a byte more fails inside read; -1 means ended and checked
            }
            if (out.hasRemaining()) {
                throw new IllegalStateException("entry " + entry.name() + " ended early without an error");
            }
        }
        return destination;
    }

    private EntryDecoder decoder(ArchiveEntry entry, long data) {
        return new EntryDecoder(path.toString(), entry,
                new BlockStream(io, data, data + entry.compressedSize(), path + ": entry " + entry.name()));
    }

    private void checkCrc(ArchiveEntry entry, CRC32 crc) throws ArchiveFormatException {
        if (crc.getValue() != entry.crc()) {
            throw new ArchiveFormatException(path.toString(), "entry " + entry.name()
                    + String.format(" has CRC-32 %08x, the directory says %08x", crc.getValue(), entry.crc()));
        }
    }

    private String cacheKey(ArchiveEntry entry) {
        return path + "!" + entry.name();
    }

    @Override
    public void close() throws IOException {
        try {
            io.close();
        } finally {
            channel.close();
        }
    }
}
