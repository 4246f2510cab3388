package org.hpio.bulk;

import org.hpio.internal.array.ArrayKind;
import org.hpio.internal.sys.FileMapping;
import org.hpio.internal.sys.NativeAccess;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * {@link MappedRead} for the bulk streams over a plain file ({@link FileStreamChannel}): the stream's range
 * mapped through its own {@link FileChannel} into a confined arena for the call (no JVM-wide handshake to
 * unmap), copied (swapped) out in pieces into the array, and the channel's position moved past what was read.
 * Same sizes as for {@link BulkRandomAccessFile}: from {@link FileTransfer#MAPPED_MIN} bytes up, and only when
 * every page is in the page cache ({@link FileMapping#likelyResident}); otherwise staged.
 *
 * <p>A fault on a page past the end of a file that shrank meanwhile arrives as an asynchronous
 * {@link InternalError} by the channel's next native call at the latest (the size check, the unmapping); it is
 * caught here, and the staged read then reads from the same position to the file's new end (the copy may have
 * stopped short of it), as a read at the end of the stream does. A fault on a file that did not shrink (an I/O
 * error reading a page in) is an IOException naming the offsets (a FileInputStream does not know its file's name). Not
 * thread-safe (neither is the stream); the mapping never leaves the call.
 */
final class MappedChannelRead {
    private MappedChannelRead() {
    }

    /**
     * Reads up to {@code count} elements at the channel's position, stopping early only at the end of the file;
     * returns the whole elements read, or -1, having read nothing, when the range is under
     * {@link FileTransfer#MAPPED_MIN} bytes, the file cannot be mapped (a pipe, a device) or not all of it is in
     * the page cache, or the file shrank during the copy: the stream's position has not moved.
     */
    static int read(FileChannel channel, ArrayKind kind, Object array, int offset, int count, ByteOrder order)
            throws IOException {
        long position;
        long fileSize;
        try {
            position = channel.position();
            fileSize = channel.size();
        } catch (IOException notSeekable) {
            return -1;   // a pipe or a device: the staged read works on any stream (and reports a closed one)
        }
        int size = kind.elementSize();
        int wanted = (int) Math.min(count, Math.max(0, fileSize - position) / size);
        long bytes = kind.byteSize(wanted);
        if (bytes < FileTransfer.MAPPED_MIN) {
            return -1;
        }
        long sizeNow;
        try {
            sizeNow = mapAndCopy(channel, position, kind, array, offset, wanted, order);
        } catch (InternalError fault) {
            sizeNow = channel.size();
            if (sizeNow >= position + bytes) {
                throw new IOException("a fault reading the mapped pages of a file at offsets " + position + " to "
                        + (position + bytes) + " (an I/O error reading the file in?): " + fault.getMessage(), fault);
            }
        }
        if (sizeNow < position + bytes) {
            return -1;   // not mappable, not cached, or shrunk during the copy: the staged read ends where the file does
        }
        // The file ends inside the element after the last whole one: its bytes are consumed and lost, as the
        // staged read and readFully lose them.
        long partial = wanted < count ? Math.max(0, fileSize - position - bytes) : 0;
        channel.position(position + bytes + partial);
        return wanted;
    }

    /** The file's size after the copy, or -1 when the file cannot be mapped or is not all in the page cache. */
    private static long mapAndCopy(FileChannel channel, long position, ArrayKind kind, Object array, int offset,
                                   int count, ByteOrder order) throws IOException {
        if (!NativeAccess.available()) {
            return -1;   // the residency check (mincore) is a native call: read it staged
        }
        try (Arena arena = Arena.ofConfined()) {
            long inPage = FileMapping.offsetInPage(position);
            MemorySegment pages;
            try {
                pages = channel.map(FileChannel.MapMode.READ_ONLY, position - inPage, inPage + kind.byteSize(count),
                        arena);
            } catch (IOException | UnsupportedOperationException notMappable) {
                if (!channel.isOpen()) {
                    throw notMappable;   // closed (by an interrupt, say): not a reason to try another way
                }
                return -1;
            }
            if (!FileMapping.likelyResident(pages, arena)) {
                return -1;   // a fault that reads the disk would hold off the JVM's safepoints: read it staged
            }
            MappedRead.copyOut(pages.asSlice(inPage), kind, array, offset, count, order);
            return channel.size();   // a native call: a fault's pending InternalError is delivered here at the latest
        }
    }
}
