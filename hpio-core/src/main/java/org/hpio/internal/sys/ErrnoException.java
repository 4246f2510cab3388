package org.hpio.internal.sys;

import java.nio.file.FileSystemException;

/** A failed system call: the message says what failed where, {@link #errno()} the kernel's error number. */
public final class ErrnoException extends FileSystemException {
    private final int errno;

    ErrnoException(String path, String reason, int errno) {
        super(path, null, reason);
        this.errno = errno;
    }

    public int errno() {
        return errno;
    }
}
