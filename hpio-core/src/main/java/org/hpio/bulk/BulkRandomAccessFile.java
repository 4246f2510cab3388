package org.hpio.bulk;

import org.hpio.internal.array.ArrayKind;
import org.hpio.internal.array.NestedArrays;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;

import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A {@link RandomAccessFile} with bulk array I/O (000 §3, Figure 1; 001 §5): {@code readArray} and
 * {@code writeArray} for every primitive array type, at the file pointer (which they advance, so {@code seek},
 * {@code getFilePointer} and {@code length} stay right) or at an explicit position (which leaves the file
 * pointer alone).
 *
 * <p>Positional calls are safe from many threads on one file at once: the shared-file parallel I/O of 001 §3.1,
 * where each thread owns one block of a block-distributed array. The file-pointer calls, like the rest of
 * {@code RandomAccessFile}, are for one thread at a time.
 *
 * <p>The data path: the file is opened a second time by hpio for positional {@code pread}/{@code pwrite}
 * only (so the {@code RandomAccessFile}'s descriptor and its offset are untouched but for {@code seek}). Reads
 * choose a path by size (FileTransfer's class comment has the measurements): below 256 KiB the kernel copies
 * straight into the array (swapped in place in big-endian order); up to 1 MiB through one aligned off-heap buffer
 * and a bulk copy, swapping in big-endian order; from 1 MiB, when its pages are in the page cache, the range is
 * mapped for the call alone and copied (swapped) straight into the array. Writes go straight from the array in native order, through one staging
 * buffer swapped in bulk otherwise. A file shrunk under a read, through any handle, ends it with an
 * {@link java.io.EOFException} saying how many elements arrived, never with an error of the JVM. Offsets are 64-bit. Errors: a bad range throws {@link IndexOutOfBoundsException}, and
 * reading past the end of the file throws {@link java.io.EOFException}, both before any I/O and with the
 * array and file pointer unchanged; a closed file throws {@link IOException}.
 *
 * <p>Durability: as for {@code RandomAccessFile}, data is durable after {@code getFD().sync()} (or
 * {@code getChannel().force}); when the constructor created the file, it forced the directory too, so the
 * new name is durable before any data is.
 *
 * <p>A file that is not a regular file (a device, a pipe) has no size to check reads against: its arrays are
 * read and written at the file pointer through the {@code RandomAccessFile}'s own descriptor, as {@code readInt}
 * in a loop would (the bytes of a trailing partial element consumed and lost, as with {@code readFully});
 * a positional write goes to hpio's descriptor as for any file (a device's error, say /dev/full's ENOSPC, is
 * the call's), and a positional read throws IOException.
 *
 * <p>Descriptors: hpio's second descriptor is closed by {@link #close}, or, for an instance dropped unclosed,
 * when the garbage collector finds it unreachable (as the JDK's {@code RandomAccessFile} closes its own).
 */
public class BulkRandomAccessFile extends RandomAccessFile implements BulkDataInput, BulkDataOutput {
    /** hpio's descriptor for positional transfers. */
    private final NativeFile file;
    /** Whether the file is a regular one, with a size (see the class comment). */
    private final boolean regular;
    private final ByteOrder order;
    /** The path in messages. */
    private final String path;
    /** Closes {@link #file} when this instance is closed, or unreachable unclosed. */
    private final NativeFile.DescriptorCloser descriptorCloser;

    /** Opens {@code name} as {@link RandomAccessFile#RandomAccessFile(String, String)} does; big-endian arrays. */
    public BulkRandomAccessFile(String name, String mode) throws IOException {
        this(new File(name), mode, ByteOrder.BIG_ENDIAN);
    }

    public BulkRandomAccessFile(File file, String mode) throws IOException {
        this(file, mode, ByteOrder.BIG_ENDIAN);
    }

    public BulkRandomAccessFile(Path path, String mode) throws IOException {
        this(path.toFile(), mode, ByteOrder.BIG_ENDIAN);
    }

    public BulkRandomAccessFile(String name, String mode, ByteOrder arrayOrder) throws IOException {
        this(new File(name), mode, arrayOrder);
    }

    public BulkRandomAccessFile(Path path, String mode, ByteOrder arrayOrder) throws IOException {
        this(path.toFile(), mode, arrayOrder);
    }

    /**
     * Opens {@code file} with {@code mode} ("r", "rw", "rws", "rwd") as {@code RandomAccessFile} does, with
     * array methods in {@code arrayOrder}: {@link ByteOrder#BIG_ENDIAN} for {@code DataOutputStream}'s bytes,
     * {@link ByteOrder#nativeOrder()} for the no-swap path.
     */
    public BulkRandomAccessFile(File file, String mode, ByteOrder arrayOrder) throws IOException {
        boolean existed = file.exists();
        super(file, mode);
        NativeFile opened = null;
        try {
            this.order = Objects.requireNonNull(arrayOrder, "arrayOrder");
            this.path = file.getPath();
            this.regular = Files.isRegularFile(file.toPath());
            opened = NativeFile.open(file.toPath(), openFlags(mode));
            if (!existed && !mode.equals("r")) {
                NativeFile.forceDirectory(file.toPath().toAbsolutePath().getParent());   // the new name is durable
            }
            this.file = opened;
            this.descriptorCloser = NativeFile.closeWhenUnreachable(opened);
        } catch (IOException | RuntimeException e) {
            if (opened != null) {
                opened.close();
            }
            super.close();
            throw e;
        }
    }

    /**
     * hpio's descriptor for a read at an explicit position.
     *
     * @throws IOException for a file that is not regular, which has no size to check the read against
     */
    private NativeFile forRead() throws IOException {
        if (!regular) {
            throw new IOException(path + " is not a regular file: its arrays are read at the file pointer only");
        }
        return file;
    }

    /**
     * As {@link RandomAccessFile#setLength}; also drops the size hpio's end-of-file checks remember, so that a
     * read past the new end is still refused before any I/O. (A file shrunk through another handle, or through
     * {@code getChannel()}, which cannot be overridden, is met as a short read: "ended during a read", with how
     * many elements arrived.)
     */
    @Override
    public void setLength(long newLength) throws IOException {
        super.setLength(newLength);
        file.forgetSize();
    }

    private static int openFlags(String mode) {
        return switch (mode) {
            case "r" -> Syscalls.O_RDONLY;
            case "rw" -> Syscalls.O_RDWR;
            case "rws" -> Syscalls.O_RDWR | Syscalls.O_SYNC;
            case "rwd" -> Syscalls.O_RDWR | Syscalls.O_DSYNC;
            default -> throw new IllegalArgumentException("bad mode: " + mode);
        };
    }

    @Override
    public ByteOrder arrayOrder() {
        return order;
    }

    private void readAtPointer(ArrayKind kind, Object array, int offset, int count) throws IOException {
        if (!regular) {
            readThroughThisDescriptor(kind, array, offset, count);
            return;
        }
        long position = getFilePointer();
        FileTransfer.read(forRead(), position, kind, array, offset, count, order);
        seek(position + kind.byteSize(count));
    }

    private void writeAtPointer(ArrayKind kind, Object array, int offset, int count) throws IOException {
        if (!regular) {
            writeThroughThisDescriptor(kind, array, offset, count);
            return;
        }
        long position = getFilePointer();
        FileTransfer.write(file, position, kind, array, offset, count, order);
        seek(position + kind.byteSize(count));
    }

    /** The staging array of a transfer through this descriptor: whole elements, at most a stream's staging size. */
    private static byte[] chunkFor(ArrayKind kind, int count) {
        int size = kind.elementSize();
        return new byte[(int) Math.max(size, Math.min(kind.byteSize(count), StagingArray.MAX_BYTES) / size * size)];
    }

    /** A file that is not regular: chunks by {@code readFully} on this descriptor, decoded (see the class comment). */
    private void readThroughThisDescriptor(ArrayKind kind, Object array, int offset, int count) throws IOException {
        kind.checkRange(array, offset, count);
        int size = kind.elementSize();
        byte[] chunk = chunkFor(kind, count);
        int done = 0;
        while (done < count) {
            int n = Math.min(chunk.length / size, count - done);
            readFully(chunk, 0, n * size);
            kind.decode(MemorySegment.ofArray(chunk), 0, order, array, offset + done, n);
            done += n;
        }
    }

    private void writeThroughThisDescriptor(ArrayKind kind, Object array, int offset, int count) throws IOException {
        kind.checkRange(array, offset, count);
        int size = kind.elementSize();
        byte[] chunk = chunkFor(kind, count);
        int done = 0;
        while (done < count) {
            int n = Math.min(chunk.length / size, count - done);
            kind.encode(array, offset + done, n, order, MemorySegment.ofArray(chunk), 0);
            write(chunk, 0, n * size);
            done += n;
        }
    }

    @Override
    public void readArray(boolean[] array, int offset, int count) throws IOException {
        readAtPointer(ArrayKind.BOOLEAN, array, offset, count);
    }

    @Override
    public void writeArray(boolean[] array, int offset, int count) throws IOException {
        writeAtPointer(ArrayKind.BOOLEAN, array, offset, count);
    }

    @Override
    public void readArray(byte[] array, int offset, int count) throws IOException {
        readAtPointer(ArrayKind.BYTE, array, offset, count);
    }

    @Override
    public void writeArray(byte[] array, int offset, int count) throws IOException {
        writeAtPointer(ArrayKind.BYTE, array, offset, count);
    }

    @Override
    public void readArray(char[] array, int offset, int count) throws IOException {
        readAtPointer(ArrayKind.CHAR, array, offset, count);
    }

    @Override
    public void writeArray(char[] array, int offset, int count) throws IOException {
        writeAtPointer(ArrayKind.CHAR, array, offset, count);
    }

    @Override
    public void readArray(short[] array, int offset, int count) throws IOException {
        readAtPointer(ArrayKind.SHORT, array, offset, count);
    }

    @Override
    public void writeArray(short[] array, int offset, int count) throws IOException {
        writeAtPointer(ArrayKind.SHORT, array, offset, count);
    }

    @Override
    public void readArray(int[] array, int offset, int count) throws IOException {
        readAtPointer(ArrayKind.INT, array, offset, count);
    }

    @Override
    public void writeArray(int[] array, int offset, int count) throws IOException {
        writeAtPointer(ArrayKind.INT, array, offset, count);
    }

    @Override
    public void readArray(long[] array, int offset, int count) throws IOException {
        readAtPointer(ArrayKind.LONG, array, offset, count);
    }

    @Override
    public void writeArray(long[] array, int offset, int count) throws IOException {
        writeAtPointer(ArrayKind.LONG, array, offset, count);
    }

    @Override
    public void readArray(float[] array, int offset, int count) throws IOException {
        readAtPointer(ArrayKind.FLOAT, array, offset, count);
    }

    @Override
    public void writeArray(float[] array, int offset, int count) throws IOException {
        writeAtPointer(ArrayKind.FLOAT, array, offset, count);
    }

    @Override
    public void readArray(double[] array, int offset, int count) throws IOException {
        readAtPointer(ArrayKind.DOUBLE, array, offset, count);
    }

    @Override
    public void writeArray(double[] array, int offset, int count) throws IOException {
        writeAtPointer(ArrayKind.DOUBLE, array, offset, count);
    }

    @Override
    public void readArray(Object[] nested) throws IOException {
        long position = getFilePointer();
        seek(readArray(position, nested));
    }

    @Override
    public void writeArray(Object[] nested) throws IOException {
        long position = getFilePointer();
        seek(writeArray(position, nested));
    }

    // ---- Positional forms: the file pointer stays where it is; safe from many threads at once. ----

    /**
     * Reads the rows of {@code nested} back to back from {@code position}; returns the position after them.
     * The whole length is checked against the file before any row is read.
     */
    public long readArray(long position, Object[] nested) throws IOException {
        List<Object> rows = NestedArrays.rows(nested);
        FileTransfer.checkPosition(position);
        long total = NestedArrays.byteSize(rows);
        long available = forRead().size() - position;
        if (total > 0 && total > available) {
            throw new EOFException("end of file: " + total + " bytes of rows requested at offset " + position
                    + " of " + file.path() + " but only " + Math.max(0, available) + " remain; nothing read");
        }
        for (Object row : rows) {
            ArrayKind kind = ArrayKind.of(row);
            int length = kind.length(row);
            FileTransfer.read(forRead(), position, kind, row, 0, length, order);
            position += kind.byteSize(length);
        }
        return position;
    }

    /** Writes the rows of {@code nested} back to back at {@code position}; returns the position after them. */
    public long writeArray(long position, Object[] nested) throws IOException {
        List<Object> rows = NestedArrays.rows(nested);
        FileTransfer.checkPosition(position);
        for (Object row : rows) {
            ArrayKind kind = ArrayKind.of(row);
            int length = kind.length(row);
            FileTransfer.write(file, position, kind, row, 0, length, order);
            position += kind.byteSize(length);
        }
        return position;
    }

    /** Reads {@code array.length} booleans at {@code position}; the file pointer does not move. */
    public void readArray(long position, boolean[] array) throws IOException {
        readArray(position, array, 0, array.length);
    }

    /** Reads {@code count} booleans at {@code position} into {@code array[offset ..]}; the file pointer does not move. */
    public void readArray(long position, boolean[] array, int offset, int count) throws IOException {
        FileTransfer.read(forRead(), position, ArrayKind.BOOLEAN, array, offset, count, order);
    }

    /** Writes every element of {@code array} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, boolean[] array) throws IOException {
        writeArray(position, array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, boolean[] array, int offset, int count) throws IOException {
        FileTransfer.write(file, position, ArrayKind.BOOLEAN, array, offset, count, order);
    }

    /** Reads {@code array.length} bytes at {@code position}; the file pointer does not move. */
    public void readArray(long position, byte[] array) throws IOException {
        readArray(position, array, 0, array.length);
    }

    /** Reads {@code count} bytes at {@code position} into {@code array[offset ..]}; the file pointer does not move. */
    public void readArray(long position, byte[] array, int offset, int count) throws IOException {
        FileTransfer.read(forRead(), position, ArrayKind.BYTE, array, offset, count, order);
    }

    /** Writes every element of {@code array} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, byte[] array) throws IOException {
        writeArray(position, array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, byte[] array, int offset, int count) throws IOException {
        FileTransfer.write(file, position, ArrayKind.BYTE, array, offset, count, order);
    }

    /** Reads {@code array.length} chars at {@code position}; the file pointer does not move. */
    public void readArray(long position, char[] array) throws IOException {
        readArray(position, array, 0, array.length);
    }

    /** Reads {@code count} chars at {@code position} into {@code array[offset ..]}; the file pointer does not move. */
    public void readArray(long position, char[] array, int offset, int count) throws IOException {
        FileTransfer.read(forRead(), position, ArrayKind.CHAR, array, offset, count, order);
    }

    /** Writes every element of {@code array} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, char[] array) throws IOException {
        writeArray(position, array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, char[] array, int offset, int count) throws IOException {
        FileTransfer.write(file, position, ArrayKind.CHAR, array, offset, count, order);
    }

    /** Reads {@code array.length} shorts at {@code position}; the file pointer does not move. */
    public void readArray(long position, short[] array) throws IOException {
        readArray(position, array, 0, array.length);
    }

    /** Reads {@code count} shorts at {@code position} into {@code array[offset ..]}; the file pointer does not move. */
    public void readArray(long position, short[] array, int offset, int count) throws IOException {
        FileTransfer.read(forRead(), position, ArrayKind.SHORT, array, offset, count, order);
    }

    /** Writes every element of {@code array} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, short[] array) throws IOException {
        writeArray(position, array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, short[] array, int offset, int count) throws IOException {
        FileTransfer.write(file, position, ArrayKind.SHORT, array, offset, count, order);
    }

    /** Reads {@code array.length} ints at {@code position}; the file pointer does not move. */
    public void readArray(long position, int[] array) throws IOException {
        readArray(position, array, 0, array.length);
    }

    /** Reads {@code count} ints at {@code position} into {@code array[offset ..]}; the file pointer does not move. */
    public void readArray(long position, int[] array, int offset, int count) throws IOException {
        FileTransfer.read(forRead(), position, ArrayKind.INT, array, offset, count, order);
    }

    /** Writes every element of {@code array} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, int[] array) throws IOException {
        writeArray(position, array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, int[] array, int offset, int count) throws IOException {
        FileTransfer.write(file, position, ArrayKind.INT, array, offset, count, order);
    }

    /** Reads {@code array.length} longs at {@code position}; the file pointer does not move. */
    public void readArray(long position, long[] array) throws IOException {
        readArray(position, array, 0, array.length);
    }

    /** Reads {@code count} longs at {@code position} into {@code array[offset ..]}; the file pointer does not move. */
    public void readArray(long position, long[] array, int offset, int count) throws IOException {
        FileTransfer.read(forRead(), position, ArrayKind.LONG, array, offset, count, order);
    }

    /** Writes every element of {@code array} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, long[] array) throws IOException {
        writeArray(position, array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, long[] array, int offset, int count) throws IOException {
        FileTransfer.write(file, position, ArrayKind.LONG, array, offset, count, order);
    }

    /** Reads {@code array.length} floats at {@code position}; the file pointer does not move. */
    public void readArray(long position, float[] array) throws IOException {
        readArray(position, array, 0, array.length);
    }

    /** Reads {@code count} floats at {@code position} into {@code array[offset ..]}; the file pointer does not move. */
    public void readArray(long position, float[] array, int offset, int count) throws IOException {
        FileTransfer.read(forRead(), position, ArrayKind.FLOAT, array, offset, count, order);
    }

    /** Writes every element of {@code array} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, float[] array) throws IOException {
        writeArray(position, array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, float[] array, int offset, int count) throws IOException {
        FileTransfer.write(file, position, ArrayKind.FLOAT, array, offset, count, order);
    }

    /** Reads {@code array.length} doubles at {@code position}; the file pointer does not move. */
    public void readArray(long position, double[] array) throws IOException {
        readArray(position, array, 0, array.length);
    }

    /** Reads {@code count} doubles at {@code position} into {@code array[offset ..]}; the file pointer does not move. */
    public void readArray(long position, double[] array, int offset, int count) throws IOException {
        FileTransfer.read(forRead(), position, ArrayKind.DOUBLE, array, offset, count, order);
    }

    /** Writes every element of {@code array} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, double[] array) throws IOException {
        writeArray(position, array, 0, array.length);
    }

    /** Writes {@code array[offset .. offset + count)} at {@code position}; the file pointer does not move. */
    public void writeArray(long position, double[] array, int offset, int count) throws IOException {
        FileTransfer.write(file, position, ArrayKind.DOUBLE, array, offset, count, order);
    }

    /** Closes hpio's descriptor (after any positional call in flight) and then the file itself. */
    @Override
    public void close() throws IOException {
        try {
            descriptorCloser.clean();   // closes hpio's descriptor, once
        } finally {
            super.close();
        }
    }
}
