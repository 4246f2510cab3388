package org.hpio.bulk;

import org.hpio.internal.array.ArrayKind;
import org.hpio.internal.array.NestedArrays;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * A {@link DataInputStream} with bulk array reads (000 §3, 001 §5) over any {@link InputStream}: a file, a
 * socket, a gzip stream, a byte array. Array reads and the inherited single-value reads may be interleaved
 * (a header read with {@code readInt}, then {@code readArray}); this class reads ahead nothing.
 *
 * <p>Bytes pass through one staging array owned by this stream (at most 128 KiB,
 * allocated on first use), decoded in bulk; a byte[] is read straight into. Over a plain
 * {@link java.io.FileInputStream}, array reads go through its FileChannel and an off-heap staging buffer
 * instead, one copy fewer, and from 1 MiB are copied out of a mapping made for the call (see FileStreamChannel;
 * an interrupt during such a read closes the stream, as FileChannel does). Short reads of the underlying
 * stream are retried until the array is full or the stream ends; at the end an {@link EOFException} says how
 * many elements were read (those are in the array; the bytes of a partial element are lost, as with
 * {@code readFully}). Not thread-safe, like {@code DataInputStream}.
 */
public class BulkDataInputStream extends DataInputStream implements BulkDataInput {
    private final ByteOrder order;
    private final StagingArray staging = new StagingArray();
    private boolean closed;

    /** Reads arrays in big-endian order, the bytes {@code DataOutputStream} writes. */
    public BulkDataInputStream(InputStream in) {
        this(in, ByteOrder.BIG_ENDIAN);
    }

    /** Reads arrays in {@code arrayOrder}; {@link ByteOrder#nativeOrder()} swaps nothing. */
    public BulkDataInputStream(InputStream in, ByteOrder arrayOrder) {
        super(Objects.requireNonNull(in, "in"));
        this.order = Objects.requireNonNull(arrayOrder, "arrayOrder");
    }

    @Override
    public ByteOrder arrayOrder() {
        return order;
    }

    @Override
    public void readArray(boolean[] array, int offset, int count) throws IOException {
        readElements(ArrayKind.BOOLEAN, array, offset, count);
    }

    @Override
    public void readArray(byte[] array, int offset, int count) throws IOException {
        readElements(ArrayKind.BYTE, array, offset, count);
    }

    @Override
    public void readArray(char[] array, int offset, int count) throws IOException {
        readElements(ArrayKind.CHAR, array, offset, count);
    }

    @Override
    public void readArray(short[] array, int offset, int count) throws IOException {
        readElements(ArrayKind.SHORT, array, offset, count);
    }

    @Override
    public void readArray(int[] array, int offset, int count) throws IOException {
        readElements(ArrayKind.INT, array, offset, count);
    }

    @Override
    public void readArray(long[] array, int offset, int count) throws IOException {
        readElements(ArrayKind.LONG, array, offset, count);
    }

    @Override
    public void readArray(float[] array, int offset, int count) throws IOException {
        readElements(ArrayKind.FLOAT, array, offset, count);
    }

    @Override
    public void readArray(double[] array, int offset, int count) throws IOException {
        readElements(ArrayKind.DOUBLE, array, offset, count);
    }

    @Override
    public void readArray(Object[] nested) throws IOException {
        for (Object row : NestedArrays.rows(nested)) {
            ArrayKind kind = ArrayKind.of(row);
            readElements(kind, row, 0, kind.length(row));
        }
    }

    private void readElements(ArrayKind kind, Object array, int offset, int count) throws IOException {
        kind.checkRange(array, offset, count);
        ensureOpen();
        if (kind == ArrayKind.BYTE) {
            int got = readUpTo((byte[]) array, offset, count);
            if (got < count) {
                throw endOfStream(kind, got, count);
            }
            return;
        }
        FileChannel channel = FileStreamChannel.of(in);
        if (channel != null) {
            int got = FileStreamChannel.read(channel, kind, array, offset, count, order);
            if (got < count) {
                throw endOfStream(kind, got, count);
            }
            return;
        }
        int size = kind.elementSize();
        byte[] buffer = staging.get(kind.byteSize(count));
        MemorySegment bytes = MemorySegment.ofArray(buffer);
        int perChunk = buffer.length / size;
        int done = 0;
        while (done < count) {
            int n = Math.min(perChunk, count - done);
            int want = n * size;
            int got = readUpTo(buffer, 0, want);
            int whole = got / size;
            kind.decode(bytes, 0, order, array, offset + done, whole);
            done += whole;
            if (got < want) {
                throw endOfStream(kind, done, count);
            }
        }
    }

    /** Reads until {@code length} bytes arrived or the stream ended; returns the count. */
    private int readUpTo(byte[] buffer, int offset, int length) throws IOException {
        int done = 0;
        while (done < length) {
            int got = in.read(buffer, offset + done, length - done);
            if (got < 0) {
                break;
            }
            done += got;
        }
        return done;
    }

    private static EOFException endOfStream(ArrayKind kind, int read, int count) {
        return new EOFException("end of stream: " + read + " of " + count + " " + kind.typeName() + "s read");
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("stream is closed");
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        staging.drop();
        super.close();
    }
}
