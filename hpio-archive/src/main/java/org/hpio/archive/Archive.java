package org.hpio.archive;


import org.hpio.archive.cache.FileCache;
import org.hpio.archive.simulation.Layout;
import org.hpio.internal.sys.Libbz2;
import org.hpio.internal.sys.Libzstd;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * <h2>Loading (002 §3.1, §3.2, §3.4, §3.5; docs/DESIGN.md "Archive loads")</h2>
 * {@link #load(String)} returns a {@link LoadedFile}: name, then (with a {@link LoadOptions#fileCache() file
 * cache}) a cache hit, else for a small entry one blocking read into a Java array ({@link WholeEntryReads}), for
 * a larger one an aligned block plan whose blocks are read asynchronously at the queue depth, each block
 * inflated while the next ones are read; a stored entry is read straight into its destination. The
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
    /** Zstandard's greatest expansion, about: a 4-byte RLE block (3-byte header, 1 byte) makes 128 KiB. */
    static final long MAX_ZSTD_RATIO = 32_768;

    private final Path path;
    private final FileChannel channel;
    private final CentralDirectory directory;
    private final LoadOptions options;
    private final BlockIo io;
    /** The archive through the page cache for blocking positional reads (small entries); owned, closed last. */
    private final NativeFile file;
    private final WholeEntryReads wholeReads;
    private final ArchiveWarnings warnings = new ArchiveWarnings();

    private Archive(Path path, FileChannel channel, CentralDirectory directory, LoadOptions options, BlockIo io,
                    NativeFile file) {
        this.path = path;
        this.channel = channel;
        this.directory = directory;
        this.options = options;
        this.io = io;
        this.file = file;
        this.wholeReads = new WholeEntryReads(this, directory, file, io,
                options.inflation() == LoadOptions.Inflation.WHOLE);
        if (directory.prefixBytes() > 0) {
            warnings.add(path + ": " + directory.prefixBytes() + " bytes before the archive (a prefix such as a "
                    + "self-extractor's stub); its offsets are taken from where it starts");
        }
        if (directory.trailingBytes() > 0) {
            warnings.add(path + ": " + directory.trailingBytes() + " bytes after the end of central directory "
                    + "record at offset " + directory.endRecordAt() + " (a trailer); ignored");
        }
    }

    /** Opens the archive at {@code file} with the {@link LoadOptions#defaults() default load options}. */
    public static Archive open(Path file) throws IOException {
        return open(file, LoadOptions.defaults());
    }

    /** Opens the archive at {@code file} and reads its central directory; loads use {@code options}. */
    public static Archive open(Path file, LoadOptions options) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        BlockIo io = null;
        NativeFile reads = null;
        try {
            CentralDirectory directory = CentralDirectory.read(channel, file.toString());
            io = BlockIo.open(file, options, true);
            reads = NativeFile.open(file, Syscalls.O_RDONLY);
            return new Archive(file, channel, directory, options, io, reads);
        } catch (IOException | RuntimeException e) {
            if (reads != null) {
                reads.close();
            }
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

    /**
     * What this archive holds that a strict reader would refuse but that is unambiguous, so is read anyway
     * (bytes after the end of central directory record; bytes after the end of an entry's compressed stream,
     * within its compressed size, once a read has met them), in the order found, each naming the archive.
     */
    public List<String> warnings() {
        return warnings.all();
    }

    /** The warning sink the decoders of this archive's entries report to. */
    ArchiveWarnings warningSink() {
        return warnings;
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
                ? bytes.slice((int) inBytes, bytes.limit() - (int) inBytes).order(ByteOrder.LITTLE_ENDIAN)
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
        checkMethod(entry);
        checkExpansion(entry);
        return new EntryInputStream(channel, path.toString(), entry, dataOffset(entry), warnings);
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
            in.transferTo(OutputStream.nullOutputStream());
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
     * <p>Which path a load takes (issue 16; 002 §3.1-3.2, §3.5):
     * <ul>
     *   <li>with a {@link LoadOptions#fileCache() file cache}: a hit is a view of the cached copy; a miss is
     *       decoded into the cache's memory as below;</li>
     *   <li>an entry of at most {@link LoadOptions#wholeReadBytes()} compressed bytes (256 KiB by default; not
     *       with O_DIRECT): one blocking {@code pread} on the caller's thread into a Java array (from its local
     *       header on the first time, its data alone once the header was checked), Deflate inflated from a
     *       per-thread array into the file's own array. Measured on a 2-core AMD EPYC, warm page cache ({@code bench archive}'s
     *       game workload, p50 1.4 KiB): 1.3 us per stored and 5.3 us per Deflate load, against {@code ZipFile}'s
     *       3.5 and 9.6 us, where the asynchronous path below took about 100 us (a thread hand-off through
     *       io_uring, a futex wake, a shared arena whose close is a JVM-wide handshake); from cold data a single
     *       small read has nothing to overlap, so the blocking read costs the device's latency and no more.
     *       A virtual thread takes the path below instead: a blocking native call would pin its carrier;</li>
     *   <li>a larger entry: aligned blocks read asynchronously at the queue depth straight into recycled off-heap
     *       memory (002 §3.4), Deflate inflated whole (libdeflate) or per block ({@link LoadOptions.Inflation}),
     *       where the queue depth overlaps the device's reads of one file.</li>
     * </ul>
     * Every path checks the same things and fails with the same messages.
     *
     * <p>Before any memory is allocated, the entry must be readable: stored or Deflate, not encrypted, a stored
     * entry's sizes equal, a Deflate entry's size at most {@value #MAX_DEFLATE_RATIO} times its compressed size,
     * its data inside the archive and before the next entry.
     *
     * @throws NoSuchFileException when the archive holds no file at {@code path}
     * @throws ArchiveFormatException when the entry is damaged or cannot be read, naming it
     */
    public LoadedFile load(String path) throws IOException {
        int index = requireIndex(path);
        return load(index, directory.entry(index));
    }

    /** {@link #load(String)} of an entry name (as {@link EntryNames#of} gives), or null when there is no such file. */
    LoadedFile loadIfPresent(String name) throws IOException {
        int i = directory.find(name);
        if (i < 0) {
            return null;
        }
        ArchiveEntry entry = directory.entry(i);
        return entry.isDirectory() ? null : load(i, entry);
    }

    /** Loads {@code entry} (one of this archive's); see {@link #load(String)}. */
    public LoadedFile load(ArchiveEntry entry) throws IOException {
        return load(indexOf(entry), entry);
    }

    private LoadedFile load(int index, ArchiveEntry entry) throws IOException {
        checkReadable(entry);
        FileCache cache = options.fileCache();
        if (cache != null) {
            MemorySegment view = cache.get(cacheKey(entry), entry.uncompressedSize(),
                    (name, destination) -> decodeInto(index, entry, destination));
            io.countLoad(entry.uncompressedSize());
            return new LoadedFile(entry.name(), view, () -> cache.release(view));
        }
        if (readsWhole(entry)) {
            MemorySegment contents = wholeReads.load(index, entry);
            io.countLoad(entry.uncompressedSize());
            return new LoadedFile(entry.name(), contents, LoadedFile.NOTHING_TO_RELEASE);
        }
        long data = dataOffset(index, entry);
        if (entry.method() == ZipFormat.STORED) {
            return readStored(entry, data);
        }
        MemorySegment memory = io.take(entry.uncompressedSize());
        try {
            decodeInto(index, entry, memory.asSlice(0, entry.uncompressedSize()));
        } catch (IOException | RuntimeException | Error e) {
            BlockIo.give(memory);
            throw e;
        }
        io.countLoad(entry.uncompressedSize());
        return new LoadedFile(entry.name(), memory.asSlice(0, entry.uncompressedSize()), () -> BlockIo.give(memory));
    }

    /**
     * Loads {@code entry} into {@code destination}, which must be exactly its size; on an error the
     * destination's contents are undefined (never valid data). Takes the path {@link #load(String)} would.
     */
    public void loadInto(ArchiveEntry entry, MemorySegment destination) throws IOException {
        checkReadable(entry);
        if (destination.byteSize() != entry.uncompressedSize()) {
            throw new IllegalArgumentException("destination of " + destination.byteSize() + " bytes for entry "
                    + entry.name() + " of " + entry.uncompressedSize());
        }
        decodeInto(indexOf(entry), entry, destination);
        io.countLoad(entry.uncompressedSize());
    }

    /**
     * Streams the file at {@code path} to {@code consumer} in chunks of up to 256 KiB, with memory bounded by
     * the queue depth's blocks and one chunk whatever the file's size. Only when this method returns normally
     * were sizes and CRC-32 right: a consumer must treat what it got as unchecked until then.
     */
    public void stream(String path, ChunkConsumer consumer) throws IOException {
        ArchiveEntry entry = requireFile(path);
        checkReadable(entry);
        long data = dataOffset(entry);
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

    /** The archive's reads (package-private: tests read its counts). */
    BlockIo io() {
        return io;
    }

    /** What loads of this archive did so far. */
    public LoadStats stats() {
        return io.stats();
    }

    ArchiveEntry requireFile(String path) throws IOException {
        return directory.entry(requireIndex(path));
    }

    /** The directory index of the file at {@code path}; see {@link #load(String)} for what is refused. */
    private int requireIndex(String path) throws IOException {
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
        return i;
    }

    /** The directory index of {@code entry}, or -1 when it is not one of this archive's entries. */
    private int indexOf(ArchiveEntry entry) {
        int i = directory.find(entry.name());
        return i >= 0 && directory.entry(i).equals(entry) ? i : -1;
    }

    /** {@link #dataOffset(ArchiveEntry)}, remembered per entry once checked (the archive's bytes do not change). */
    private long dataOffset(int index, ArchiveEntry entry) throws IOException {
        long known = index >= 0 ? directory.checkedDataStart(index) : 0;
        if (known != 0) {
            return known;
        }
        long data = dataOffset(entry);
        if (index >= 0) {
            directory.rememberDataStart(index, data);
        }
        return data;
    }

    /**
     * Whether {@code entry} is read whole by one blocking read ({@link WholeEntryReads}; see {@link #load}): not
     * from a virtual thread, which a blocking native call would pin to its carrier for the device's latency
     * (the asynchronous path parks it instead).
     */
    private boolean readsWhole(ArchiveEntry entry) {
        return !options.direct() && entry.compressedSize() <= options.wholeReadBytes()
                && !Thread.currentThread().isVirtual()
                && entry.uncompressedSize() <= Integer.MAX_VALUE - 8;
    }

    /**
     * Checks, before memory of the entry's size is allocated, what the central directory tells (method,
     * encryption, sizes: no I/O) and, for a bzip2 entry claiming more than Deflate could expand, that its data
     * really holds that much ({@link #checkBzip2Claim}).
     */
    void checkReadable(ArchiveEntry entry) throws IOException {
        checkMethod(entry);
        if (entry.method() == ZipFormat.STORED && entry.compressedSize() != entry.uncompressedSize()) {
            throw problem(entry, "is stored but says " + entry.uncompressedSize() + " bytes in "
                    + entry.compressedSize());
        }
        checkExpansion(entry);
        checkBzip2Claim(entry);
    }

    /**
     * bzip2's expansion has no useful bound (a block of some 40 bytes can make 45 MB), so a few compressed bytes
     * may claim up to 4 GiB, which a load would allocate before decoding showed the claim false (an
     * OutOfMemoryError from a hostile archive, found by {@code ArchiveOpenFuzzTest}). An entry claiming more
     * than {@value #MAX_DEFLATE_RATIO} times its compressed size is therefore decoded once, counting into no
     * memory, and refused with the stream's own message when it does not hold what it claims. Such entries are
     * rare and bzip2 is slow anyway; ordinary ones pay nothing. Zstandard too (session 29): its bound
     * ({@value #MAX_ZSTD_RATIO}:1) still lets 64 KiB of data claim 2 GiB, and 1 MiB claim 32 GiB.
     */
    private void checkBzip2Claim(ArchiveEntry entry) throws IOException {
        boolean unbounded = entry.method() == ZipFormat.BZIP2 || entry.method() == ZipFormat.ZSTD;
        if (unbounded && entry.uncompressedSize() / MAX_DEFLATE_RATIO > entry.compressedSize() + 1) {
            verify(entry);
        }
    }

    /** Checks that {@code entry}'s method can expand its compressed size to its uncompressed size. */
    private void checkExpansion(ArchiveEntry entry) throws ArchiveFormatException {
        long ratio = switch (entry.method()) {
            case ZipFormat.DEFLATED -> MAX_DEFLATE_RATIO;
            case ZipFormat.ZSTD -> MAX_ZSTD_RATIO;
            default -> 0; // stored: sizes equal; bzip2: no useful bound
        };
        if (ratio > 0 && entry.uncompressedSize() / ratio > entry.compressedSize() + 1) {
            throw problem(entry, "claims " + entry.uncompressedSize() + " bytes from " + entry.compressedSize()
                    + " compressed: more than " + (ratio == MAX_ZSTD_RATIO ? "Zstandard" : "Deflate")
                    + " can expand");
        }
    }

    /**
     * Checks that {@code entry} is not encrypted and its method is one hpio reads (stored, Deflate, Zstandard with
     * libzstd present, bzip2 with libbz2 present); the refusal names the method, the entry and its local header's
     * offset.
     */
    private void checkMethod(ArchiveEntry entry) throws ArchiveFormatException {
        if (entry.isEncrypted()) {
            throw problem(entry, "is encrypted");
        }
        int m = entry.method();
        if (m != ZipFormat.STORED && m != ZipFormat.DEFLATED && m != ZipFormat.ZSTD && m != ZipFormat.BZIP2) {
            throw problem(entry, "uses " + entry.methodName()
                    + (entry.methodName().startsWith("method") ? "" : " (method " + m + ")")
                    + ", which hpio does not read (it reads stored, Deflate, Zstandard and bzip2 entries)");
        }
        if (m == ZipFormat.ZSTD && !Libzstd.available()) {
            throw problem(entry, "is Zstandard (method 93), which needs libzstd: " + Libzstd.unavailableReason());
        }
        if (m == ZipFormat.BZIP2 && !Libbz2.available()) {
            throw problem(entry, "is bzip2 (method 12), which needs libbz2: " + Libbz2.unavailableReason());
        }
    }

    /** What is wrong with {@code entry}, naming this archive, the entry and its local header's offset. */
    private ArchiveFormatException problem(ArchiveEntry entry, String what) {
        return EntryCheck.problem(path.toString(), entry, what);
    }

    /**
     * A stored entry straight into recycled memory ({@link BlockIo#take}, given back when the loaded file
     * closes), read in place from its local header on (so that entries loaded in archive order are read
     * contiguously, with no seek: 002 §4.3), aligned out to O_DIRECT's grid; the view is the data's part.
     */
    private LoadedFile readStored(ArchiveEntry entry, long data) throws IOException {
        Range range = rangeOf(entry, data);
        MemorySegment memory = io.take(range.length());
        try {
            CRC32 crc = new CRC32();
            MemorySegment view = readRaw(entry, data, range, memory.asSlice(0, range.length()), crc);
            new EntryCheck(path.toString(), entry, warnings).checkCrc(crc);
            io.countLoad(entry.uncompressedSize());
            return new LoadedFile(entry.name(), view, () -> BlockIo.give(memory));
        } catch (IOException | RuntimeException | Error e) {
            BlockIo.give(memory); // no read is in flight into it: StraightReads waited for every one
            throw e;
        }
    }

    /** The aligned file range a read of {@code entry} covers: from its local header to the end of its data. */
    private record Range(long from, long to) {
        long length() {
            return to - from;
        }
    }

    private Range rangeOf(ArchiveEntry entry, long data) {
        int align = io.offsetAlignment();
        long header = entry.localHeaderOffset();
        return new Range(header - header % align,
                Math.min(io.fileSize(), (data + entry.compressedSize() + align - 1) / align * align));
    }

    /**
     * The entry's compressed bytes read into {@code memory} (exactly {@code range}'s length) in aligned pieces at
     * the queue depth; the result is the data's part of that memory. When {@code crc} is given the data's bytes
     * are added to it as the pieces arrive.
     */
    private MemorySegment readRaw(ArchiveEntry entry, long data, Range range, MemorySegment memory, CRC32 crc)
            throws IOException {
        long size = entry.compressedSize();
        StraightReads.read(io, range.from(), memory, crc, data - range.from(), size, path + ": entry " + entry.name());
        return memory.asSlice(data - range.from(), size);
    }

    /** Whether {@code entry} is inflated whole (read whole, then one decompressor call). */
    private boolean inflatesWhole(ArchiveEntry entry) {
        return (entry.method() == ZipFormat.ZSTD || entry.method() == ZipFormat.DEFLATED
                && options.inflation() != LoadOptions.Inflation.BLOCKS)
                && entry.compressedSize() <= LoadOptions.Inflation.MAX_WHOLE_BYTES
                && entry.uncompressedSize() <= Integer.MAX_VALUE - 8;
    }

    /**
     * Decodes {@code entry} (directory index {@code index}, -1 when foreign) into {@code destination} (exactly its
     * size): by one blocking read when {@link #readsWhole}, else whole when {@link #inflatesWhole}, else through
     * the block pipeline.
     */
    private void decodeInto(int index, ArchiveEntry entry, MemorySegment destination) throws IOException {
        if (readsWhole(entry)) {
            wholeReads.decodeInto(index, entry, destination);
            return;
        }
        long data = dataOffset(index, entry);
        if (!inflatesWhole(entry)) {
            decodeBlocks(entry, data, destination);
            return;
        }
        Range range = rangeOf(entry, data);
        try (Arena scratch = Arena.ofConfined()) { // the compressed bytes: this method's, freed on return
            MemorySegment memory = io.allocate(scratch, range.length()).asSlice(0, range.length());
            MemorySegment compressed = readRaw(entry, data, range, memory, null);
            WholeEntryDecoder.decode(path.toString(), entry, compressed, destination,
                    options.inflation() == LoadOptions.Inflation.WHOLE, warnings);
        }
    }

    /** The most of a destination one ByteBuffer covers in {@link #decodeBlocks} (a ByteBuffer holds under 2 GiB). */
    static final long DECODE_PIECE_BYTES = 1L << 30;

    /**
     * Decodes {@code entry} through the block pipeline into {@code destination} (exactly its size), a piece of
     * at most {@link #DECODE_PIECE_BYTES} at a time: an entry of 2 GiB or more is decoded too (one ByteBuffer
     * over the whole destination could not be made).
     */
    private void decodeBlocks(ArchiveEntry entry, long data, MemorySegment destination)
            throws IOException {
        try (EntryDecoder decoder = decoder(entry, data)) {
            long filled = 0;
            boolean ended = false;
            while (filled < destination.byteSize() && !ended) {
                ByteBuffer out = destination.asSlice(filled, Math.min(DECODE_PIECE_BYTES,
                        destination.byteSize() - filled)).asByteBuffer();
                while (out.hasRemaining() && !ended) {
                    ended = decoder.read(out) < 0;
                }
                filled += out.position();
            }
            ByteBuffer probe = ByteBuffer.allocate(1);
            while (!ended && decoder.read(probe.clear()) >= 0) {
                // the entry must end here: a byte more fails inside read; -1 means ended and checked
            }
            if (filled < destination.byteSize()) {
                throw new IllegalStateException("entry " + entry.name() + " ended early without an error");
            }
        }
    }

    private EntryDecoder decoder(ArchiveEntry entry, long data) {
        return new EntryDecoder(path.toString(), entry,
                new BlockStream(io, data, data + entry.compressedSize(), path + ": entry " + entry.name()),
                warnings);
    }

    /**
     * The file cache's key of {@code entry}: the archive, the entry's local header offset and its name. The offset
     * tells apart entries of one name (an archive may hold several; a load by name gets the last, a load of
     * another by its record must not get the first's bytes from the cache).
     */
    private String cacheKey(ArchiveEntry entry) {
        return path + "!" + entry.localHeaderOffset() + "!" + entry.name();
    }

    @Override
    public void close() throws IOException {
        try (file; channel) {
            io.close();
        }
    }
}
