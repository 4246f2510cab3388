package org.hpio.nio;

import java.io.IOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;

/**
 * A lock taken through the JDK's own channel on the same file (so the JVM-wide overlap checks and
 * {@link java.nio.channels.OverlappingFileLockException} are the JDK's), reported as acquired by hpio's channel.
 */
final class HpioFileLock extends FileLock {
    private final FileLock jdkLock;

    HpioFileLock(FileChannel channel, FileLock jdkLock) {
        super(channel, jdkLock.position(), jdkLock.size(), jdkLock.isShared());
        this.jdkLock = jdkLock;
    }

    HpioFileLock(AsynchronousFileChannel channel, FileLock jdkLock) {
        super(channel, jdkLock.position(), jdkLock.size(), jdkLock.isShared());
        this.jdkLock = jdkLock;
    }

    /** Invalid once hpio's channel is closed (whose close closes the JDK's channel last), as the JDK's locks. */
    @Override
    public boolean isValid() {
        return jdkLock.isValid() && acquiredBy().isOpen();
    }

    @Override
    public void release() throws IOException {
        if (!acquiredBy().isOpen()) {
            throw new ClosedChannelException();
        }
        jdkLock.release();
    }
}
