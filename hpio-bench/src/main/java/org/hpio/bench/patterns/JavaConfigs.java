package org.hpio.bench.patterns;

import org.hpio.bulk.BulkRandomAccessFile;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The Java ways of 004's tests. Unbuffered (operation-size sweep, buffer 0): {@code stream} (FileInputStream /
 * FileOutputStream; RandomAccessFile seek + read/write for random access), {@code buffered} (Buffered streams,
 * default 8 KiB buffer; sequential only), {@code channel} (FileChannel and a direct ByteBuffer of the operation),
 * {@code bulk} (hpio's BulkRandomAccessFile, longs as long[] from 8 bytes up). Buffered (buffer-size sweep,
 * 1-byte operations): {@code buffered} (Buffered streams of that size; sequential only: they cannot seek),
 * {@code direct} (a hand-rolled byte[] window over RandomAccessFile, 004 Test 3), {@code channel} and
 * {@code bulk} (the same window filled by FileChannel or BulkRandomAccessFile).
 */
final class JavaConfigs {
    private JavaConfigs() {
    }

    static List<PatternsConfig> all() {
        return List.of(new Stream(), new Buffered(), new Direct(), new Channel(), new Bulk());
    }

    /** Reads {@code n} bytes or throws. */
    private static void readFully(InputStream in, byte[] buffer, int n) throws IOException {
        if (in.readNBytes(buffer, 0, n) != n) {
            throw new EOFException("file ended inside an operation");
        }
    }

    static final class Stream implements PatternsConfig {
        public String name() { return "stream"; }
        public String description() { return "FileInputStream/FileOutputStream, RandomAccessFile for random access; no buffer"; }
        public boolean supports(Point p) { return !p.buffered(); }

        public long run(Point p, Path file, Source source) throws IOException {
            int n = p.opSize();
            byte[] buffer = new byte[n];
            long sum = 0;
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), p.access().write() ? "rw" : "r")) {
                if (p.access().random()) {
                    for (long k = 0; k < p.ops(); k++) {
                        long pos = p.position(k);
                        raf.seek(pos);
                        if (p.access().write()) {
                            raf.write(source.bytes, (int) pos, n);
                        } else {
                            raf.readFully(buffer, 0, n);
                            sum += Fold.bytes(buffer, 0, n, pos);
                        }
                    }
                } else if (p.access().write()) {
                    FileOutputStream out = new FileOutputStream(raf.getFD());
                    for (long k = 0; k < p.ops(); k++) {
                        out.write(source.bytes, (int) (k * n), n);
                    }
                } else {
                    FileInputStream in = new FileInputStream(raf.getFD());
                    for (long k = 0; k < p.ops(); k++) {
                        readFully(in, buffer, n);
                        sum += Fold.bytes(buffer, 0, n, k * n);
                    }
                }
            }
            return sum;
        }
    }

    static final class Buffered implements PatternsConfig {
        public String name() { return "buffered"; }
        public String description() { return "BufferedInputStream/BufferedOutputStream (default 8 KiB, or the swept size); sequential only"; }
        public boolean supports(Point p) { return !p.access().random(); }

        public long run(Point p, Path file, Source source) throws IOException {
            int n = p.opSize();
            int size = p.buffered() ? p.bufferSize() : 8192;
            long sum = 0;
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), p.access().write() ? "rw" : "r")) {
                if (p.access().write()) {
                    BufferedOutputStream out = new BufferedOutputStream(new FileOutputStream(raf.getFD()), size);
                    for (long k = 0; k < p.ops(); k++) {
                        if (n == 1) {
                            out.write(source.bytes[(int) k]);
                        } else {
                            out.write(source.bytes, (int) (k * n), n);
                        }
                    }
                    out.flush();
                } else {
                    BufferedInputStream in = new BufferedInputStream(new FileInputStream(raf.getFD()), size);
                    byte[] buffer = new byte[n];
                    for (long k = 0; k < p.ops(); k++) {
                        if (n == 1) {
                            int b = in.read();
                            if (b < 0) {
                                throw new EOFException(file + " ended at " + k);
                            }
                            sum += Fold.one((byte) b, k);
                        } else {
                            readFully(in, buffer, n);
                            sum += Fold.bytes(buffer, 0, n, k * n);
                        }
                    }
                }
            }
            return sum;
        }
    }

    static final class Direct implements PatternsConfig {
        public String name() { return "direct"; }
        public String description() { return "hand-rolled byte[] buffer over RandomAccessFile (004's direct buffering)"; }
        public boolean supports(Point p) { return p.buffered(); }

        public long run(Point p, Path file, Source source) throws IOException {
            try (BlockIo io = BlockIo.raf(file, p.access().write())) {
                return ByteWindow.run(p, io, source);
            }
        }
    }

    static final class Channel implements PatternsConfig {
        public String name() { return "channel"; }
        public String description() { return "FileChannel: a direct ByteBuffer per operation, or the hand-rolled buffer filled by it"; }
        public boolean supports(Point p) { return true; }

        public long run(Point p, Path file, Source source) throws IOException {
            boolean write = p.access().write();
            if (p.buffered()) {
                try (BlockIo io = BlockIo.channel(file, write)) {
                    return ByteWindow.run(p, io, source);
                }
            }
            int n = p.opSize();
            ByteBuffer buffer = ByteBuffer.allocateDirect(n);
            long sum = 0;
            try (FileChannel channel = write ? FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)
                    : FileChannel.open(file, StandardOpenOption.READ)) {
                for (long k = 0; k < p.ops(); k++) {
                    long pos = p.position(k);
                    buffer.clear();
                    if (write) {
                        buffer.put(source.bytes, (int) pos, n).flip();
                    }
                    while (buffer.hasRemaining()) {
                        int moved = write ? channel.write(buffer, pos + buffer.position())
                                : channel.read(buffer, pos + buffer.position());
                        if (moved < 0) {
                            throw new EOFException(file + " ended at " + (pos + buffer.position()));
                        }
                    }
                    if (!write) {
                        sum += Fold.buffer(buffer, n, pos);
                    }
                }
            }
            return sum;
        }
    }

    static final class Bulk implements PatternsConfig {
        public String name() { return "bulk"; }
        public String description() { return "hpio BulkRandomAccessFile: readArray/writeArray of long[] (bytes below 8), or the hand-rolled buffer filled by it"; }
        public boolean supports(Point p) { return true; }

        public long run(Point p, Path file, Source source) throws IOException {
            boolean write = p.access().write();
            if (p.buffered()) {
                try (BlockIo io = BlockIo.bulk(file, write)) {
                    return ByteWindow.run(p, io, source);
                }
            }
            int n = p.opSize();
            int longs = n / Long.BYTES;
            long[] values = new long[Math.max(1, longs)];
            byte[] bytes = new byte[n];
            long sum = 0;
            try (BulkRandomAccessFile f = new BulkRandomAccessFile(file, write ? "rw" : "r")) {
                for (long k = 0; k < p.ops(); k++) {
                    long pos = p.position(k);
                    if (longs > 0 && write) {
                        f.writeArray(pos, source.longs, (int) (pos / Long.BYTES), longs);
                    } else if (longs > 0) {
                        f.readArray(pos, values, 0, longs);
                        sum += Fold.longs(values, longs, pos);
                    } else if (write) {
                        f.writeArray(pos, source.bytes, (int) pos, n);
                    } else {
                        f.readArray(pos, bytes, 0, n);
                        sum += Fold.bytes(bytes, 0, n, pos);
                    }
                }
            }
            return sum;
        }
    }
}
