package org.hpio.archive;

import org.hpio.archive.cache.FileCache;
import org.hpio.archive.cache.FileCacheConfig;

import java.io.BufferedOutputStream;
import java.io.RandomAccessFile;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * Child JVM of {@link LargeEntryTest} (its direct memory set large enough): writes, with {@code java.util.zip},
 * an archive of one Deflate entry of {@link #SIZE} bytes, zeros but for a marker byte at each of
 * {@link #MARKS}, loads it with {@link Archive#load(String)} and checks every byte; then a loose file of the same
 * contents (sparse) through a {@link FileCache} miss. Prints {@code OK} or throws.
 */
public final class LargeEntryProgram {
    static final long SIZE = (2L << 30) + (64L << 20);
    static final long[] MARKS = {0, (1L << 30) - 1, 1L << 30, (2L << 30) + 12_345, SIZE - 1};

    private LargeEntryProgram() {
    }

    public static void main(String[] args) throws Exception {
        Path zip = Path.of(args[0]);
        write(zip);
        try (Archive archive = Archive.open(zip);
             LoadedFile loaded = archive.load("big.bin")) {
            check(loaded.segment());
        }
        Path loose = Path.of(args[0] + ".loose");
        try (RandomAccessFile file = new RandomAccessFile(loose.toFile(), "rw")) {
            file.setLength(SIZE);   // a hole: zeros, without writing them
            for (int i = 0; i < MARKS.length; i++) {
                file.seek(MARKS[i]);
                file.write(mark(i));
            }
        }
        try (FileCache cache = new FileCache(FileCacheConfig.of(SIZE + (256L << 20)))) {
            MemorySegment cached = cache.get(loose);
            check(cached);
            cache.release(cached);
        }
        System.out.println("OK");
    }

    private static byte mark(int i) {
        return (byte) (i + 1);
    }

    private static void write(Path zip) throws Exception {
        try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(zip), 1 << 20);
             ZipOutputStream out = new ZipOutputStream(file)) {
            out.setLevel(Deflater.BEST_SPEED);
            out.putNextEntry(new ZipEntry("big.bin"));
            byte[] chunk = new byte[1 << 20];
            for (long at = 0; at < SIZE; at += chunk.length) {
                Arrays.fill(chunk, (byte) 0);
                for (int i = 0; i < MARKS.length; i++) {
                    if (MARKS[i] >= at && MARKS[i] < at + chunk.length) {
                        chunk[(int) (MARKS[i] - at)] = mark(i);
                    }
                }
                out.write(chunk, 0, (int) Math.min(chunk.length, SIZE - at));
            }
            out.closeEntry();
        }
    }

    private static void check(MemorySegment contents) {
        if (contents.byteSize() != SIZE) {
            throw new AssertionError("loaded " + contents.byteSize() + " bytes, not " + SIZE);
        }
        for (int i = 0; i < MARKS.length; i++) {
            if (contents.get(JAVA_BYTE, MARKS[i]) != mark(i)) {
                throw new AssertionError("byte " + MARKS[i] + " is " + contents.get(JAVA_BYTE, MARKS[i]));
            }
        }
        MemorySegment zeros = Arena.ofAuto().allocate(1 << 20);
        long zeroBytes = 0;
        for (long at = 0; at < SIZE; at += zeros.byteSize()) {
            MemorySegment piece = contents.asSlice(at, Math.min(zeros.byteSize(), SIZE - at));
            long from = 0;
            while (from < piece.byteSize()) {
                long differs = MemorySegment.mismatch(piece, from, piece.byteSize(), zeros, 0, piece.byteSize() - from);
                if (differs < 0) {
                    zeroBytes += piece.byteSize() - from;
                    break;
                }
                zeroBytes += differs;
                from += differs + 1;   // a marker (checked above)
            }
        }
        if (zeroBytes != SIZE - MARKS.length) {
            throw new AssertionError(zeroBytes + " zero bytes, not " + (SIZE - MARKS.length));
        }
    }
}
