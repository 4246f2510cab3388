package org.hpio.bench.sort;

import org.hpio.async.AsyncFile;
import org.hpio.async.AsyncFileOptions;
import org.hpio.bulk.BulkDataInputStream;
import org.hpio.bulk.BulkDataOutputStream;
import org.hpio.bulk.BulkRandomAccessFile;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The Java configurations of the single-buffered initial pass: 000 Table 1's raf, ds, dsb, bulkraf and bulkds,
 * what a Java developer writes today (nio, mmap), and bulk-direct, the O_DIRECT synchronous row. Each class
 * owns its streams, channels and buffers and closes them in {@link ChunkFiles#close()}.
 */
final class JavaChunkFiles {
    private JavaChunkFiles() {
    }

    /** raf: RandomAccessFile.readLong / writeLong, one call (one system call) per long. */
    static ChunkFiles raf(Path in, Path out) throws IOException {
        RandomAccessFile input = new RandomAccessFile(in.toFile(), "r");
        try {
            RandomAccessFile output = new RandomAccessFile(out.toFile(), "rw");
            return perLong(input, output, input, output);
        } catch (IOException | RuntimeException e) {
            input.close();
            throw e;
        }
    }

    /** ds: DataInputStream(FileInputStream) and DataOutputStream(FileOutputStream), unbuffered, per long. */
    static ChunkFiles ds(Path in, Path out) throws IOException {
        DataInputStream input = new DataInputStream(new FileInputStream(in.toFile()));
        DataOutputStream output = new DataOutputStream(new FileOutputStream(out.toFile()));
        return perLong(input, output, input, output);
    }

    /** dsb: the same over BufferedInputStream / BufferedOutputStream with their default buffer (8 KiB today). */
    static ChunkFiles dsb(Path in, Path out) throws IOException {
        DataInputStream input = new DataInputStream(new BufferedInputStream(new FileInputStream(in.toFile())));
        DataOutputStream output = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(out.toFile())));
        return perLong(input, output, input, output);
    }

    /** One readLong / writeLong per long; closing closes both (a stream's close flushes it first). */
    private static ChunkFiles perLong(DataInput input, DataOutput output, Closeable inputCloser,
                                      Closeable outputCloser) {
        return new ChunkFiles() {
            public void read(long[] chunk, int count) throws IOException {
                for (int i = 0; i < count; i++) {
                    chunk[i] = input.readLong();
                }
            }

            public void write(long[] chunk, int count) throws IOException {
                for (int i = 0; i < count; i++) {
                    output.writeLong(chunk[i]);
                }
            }

            public void close() throws IOException {
                try (inputCloser; outputCloser) {
                    // both closed, output first
                }
            }
        };
    }

    /** bulkraf: BulkRandomAccessFile.readArray / writeArray, one call per chunk. */
    static ChunkFiles bulkRaf(Path in, Path out) throws IOException {
        BulkRandomAccessFile input = new BulkRandomAccessFile(in, "r");
        BulkRandomAccessFile output = new BulkRandomAccessFile(out, "rw");
        return new ChunkFiles() {
            public void read(long[] chunk, int count) throws IOException {
                input.readArray(chunk, 0, count);
            }

            public void write(long[] chunk, int count) throws IOException {
                output.writeArray(chunk, 0, count);
            }

            public void close() throws IOException {
                try (input; output) {
                    // both closed
                }
            }
        };
    }

    /** bulkds: BulkDataInputStream(FileInputStream) and BulkDataOutputStream(FileOutputStream). */
    static ChunkFiles bulkDs(Path in, Path out) throws IOException {
        BulkDataInputStream input = new BulkDataInputStream(new FileInputStream(in.toFile()));
        BulkDataOutputStream output = new BulkDataOutputStream(new FileOutputStream(out.toFile()));
        return new ChunkFiles() {
            public void read(long[] chunk, int count) throws IOException {
                input.readArray(chunk, 0, count);
            }

            public void write(long[] chunk, int count) throws IOException {
                output.writeArray(chunk, 0, count);
            }

            public void close() throws IOException {
                try (input; output) {
                    output.flush();
                }
            }
        };
    }

    /** nio: FileChannel and one direct ByteBuffer of a chunk, converted through asLongBuffer(). */
    static ChunkFiles nio(Path in, Path out) throws IOException {
        FileChannel input = FileChannel.open(in, StandardOpenOption.READ);
        FileChannel output = FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new ChunkFiles() {
            private ByteBuffer buffer = ByteBuffer.allocateDirect(0);

            private ByteBuffer buffer(int count) {
                if (buffer.capacity() < count * Long.BYTES) {
                    buffer = ByteBuffer.allocateDirect(count * Long.BYTES);
                }
                return buffer.clear().limit(count * Long.BYTES);
            }

            public void read(long[] chunk, int count) throws IOException {
                ByteBuffer b = buffer(count);
                while (b.hasRemaining()) {
                    if (input.read(b) < 0) {
                        throw new EOFException(in + " ended early");
                    }
                }
                b.flip().asLongBuffer().get(chunk, 0, count);
            }

            public void write(long[] chunk, int count) throws IOException {
                ByteBuffer b = buffer(count);
                b.asLongBuffer().put(chunk, 0, count);
                while (b.hasRemaining()) {
                    output.write(b);
                }
            }

            public void close() throws IOException {
                try (input; output) {
                    // both closed
                }
            }
        };
    }

    /** mmap: both files mapped whole (the output sized first), chunks copied with MemorySegment.copy. */
    static ChunkFiles mmap(Path in, Path out) throws IOException {
        Arena arena = Arena.ofShared();
        try (FileChannel input = FileChannel.open(in, StandardOpenOption.READ);
             FileChannel output = FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                     StandardOpenOption.WRITE)) {
            long size = input.size();
            MemorySegment source = input.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            output.truncate(size);
            MemorySegment target = output.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            return mapped(source, target, arena);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private static ChunkFiles mapped(MemorySegment source, MemorySegment target, Arena arena) {
        ValueLayout.OfLong bigEndian = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
        return new ChunkFiles() {
            private long readAt;
            private long writeAt;

            public void read(long[] chunk, int count) {
                MemorySegment.copy(source, bigEndian, readAt, chunk, 0, count);
                readAt += (long) count * Long.BYTES;
            }

            public void write(long[] chunk, int count) {
                MemorySegment.copy(chunk, 0, target, bigEndian, writeAt, count);
                writeAt += (long) count * Long.BYTES;
            }

            public void close() {
                arena.close();
            }
        };
    }

    /**
     * bulk-direct: the O_DIRECT synchronous row. The bulk classes have no O_DIRECT, so this is AsyncFile
     * opened with DIRECT, each request waited on as soon as it is made (000 §4.2: AsyncFile used synchronously
     * "behaves very similarly to the BulkRandomAccessFile extension").
     */
    static ChunkFiles bulkDirect(Path in, Path out) throws IOException {
        AsyncFileOptions direct = AsyncFileOptions.defaults().withDirect(true);
        AsyncFile input = new AsyncFile(in, "r", direct);
        AsyncFile output;
        try {
            output = new AsyncFile(out, "rw", direct);
        } catch (IOException | RuntimeException e) {
            input.close();
            throw e;
        }
        return new ChunkFiles() {
            public void read(long[] chunk, int count) throws IOException {
                input.readArray(chunk, 0, count).done();
            }

            public void write(long[] chunk, int count) throws IOException {
                output.writeArray(chunk, 0, count).done();
            }

            public void close() throws IOException {
                try (input; output) {
                    // both closed
                }
            }
        };
    }
}
