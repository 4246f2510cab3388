package org.hpio.archive;

import org.hpio.archive.internal.AtomicFile;
import org.hpio.internal.sys.Libzstd;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.zip.Deflater;

/**
 * Builds a Zip archive (PKWARE APPNOTE) of files under one root, in the order they are added, packed end to
 * end (002 §3.3: the order is what makes reads sequential). Info-ZIP {@code unzip}, Python's {@code zipfile}
 * and {@code java.util.zip} read the result.
 * <ul>
 * <li>Deflate (002 §3.2) where it saves at least {@link #minDeflateSavings(double)} of a file; stored otherwise
 *     and for {@link #storedExtensions(Set) extensions} that are compressed already. CRC-32 on every entry;
 *     Zip64 where sizes, offsets or the entry count need it.</li>
 * <li>Deterministic: the same files in the same order give the same bytes (a fixed timestamp, mode 0644).</li>
 * <li>Crash-safe: written to a temporary file beside the target, forced, renamed into place, directory forced.
 *     On any error nothing appears under the target's name (an existing archive there stays as it was).</li>
 * <li>Bad input is a clear error: a path escaping the root or added twice is refused by {@link #add(String)}
 *     (the builder stays as it was); a missing, unreadable or non-regular file, or a symbolic link leading out
 *     of the root, fails {@link #write(Path)} naming the file and its entry.</li>
 * </ul>
 * Not thread-safe.
 */
public final class ArchiveBuilder {
    /** Extensions stored without trying Deflate by default: formats that are compressed already. */
    public static final Set<String> DEFAULT_STORED_EXTENSIONS = Set.of("png", "jpg", "jpeg", "gif", "webp",
            "ogg", "oga", "opus", "mp3", "m4a", "aac", "flac", "mp4", "mkv", "webm", "zip", "jar", "whl", "gz",
            "tgz", "bz2", "xz", "zst", "lz4", "7z", "rar");
    /** The timestamp every entry gets by default: the earliest a Zip file can hold, 1980-01-01 00:00. */
    public static final LocalDateTime DEFAULT_TIMESTAMP = LocalDateTime.of(1980, 1, 1, 0, 0);

    private final Path root;
    private final Map<String, Path> sources = new LinkedHashMap<>();
    private double minDeflateSavings = 0.05;
    private int deflateLevel = Deflater.DEFAULT_COMPRESSION;
    private Set<String> storedExtensions = DEFAULT_STORED_EXTENSIONS;
    private LocalDateTime timestamp = DEFAULT_TIMESTAMP;
    private long inMemoryLimit = 16L << 20;
    /** How Zstandard entries are compressed; null for Deflate. */
    private Libzstd.Settings zstd;

    /** What {@link #write(Path)} produced; {@code deflated} counts the compressed entries (Deflate or Zstandard). */
    public record Summary(int entries, int deflated, long fileBytes, long archiveBytes) {
    }

    /** A builder of an archive of files under {@code root}, a directory. */
    public ArchiveBuilder(Path root) {
        this.root = Objects.requireNonNull(root, "root");
    }

    /**
     * Adds the file at {@code relativePath} (relative to the root, '/'-separated) as the next entry.
     *
     * @throws IllegalArgumentException when the path escapes the root or was added already
     */
    public ArchiveBuilder add(String relativePath) {
        String name = EntryNames.of(relativePath);
        if (sources.containsKey(name)) {
            throw new IllegalArgumentException("duplicate path: '" + name + "' is in the archive already");
        }
        sources.put(name, root.resolve(name));
        return this;
    }

    /** Adds every path in order (none of them if one is refused). */
    public ArchiveBuilder addAll(Collection<String> relativePaths) {
        Map<String, Path> before = new LinkedHashMap<>(sources);
        try {
            relativePaths.forEach(this::add);
        } catch (RuntimeException e) {
            sources.clear();
            sources.putAll(before);
            throw e;
        }
        return this;
    }

    /** Deflate only when it saves at least this share of a file's size (0 to 1; default 0.05). */
    public ArchiveBuilder minDeflateSavings(double share) {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("minimum Deflate savings must be in 0..1, was " + share);
        }
        this.minDeflateSavings = share;
        return this;
    }

    /** The Deflate level, 0-9 or -1 for zlib's default (6). */
    public ArchiveBuilder deflateLevel(int level) {
        if (level < -1 || level > 9) {
            throw new IllegalArgumentException("Deflate level must be -1..9, was " + level);
        }
        this.deflateLevel = level;
        return this;
    }

    /**
     * Compresses with Zstandard (method 93, through the system's libzstd) at {@code level} (1-22; 3 is
     * libzstd's default) instead of Deflate, by the same rules ({@link #minDeflateSavings}, stored extensions).
     * Python 3.14's {@code zipfile}, Apache Commons Compress and libarchive read such entries; older tools may not.
     */
    public ArchiveBuilder zstdLevel(int level) {
        return zstd(level, false);
    }

    /**
     * {@link #zstdLevel}, and with {@code fastDecode} compressed for decoding speed: literals stored raw and no
     * match shorter than 6 bytes: on the python trace, level 9 so decodes 1.5x faster than level 3, 10 % larger
     * (AMD EPYC, libzstd 1.5.4). For archives read far more often than written, from a device faster than
     * decompression (002 §3.2). Any Zstandard reader reads the entries. Raw literals are an experimental libzstd
     * parameter: with a libzstd other than 1.4 or 1.5, writing fails with an {@link IllegalStateException} that
     * says so, rather than quietly compressing some other way.
     */
    public ArchiveBuilder zstd(int level, boolean fastDecode) {
        this.zstd = new Libzstd.Settings(level, fastDecode);
        return this;
    }

    /** Extensions (lower case, no dot) to store without trying Deflate. */
    public ArchiveBuilder storedExtensions(Set<String> extensions) {
        this.storedExtensions = Set.copyOf(extensions);
        return this;
    }

    /** The modification time every entry gets (1980..2107, two-second resolution). */
    public ArchiveBuilder timestamp(LocalDateTime time) {
        ZipFormat.dosDateTime(time);
        this.timestamp = time;
        return this;
    }

    /** Files up to this size are compressed in memory; larger ones are streamed twice (default 16 MiB). */
    public ArchiveBuilder inMemoryLimit(long bytes) {
        if (bytes < 0 || bytes > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("in-memory limit must be 0..2^31-65 bytes, was " + bytes);
        }
        this.inMemoryLimit = bytes;
        return this;
    }

    /** The entry names added so far, in order. */
    public List<String> entryNames() {
        return List.copyOf(sources.keySet());
    }

    /** Writes the archive to {@code target} crash-safely; on error nothing is left under that name. */
    public Summary write(Path target) throws IOException {
        Path realRoot = realRoot();
        long[] fileBytes = {0};
        int[] deflated = {0};
        AtomicFile.write(target, channel -> {
            BufferedOutputStream buffered = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 20);
            CountingOutputStream out = new CountingOutputStream(buffered);
            ZipWriter zip = new ZipWriter(out, ZipFormat.dosDateTime(timestamp));
            try (EntryEncoder encoder = new EntryEncoder(deflateLevel, zstd, minDeflateSavings, storedExtensions,
                    inMemoryLimit)) {
                for (Map.Entry<String, Path> e : sources.entrySet()) {
                    EncodedEntry entry = encode(encoder, e.getKey(), checkedSource(realRoot, e.getKey(), e.getValue()));
                    zip.add(entry, encoder);
                    fileBytes[0] += entry.uncompressedSize();
                    deflated[0] += entry.method() != ZipFormat.STORED ? 1 : 0;
                }
            }
            zip.finish();
            out.flush();
        });
        return new Summary(sources.size(), deflated[0], fileBytes[0], Files.size(target));
    }

    private Path realRoot() throws IOException {
        if (!Files.isDirectory(root)) {
            throw new IOException("archive root " + root + " is not a directory");
        }
        return root.toRealPath();
    }

    private static Path checkedSource(Path realRoot, String name, Path source) throws IOException {
        Path real;
        try {
            real = source.toRealPath();
        } catch (IOException e) {
            throw new IOException("cannot read " + source + " (entry " + name + "): " + reason(e), e);
        }
        if (!real.startsWith(realRoot)) {
            throw new IOException(source + " (entry " + name + ") leads to " + real
                    + ", outside the archive root " + realRoot);
        }
        if (!Files.isRegularFile(real)) {
            throw new IOException(source + " (entry " + name + ") is not a regular file");
        }
        return real;
    }

    private static EncodedEntry encode(EntryEncoder encoder, String name, Path source) throws IOException {
        try {
            return encoder.encode(name, source);
        } catch (IOException e) {
            throw new IOException("cannot read " + source + " (entry " + name + "): " + reason(e), e);
        }
    }

    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage();
    }
}
