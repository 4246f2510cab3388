package org.hpio.bench.bulk;

import org.hpio.bench.data.Elements;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The ways the JDK offers, as 000 §5 (Table 1) and 001 §3 write them, and as a developer writes them today
 * ({@code nio}, {@code mmap}). Stream configurations are chained to a RandomAccessFile's descriptor after a
 * seek, as 001 §3.4 does, so they can start at any block.
 */
public final class JdkApproaches {
    /** The buffer size of hand-rolled chunked loops (nio). */
    static final int CHUNK_BYTES = 1 << 20;

    private JdkApproaches() {
    }

    public static List<Approach> all() {
        return List.of(new Raf(), new Ds(), new Dsb(), new EncodeDecode(), new ByteArrayStream(), new Nio(),
                new Mmap(ByteOrder.BIG_ENDIAN), new Mmap(ByteOrder.nativeOrder()));
    }

    /** The whole block as one byte[], read with RandomAccessFile.readFully (001 §3.2 and §3.5 start so). */
    private static byte[] readBlock(Path file, long position, int length) throws IOException {
        byte[] bytes = new byte[length];
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            raf.seek(position);
            raf.readFully(bytes);
        }
        return bytes;
    }

    /** The whole block written from one byte[] with RandomAccessFile.write. */
    private static void writeBlock(Path file, long position, byte[] bytes) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(position);
            raf.write(bytes);
        }
    }

    /** raf: RandomAccessFile.readLong / writeLong, one call (and one system call) per element. */
    static final class Raf implements Approach {
        public String name() { return "raf"; }
        public String description() { return "RandomAccessFile.readX/writeX per element (000 Table 1)"; }
        public boolean perElement() { return true; }

        public void read(Path file, long position, Object array, int offset, int count) throws IOException {
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                raf.seek(position);
                Elements.of(array).readEach(raf, array, offset, count);
            }
        }

        public void write(Path file, long position, Object array, int offset, int count) throws IOException {
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.seek(position);
                Elements.of(array).writeEach(raf, array, offset, count);
            }
        }
    }

    /** ds: DataInputStream / DataOutputStream straight on the file, unbuffered (001 §3.3). */
    static final class Ds implements Approach {
        public String name() { return "ds"; }
        public String description() { return "DataInputStream/DataOutputStream on the file, unbuffered, per element"; }
        public boolean perElement() { return true; }

        public void read(Path file, long position, Object array, int offset, int count) throws IOException {
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                raf.seek(position);
                Elements.of(array).readEach(new DataInputStream(new FileInputStream(raf.getFD())), array, offset, count);
            }
        }

        public void write(Path file, long position, Object array, int offset, int count) throws IOException {
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.seek(position);
                DataOutputStream out = new DataOutputStream(new FileOutputStream(raf.getFD()));
                Elements.of(array).writeEach(out, array, offset, count);
                out.flush();
            }
        }
    }

    /** dsb: Data streams over Buffered streams (default buffer), per element (000 Table 1, 001 §3.4). */
    static final class Dsb implements Approach {
        public String name() { return "dsb"; }
        public String description() { return "DataInputStream over BufferedInputStream (default buffer), per element"; }
        public boolean perElement() { return true; }

        public void read(Path file, long position, Object array, int offset, int count) throws IOException {
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                raf.seek(position);
                DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(raf.getFD())));
                Elements.of(array).readEach(in, array, offset, count);
            }
        }

        public void write(Path file, long position, Object array, int offset, int count) throws IOException {
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.seek(position);
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(raf.getFD())));
                Elements.of(array).writeEach(out, array, offset, count);
                out.flush();
            }
        }
    }

    /** encode-decode: one byte[] for the block, converted with shifts (001 §3.2). */
    static final class EncodeDecode implements Approach {
        public String name() { return "encode-decode"; }
        public String description() { return "whole block as byte[], converted by shifts and masks (001 §3.2)"; }

        public void read(Path file, long position, Object array, int offset, int count) throws IOException {
            Elements elements = Elements.of(array);
            byte[] bytes = readBlock(file, position, Math.multiplyExact(count, elements.size()));
            elements.decodeByShifts(bytes, array, offset, count);
        }

        public void write(Path file, long position, Object array, int offset, int count) throws IOException {
            Elements elements = Elements.of(array);
            byte[] bytes = new byte[Math.multiplyExact(count, elements.size())];
            elements.encodeByShifts(array, offset, count, bytes);
            writeBlock(file, position, bytes);
        }
    }

    /** byte-array-stream: Data streams over ByteArray streams for the block (001 §3.5). */
    static final class ByteArrayStream implements Approach {
        public String name() { return "byte-array-stream"; }
        public String description() { return "whole block via ByteArrayInput/OutputStream + Data streams (001 §3.5)"; }

        public void read(Path file, long position, Object array, int offset, int count) throws IOException {
            Elements elements = Elements.of(array);
            byte[] bytes = readBlock(file, position, Math.multiplyExact(count, elements.size()));
            elements.readEach(new DataInputStream(new ByteArrayInputStream(bytes)), array, offset, count);
        }

        public void write(Path file, long position, Object array, int offset, int count) throws IOException {
            Elements elements = Elements.of(array);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.multiplyExact(count, elements.size()));
            elements.writeEach(new DataOutputStream(bytes), array, offset, count);
            writeBlock(file, position, bytes.toByteArray());
        }
    }

    /** nio: FileChannel with one direct ByteBuffer, converted through its typed view (what people write today). */
    static final class Nio implements Approach {
        public String name() { return "nio"; }
        public String description() { return "FileChannel + 1 MiB direct ByteBuffer + asLongBuffer()/asIntBuffer() view"; }

        public void read(Path file, long position, Object array, int offset, int count) throws IOException {
            Elements elements = Elements.of(array);
            ByteBuffer buffer = ByteBuffer.allocateDirect(CHUNK_BYTES);
            int perChunk = CHUNK_BYTES / elements.size();
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                for (int done = 0; done < count; ) {
                    int n = Math.min(perChunk, count - done);
                    buffer.clear().limit(n * elements.size());
                    long at = position + (long) done * elements.size();
                    while (buffer.hasRemaining()) {
                        if (channel.read(buffer, at + buffer.position()) < 0) {
                            throw new EOFException(file + " ended at " + (at + buffer.position()));
                        }
                    }
                    buffer.flip();
                    elements.get(buffer, array, offset + done, n);
                    done += n;
                }
            }
        }

        public void write(Path file, long position, Object array, int offset, int count) throws IOException {
            Elements elements = Elements.of(array);
            ByteBuffer buffer = ByteBuffer.allocateDirect(CHUNK_BYTES);
            int perChunk = CHUNK_BYTES / elements.size();
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                for (int done = 0; done < count; ) {
                    int n = Math.min(perChunk, count - done);
                    buffer.clear();
                    elements.put(buffer, array, offset + done, n);
                    buffer.limit(n * elements.size());
                    long at = position + (long) done * elements.size();
                    while (buffer.hasRemaining()) {
                        channel.write(buffer, at + buffer.position());
                    }
                    done += n;
                }
            }
        }
    }

    /** mmap: the block mapped with FileChannel.map and copied with MemorySegment.copy. */
    static final class Mmap implements Approach {
        private final ByteOrder order;

        Mmap(ByteOrder order) {
            this.order = order;
        }

        public String name() { return order == ByteOrder.BIG_ENDIAN ? "mmap" : "mmap-native"; }
        public String description() {
            return "FileChannel.map + MemorySegment.copy, " + (order == ByteOrder.BIG_ENDIAN ? "big-endian" : "native order");
        }
        public ByteOrder fileOrder() { return order; }

        public void read(Path file, long position, Object array, int offset, int count) throws IOException {
            Elements elements = Elements.of(array);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
                MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, position,
                        (long) count * elements.size(), arena);
                elements.copyFrom(mapped, order, array, offset, count);
            }
        }

        public void write(Path file, long position, Object array, int offset, int count) throws IOException {
            Elements elements = Elements.of(array);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                 Arena arena = Arena.ofConfined()) {
                MemorySegment mapped = channel.map(FileChannel.MapMode.READ_WRITE, position,
                        (long) count * elements.size(), arena);
                elements.copyTo(array, offset, count, mapped, order);
            }
        }
    }
}
