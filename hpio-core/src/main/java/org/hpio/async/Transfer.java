package org.hpio.async;

import org.hpio.internal.array.ArrayKind;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * The caller's side of one request: where the bytes come from or go to. A heap array or heap segment is
 * staged (copied off-heap at initiation for a write, copied in at completion for a read); a native segment is
 * handed to the kernel as it is.
 */
sealed interface Transfer {
    long bytes();

    /** The caller's own off-heap memory, used directly; null when the transfer is staged. */
    MemorySegment direct();

    /** Copies the source's bytes {@code [offset, offset + dst.byteSize())} into {@code dst} (writes). */
    void encode(long offset, MemorySegment dst);

    /** Copies {@code src} into the destination at byte {@code offset} (reads). */
    void decode(MemorySegment src, long offset);

    /** {@code count} elements of a primitive array from {@code index}, in {@code order}. */
    record OfArray(Object array, ArrayKind kind, int index, int count, ByteOrder order) implements Transfer {
        static OfArray of(Object array, int index, int count, ByteOrder order) {
            if (array == null) {
                throw new NullPointerException("array");
            }
            ArrayKind kind = ArrayKind.of(array);
            kind.checkRange(array, index, count);
            return new OfArray(array, kind, index, count, order);
        }

        @Override
        public long bytes() {
            return kind.byteSize(count);
        }

        @Override
        public MemorySegment direct() {
            return null;
        }

        @Override
        public void encode(long offset, MemorySegment dst) {
            int first = index + (int) (offset / kind.elementSize());
            kind.encode(array, first, (int) (dst.byteSize() / kind.elementSize()), order, dst, 0);
        }

        @Override
        public void decode(MemorySegment src, long offset) {
            int first = index + (int) (offset / kind.elementSize());
            kind.decode(src, 0, order, array, first, (int) (src.byteSize() / kind.elementSize()));
        }
    }

    /** The bytes of a memory segment (or of a ByteBuffer, seen as one), native or heap. */
    record OfSegment(MemorySegment segment) implements Transfer {
        @Override
        public long bytes() {
            return segment.byteSize();
        }

        @Override
        public MemorySegment direct() {
            return segment.isNative() ? segment : null;
        }

        @Override
        public void encode(long offset, MemorySegment dst) {
            MemorySegment.copy(segment, offset, dst, 0, dst.byteSize());
        }

        @Override
        public void decode(MemorySegment src, long offset) {
            MemorySegment.copy(src, 0, segment, offset, src.byteSize());
        }
    }
}
