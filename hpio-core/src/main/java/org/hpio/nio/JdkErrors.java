package org.hpio.nio;

import org.hpio.internal.sys.Errno;

import java.io.IOException;

/**
 * hpio's reports of failed system calls, given to callers of the JDK's channel API as the JDK's channels give
 * theirs: a plain IOException whose message is the C library's text for the errno ("No space left on device",
 * "File too large"), which code written against the JDK's channels may match on. hpio's own report, which says
 * the call, the file and the offset, is its cause. The one place the channels translate them.
 */
final class JdkErrors {
    private JdkErrors() {
    }

    /** {@code e} as the JDK's channel reports a failed read, write or sync; any other exception unchanged. */
    static IOException asJdks(IOException e) {
        int errno = Errno.ofCall(e);
        return errno < 0 ? e : new IOException(Errno.strerror(errno), e);
    }

    /** As {@link #asJdks(IOException)}, for a failure handed to a Future or a CompletionHandler. */
    static Throwable asJdks(Throwable failure) {
        return failure instanceof IOException e ? asJdks(e) : failure;
    }
}
