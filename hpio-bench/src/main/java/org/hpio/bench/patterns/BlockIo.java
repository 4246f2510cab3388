package org.hpio.bench.patterns;

import org.hpio.bulk.BulkRandomAccessFile;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * How a hand-rolled buffer ({@link ByteWindow}) fills and empties itself: a block of bytes at a position, with
 * RandomAccessFile (004's "direct buffering"), FileChannel, or hpio's BulkRandomAccessFile. The caller's array
 * is used only during the call.
 */
interface BlockIo extends Closeable {
    void read(long position, byte[] window, int length) throws IOException;

    void write(long position, byte[] window, int length) throws IOException;

    /** RandomAccessFile, seeking only when the file pointer is elsewhere (so sequential use makes no lseek). */
    static BlockIo raf(Path file, boolean write) throws IOException {
        RandomAccessFile raf = new RandomAccessFile(file.toFile(), write ? "rw" : "r");
        return new BlockIo() {
            private long pointer;

            private void at(long position) throws IOException {
                if (pointer != position) {
                    raf.seek(position);
                }
            }

            public void read(long position, byte[] window, int length) throws IOException {
                at(position);
                raf.readFully(window, 0, length);
                pointer = position + length;
            }

            public void write(long position, byte[] window, int length) throws IOException {
                at(position);
                raf.write(window, 0, length);
                pointer = position + length;
            }

            public void close() throws IOException {
                raf.close();
            }
        };
    }

    /** FileChannel positional reads and writes through a heap ByteBuffer over the window. */
    static BlockIo channel(Path file, boolean write) throws IOException {
        FileChannel channel = write ? FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(file, StandardOpenOption.READ);
        return new BlockIo() {
            public void read(long position, byte[] window, int length) throws IOException {
                ByteBuffer b = ByteBuffer.wrap(window, 0, length);
                while (b.hasRemaining()) {
                    if (channel.read(b, position + b.position()) < 0) {
                        throw new EOFException(file + " ended at " + (position + b.position()));
                    }
                }
            }

            public void write(long position, byte[] window, int length) throws IOException {
                ByteBuffer b = ByteBuffer.wrap(window, 0, length);
                while (b.hasRemaining()) {
                    channel.write(b, position + b.position());
                }
            }

            public void close() throws IOException {
                channel.close();
            }
        };
    }

    /** hpio's BulkRandomAccessFile positional readArray / writeArray of the byte window. */
    static BlockIo bulk(Path file, boolean write) throws IOException {
        BulkRandomAccessFile f = new BulkRandomAccessFile(file, write ? "rw" : "r");
        return new BlockIo() {
            public void read(long position, byte[] window, int length) throws IOException {
                f.readArray(position, window, 0, length);
            }

            public void write(long position, byte[] window, int length) throws IOException {
                f.writeArray(position, window, 0, length);
            }

            public void close() throws IOException {
                f.close();
            }
        };
    }
}
