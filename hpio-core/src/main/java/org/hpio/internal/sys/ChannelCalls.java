package org.hpio.internal.sys;

import java.util.HashSet;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@link FileCalls} on the JDK's {@code FileChannel}: what hpio uses where its native calls are off
 * ({@link NativeAccess}). Positional reads and writes only, as with a descriptor, so many threads may share it.
 *
 * <p>Failures become the same exceptions, with the same errno ({@link Errno#of}), as the system calls' would
 * (the JDK's message names the cause; the errno is recovered from the exception's type or the C library's
 * words for it).
 *
 * <p>Interrupts: the JDK closes a channel when a thread blocked in it is interrupted, which would close the file
 * for every other user of this handle. The interrupted call fails with an {@link InterruptedIOException} (the
 * thread stays interrupted); the channel is reopened on the same path (without create or truncate), and the
 * other calls it failed are retried.
 */
final class ChannelCalls implements FileCalls {
    /** The largest buffer one channel call takes (a ByteBuffer has an int size). */
    private static final int MAX_CALL = 1 << 30;
    /** The largest transfer one call stages through a byte array for an array of another type. */
    private static final int STAGE = 1 << 20;

    private final Path path;
    private final Set<OpenOption> reopenOptions;
    private final ReentrantLock reopening = new ReentrantLock();
    private volatile FileChannel channel;
    private volatile boolean closed;

    private ChannelCalls(Path path, FileChannel channel, Set<OpenOption> reopenOptions) {
        this.path = path;
        this.channel = channel;
        this.reopenOptions = reopenOptions;
    }

    /** Opens {@code path} with open(2) {@code flags} translated to the JDK's options; O_DIRECT is refused. */
    static ChannelCalls open(Path path, int flags) throws IOException {
        if ((flags & Syscalls.O_DIRECT) != 0) {
            throw NativeAccess.unsupported("O_DIRECT (opening " + path + ")");
        }
        Set<OpenOption> options = options(flags);
        try {
            FileChannel channel = FileChannel.open(path, options);
            Set<OpenOption> reopen = new HashSet<>(options);
            reopen.removeAll(Set.of(StandardOpenOption.CREATE, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.TRUNCATE_EXISTING));
            return new ChannelCalls(path, channel, Set.copyOf(reopen));
        } catch (IOException e) {
            throw translate("open", path.toString(), -1, e);
        }
    }

    static Set<OpenOption> options(int flags) {
        Set<OpenOption> options = new HashSet<>();
        switch (flags & 3) {
            case Syscalls.O_RDONLY -> options.add(StandardOpenOption.READ);
            case Syscalls.O_WRONLY -> options.add(StandardOpenOption.WRITE);
            default -> options.addAll(EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE));
        }
        if ((flags & Syscalls.O_CREAT) != 0) {
            options.add((flags & Syscalls.O_EXCL) != 0 ? StandardOpenOption.CREATE_NEW : StandardOpenOption.CREATE);
        }
        if ((flags & Syscalls.O_TRUNC) != 0) {
            options.add(StandardOpenOption.TRUNCATE_EXISTING);
        }
        if ((flags & Syscalls.O_SYNC) == Syscalls.O_SYNC) {
            options.add(StandardOpenOption.SYNC);
        } else if ((flags & Syscalls.O_DSYNC) != 0) {
            options.add(StandardOpenOption.DSYNC);
        }
        return options;
    }

    @Override
    public long read(MemorySegment buffer, long position) throws IOException {
        if (!viewable(buffer)) {   // an int[], long[]... array: read into bytes, then copy
            MemorySegment staged = MemorySegment.ofArray(new byte[(int) Math.min(buffer.byteSize(), STAGE)]);
            long got = read(staged, position);
            MemorySegment.copy(staged, 0, buffer, 0, got);
            return got;
        }
        ByteBuffer b = slice(buffer);
        return call("pread", position, c -> Math.max(0, c.read(b.clear(), position)));
    }

    @Override
    public long write(MemorySegment buffer, long position) throws IOException {
        if (!viewable(buffer)) {
            MemorySegment staged = MemorySegment.ofArray(new byte[(int) Math.min(buffer.byteSize(), STAGE)]);
            MemorySegment.copy(buffer, 0, staged, 0, staged.byteSize());
            return write(staged, position);
        }
        ByteBuffer b = slice(buffer);
        return call("pwrite", position, c -> c.write(b.clear(), position));
    }

    /** Whether {@code buffer} can be seen as a ByteBuffer: native memory or a writable byte[] (not a long[]...). */
    private static boolean viewable(MemorySegment buffer) {
        return buffer.isNative() || buffer.heapBase().orElse(null) instanceof byte[];
    }

    @Override
    public long size() throws IOException {
        return call("size", -1, FileChannel::size);
    }

    @Override
    public void force(boolean metadata) throws IOException {
        call(metadata ? "fsync" : "fdatasync", -1, c -> {
            c.force(metadata);
            return 0;
        });
    }

    /** A hint; the JDK has no call for it. */
    @Override
    public void advise(int advice) {
    }

    @Override
    public int descriptor() {
        throw NativeAccess.unsupported("a file descriptor (of " + path + ")");
    }

    @Override
    public void close() throws IOException {
        closed = true;
        try {
            channel.close();
        } catch (IOException e) {
            throw translate("close", path.toString(), -1, e);
        }
    }

    private static ByteBuffer slice(MemorySegment buffer) {
        return buffer.asSlice(0, Math.min(buffer.byteSize(), MAX_CALL)).asByteBuffer();
    }

    @FunctionalInterface
    private interface ChannelCall {
        long on(FileChannel channel) throws IOException;
    }

    private long call(String operation, long position, ChannelCall call) throws IOException {
        while (true) {
            FileChannel c = channel;
            try {
                return call.on(c);
            } catch (ClosedByInterruptException e) {
                reopen(c);
                InterruptedIOException interrupted = new InterruptedIOException(operation + " of " + path
                        + (position >= 0 ? " at offset " + position : "") + " interrupted");
                interrupted.initCause(e);
                throw interrupted;
            } catch (ClosedChannelException e) {
                if (closed) {
                    throw new IOException("file is closed: " + path, e);
                }
                reopen(c);   // another thread's interrupt closed it under this call: retry on the new channel
            } catch (IOException e) {
                throw translate(operation, path.toString(), position, e);
            } catch (NonReadableChannelException | NonWritableChannelException e) {
                throw Errno.exception(operation, Errno.EBADF, path.toString(), position); // as on a descriptor
            }
        }
    }

    /** Replaces {@code dead} (closed by an interrupt) with a channel newly opened on the same path, once. */
    private void reopen(FileChannel dead) throws IOException {
        reopening.lock();
        try {
            if (channel == dead && !closed) {
                try {
                    channel = FileChannel.open(path, reopenOptions);
                } catch (IOException e) {
                    throw translate("reopen (after an interrupt closed the channel)", path.toString(), -1, e);
                }
            }
        } finally {
            reopening.unlock();
        }
    }

    /** The JDK's exception {@code e} as the system call's would be: same errno, operation, path and offset. */
    static IOException translate(String operation, String path, long position, IOException e) {
        IOException translated = Errno.exception(operation, errnoOf(e), path, position);
        translated.initCause(e);
        return translated;
    }

    private static int errnoOf(IOException e) {
        switch (e) {
            case NoSuchFileException ignored -> {
                return Errno.ENOENT;
            }
            case AccessDeniedException ignored -> {
                return Errno.EACCES;
            }
            case FileAlreadyExistsException ignored -> {
                return Errno.EEXIST;
            }
            case NotDirectoryException ignored -> {
                return Errno.ENOTDIR;
            }
            default -> {
            }
        }
        String message = e instanceof FileSystemException f ? f.getReason() : e.getMessage();
        String words = message == null ? "" : message.toLowerCase(Locale.ROOT);
        if (words.contains("no space left")) {
            return Errno.ENOSPC;
        } else if (words.contains("quota")) {
            return Errno.EDQUOT;
        } else if (words.contains("is a directory")) {
            return Errno.EISDIR;
        } else if (words.contains("file too large")) {
            return Errno.EFBIG;
        } else if (words.contains("read-only file system")) {
            return Errno.EROFS;
        } else if (words.contains("too many open files")) {
            return Errno.EMFILE;
        }
        return Errno.EIO;
    }
}
