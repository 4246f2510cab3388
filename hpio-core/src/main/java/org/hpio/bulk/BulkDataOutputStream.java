package org.hpio.bulk;

import org.hpio.internal.array.ArrayKind;
import org.hpio.internal.array.NestedArrays;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * A {@link DataOutputStream} with bulk array writes (000 §3, 001 §5) over any {@link OutputStream}. Array
 * writes and the inherited single-value writes may be interleaved; {@link #size()} counts both.
 *
 * <p>Elements are encoded in bulk into one staging array owned by this stream (at most
 * 128 KiB, allocated on first use) and handed to the underlying stream a chunk at a
 * time; a byte[] is written straight through. Over a plain {@link java.io.FileOutputStream}, array writes
 * go through its FileChannel and an off-heap staging buffer instead, one copy fewer (see FileStreamChannel;
 * an interrupt during such a write closes the stream, as FileChannel does). Nothing is buffered across calls: when {@code writeArray}
 * returns, its bytes were given to the underlying stream. Not thread-safe for array writes.
 */
public class BulkDataOutputStream extends DataOutputStream implements BulkDataOutput {
    private final ByteOrder order;
    private final StagingArray staging = new StagingArray();
    private boolean closed;

    /** Writes arrays in big-endian order: exactly the bytes of {@code DataOutputStream}'s writeX loop. */
    public BulkDataOutputStream(OutputStream out) {
        this(out, ByteOrder.BIG_ENDIAN);
    }

    /** Writes arrays in {@code arrayOrder}; {@link ByteOrder#nativeOrder()} swaps nothing. */
    public BulkDataOutputStream(OutputStream out, ByteOrder arrayOrder) {
        super(Objects.requireNonNull(out, "out"));
        this.order = Objects.requireNonNull(arrayOrder, "arrayOrder");
    }

    @Override
    public ByteOrder arrayOrder() {
        return order;
    }

    @Override
    public void writeArray(boolean[] array, int offset, int count) throws IOException {
        writeElements(ArrayKind.BOOLEAN, array, offset, count);
    }

    @Override
    public void writeArray(byte[] array, int offset, int count) throws IOException {
        writeElements(ArrayKind.BYTE, array, offset, count);
    }

    @Override
    public void writeArray(char[] array, int offset, int count) throws IOException {
        writeElements(ArrayKind.CHAR, array, offset, count);
    }

    @Override
    public void writeArray(short[] array, int offset, int count) throws IOException {
        writeElements(ArrayKind.SHORT, array, offset, count);
    }

    @Override
    public void writeArray(int[] array, int offset, int count) throws IOException {
        writeElements(ArrayKind.INT, array, offset, count);
    }

    @Override
    public void writeArray(long[] array, int offset, int count) throws IOException {
        writeElements(ArrayKind.LONG, array, offset, count);
    }

    @Override
    public void writeArray(float[] array, int offset, int count) throws IOException {
        writeElements(ArrayKind.FLOAT, array, offset, count);
    }

    @Override
    public void writeArray(double[] array, int offset, int count) throws IOException {
        writeElements(ArrayKind.DOUBLE, array, offset, count);
    }

    @Override
    public void writeArray(Object[] nested) throws IOException {
        for (Object row : NestedArrays.rows(nested)) {
            ArrayKind kind = ArrayKind.of(row);
            writeElements(kind, row, 0, kind.length(row));
        }
    }

    private void writeElements(ArrayKind kind, Object array, int offset, int count) throws IOException {
        kind.checkRange(array, offset, count);
        if (closed) {
            throw new IOException("stream is closed");
        }
        if (kind == ArrayKind.BYTE) {
            write((byte[]) array, offset, count);
            return;
        }
        FileChannel channel = FileStreamChannel.of(out);
        if (channel != null) {
            FileStreamChannel.write(channel, kind, array, offset, count, order);
            written = (int) Math.min(Integer.MAX_VALUE, written + kind.byteSize(count));
            return;
        }
        int size = kind.elementSize();
        byte[] buffer = staging.get(kind.byteSize(count));
        MemorySegment bytes = MemorySegment.ofArray(buffer);
        int perChunk = buffer.length / size;
        for (int done = 0; done < count; ) {
            int n = Math.min(perChunk, count - done);
            kind.encode(array, offset + done, n, order, bytes, 0);
            write(buffer, 0, n * size);
            done += n;
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        staging.drop();
        super.close();
    }
}
