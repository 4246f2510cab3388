package org.hpio.archive;

import org.hpio.internal.sys.Libzstd;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * Decides how each file goes into an archive (002 §3.2: Deflate, since compression is effectively free when
 * decompression overlaps I/O) and produces its data: Deflate when it saves at least the configured share of the
 * file, stored otherwise and for extensions that are already compressed. Files up to {@code inMemoryLimit}
 * bytes are read and compressed once in memory; larger ones are streamed twice (measure, then write), and a file
 * that changed in between is an error. With a Zstandard level (issue 20), compressed entries are Zstandard
 * (method 93, one frame with its content size, through libzstd) instead of Deflate, by the same rules.
 * Owns one {@link Deflater}; not thread-safe; close it.
 */
final class EntryEncoder implements AutoCloseable {
    private static final int CHUNK = 1 << 16;

    private final Deflater deflater;
    private final double minSavings;
    private final Set<String> storedExtensions;
    private final long inMemoryLimit;
    /** How Zstandard entries are compressed, or null for Deflate. */
    private final Libzstd.Settings zstd;

    EntryEncoder(int level, double minSavings, Set<String> storedExtensions, long inMemoryLimit) {
        this(level, null, minSavings, storedExtensions, inMemoryLimit);
    }

    /** An encoder compressing with Deflate at {@code deflateLevel}, or with Zstandard by {@code zstd} if not null. */
    EntryEncoder(int deflateLevel, Libzstd.Settings zstd, double minSavings, Set<String> storedExtensions,
                 long inMemoryLimit) {
        if (zstd != null && !Libzstd.available()) {
            throw new IllegalStateException("Zstandard entries need libzstd: " + Libzstd.unavailableReason());
        }
        if (zstd != null && zstd.fastDecode()) {
            Libzstd.requireFastDecode();   // before anything is written
        }
        this.zstd = zstd;
        this.deflater = new Deflater(deflateLevel, true);
        this.minSavings = minSavings;
        this.storedExtensions = Set.copyOf(storedExtensions);
        this.inMemoryLimit = inMemoryLimit;
    }

    /** Reads {@code source} and decides its method; the data is kept when the file is small. */
    EncodedEntry encode(String name, Path source) throws IOException {
        boolean tryDeflate = !storedExtensions.contains(extension(name));
        if (Files.size(source) <= inMemoryLimit) {
            byte[] raw = Files.readAllBytes(source);
            CRC32 crc = new CRC32();
            crc.update(raw);
            byte[] deflated = tryDeflate && raw.length > 0 ? compress(raw) : null;
            if (deflated != null && savesEnough(raw.length, deflated.length)) {
                return new EncodedEntry(name, source, method(), crc.getValue(), deflated.length,
                        raw.length, deflated);
            }
            return new EncodedEntry(name, source, ZipFormat.STORED, crc.getValue(), raw.length, raw.length, raw);
        }
        CRC32 crc = new CRC32();
        CountingOutputStream deflatedCount = new CountingOutputStream(OutputStream.nullOutputStream());
        long size = tryDeflate ? pumpCompressed(source, deflatedCount, crc)
                : pump(source, OutputStream.nullOutputStream(), crc);
        boolean deflate = tryDeflate && savesEnough(size, deflatedCount.count());
        return new EncodedEntry(name, source, deflate ? method() : ZipFormat.STORED, crc.getValue(),
                deflate ? deflatedCount.count() : size, size, null);
    }

    /** Writes the entry's data to {@code out} (which the caller owns), streaming it again if it was not kept. */
    void writeData(EncodedEntry entry, OutputStream out) throws IOException {
        if (entry.data() != null) {
            out.write(entry.data());
            return;
        }
        CRC32 crc = new CRC32();
        CountingOutputStream counted = new CountingOutputStream(out);
        long size = entry.method() != ZipFormat.STORED ? pumpCompressed(entry.source(), counted, crc)
                : pump(entry.source(), counted, crc);
        if (size != entry.uncompressedSize() || crc.getValue() != entry.crc()
                || counted.count() != entry.compressedSize()) {
            throw new IOException(entry.source() + " (entry " + entry.name() + ") changed while it was packed");
        }
    }

    private boolean savesEnough(long size, long compressedSize) {
        return compressedSize < size && size - compressedSize >= Math.ceil(minSavings * size);
    }

    /** The method compressed entries get. */
    private int method() {
        return zstd == null ? ZipFormat.DEFLATED : ZipFormat.ZSTD;
    }

    private byte[] compress(byte[] raw) throws IOException {
        return zstd == null ? deflate(raw) : zstd(raw);
    }

    /** {@code raw} as one Zstandard frame (off-heap for the call: a long critical downcall would stall GC). */
    private byte[] zstd(byte[] raw) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocate(raw.length);
            MemorySegment.copy(raw, 0, in, ValueLayout.JAVA_BYTE, 0, raw.length);
            MemorySegment out = arena.allocate(Libzstd.compressBound(raw.length));
            long n = Libzstd.compress(in, out, zstd);
            return out.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    /** Streams {@code source} compressed to {@code sink} (not closed); returns the uncompressed bytes. */
    private long pumpCompressed(Path source, OutputStream sink, CRC32 crc) throws IOException {
        if (zstd == null) {
            return pumpDeflated(source, sink, crc);
        }
        try (ZstdOutputStream z = new ZstdOutputStream(sink, zstd, Files.size(source))) {
            long size = pump(source, z, crc);
            z.finish();
            return size;
        }
    }

    private byte[] deflate(byte[] raw) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 2 + 64);
        deflater.reset();
        try (DeflaterOutputStream z = new DeflaterOutputStream(out, deflater, CHUNK)) {
            z.write(raw);
        }
        return out.toByteArray();
    }

    private long pumpDeflated(Path source, OutputStream sink, CRC32 crc) throws IOException {
        deflater.reset();
        DeflaterOutputStream z = new DeflaterOutputStream(sink, deflater, CHUNK);
        long size = pump(source, z, crc);
        z.finish();
        return size;
    }

    /** Copies {@code source} to {@code sink} (not closed), updating {@code crc}; returns the bytes copied. */
    private static long pump(Path source, OutputStream sink, CRC32 crc) throws IOException {
        byte[] chunk = new byte[CHUNK];
        long total = 0;
        try (InputStream in = Files.newInputStream(source)) {
            for (int n; (n = in.read(chunk)) > 0; total += n) {
                crc.update(chunk, 0, n);
                sink.write(chunk, 0, n);
            }
        }
        return total;
    }

    /** The lower-case extension of an entry name ("png" for "a/b.PNG"), or "" without one. */
    static String extension(String name) {
        int slash = name.lastIndexOf('/');
        int dot = name.lastIndexOf('.');
        return dot > slash + 1 ? name.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
    }

    @Override
    public void close() {
        deflater.end();
    }
}
