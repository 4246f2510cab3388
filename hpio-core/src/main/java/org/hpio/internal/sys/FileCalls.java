package org.hpio.internal.sys;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * The calls a {@link NativeFile} makes on its open file: Linux system calls on a descriptor
 * ({@link DescriptorCalls}), or, where native calls are off ({@link NativeAccess}), the JDK's {@code FileChannel}
 * ({@link ChannelCalls}). {@link NativeFile} keeps what both share: the use count that makes close safe against
 * calls in flight, the size hint, the durability of a new name.
 *
 * <p>Buffers are borrowed for the duration of one call only.
 */
sealed interface FileCalls permits DescriptorCalls, ChannelCalls {
    /** One positional read of up to {@code buffer.byteSize()} bytes; 0 at the end of the file. */
    long read(MemorySegment buffer, long position) throws IOException;

    /** One positional write of up to {@code buffer.byteSize()} bytes; the count written. */
    long write(MemorySegment buffer, long position) throws IOException;

    /** The file's size now. */
    long size() throws IOException;

    /** fdatasync, or fsync when {@code metadata}. */
    void force(boolean metadata) throws IOException;

    /** posix_fadvise over the whole file; a hint, which the channel ignores. */
    void advise(int advice) throws IOException;

    /** The descriptor, for io_uring and statx; there is none under a channel. */
    int descriptor();

    /** Closes the file, once, when no call is in flight. */
    void close() throws IOException;
}
