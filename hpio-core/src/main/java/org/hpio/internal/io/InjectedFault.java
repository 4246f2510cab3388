package org.hpio.internal.io;

import org.hpio.internal.sys.Errno;

import java.util.Objects;

/**
 * What a {@link EngineConfig.FaultHook} decided for one operation: nothing, a completion with an errno (no
 * I/O done), a short transfer (the I/O really happens, for only the first {@code bytes} bytes, and the result
 * says so, as a kernel's short read or write would), or a refused submission (the submitting call throws an
 * IOException carrying the errno, as io_uring_enter's EAGAIN or EINTR would surface if the engine gave up;
 * nothing is left in flight).
 *
 * @param kind  which of the four
 * @param errno for {@link Kind#COMPLETE_WITH_ERRNO} and {@link Kind#REFUSE_SUBMISSION}; 0 otherwise
 * @param bytes for {@link Kind#SHORT}: how many bytes the shortened READ or WRITE moves (less than asked)
 */
public record InjectedFault(Kind kind, int errno, long bytes) {
    public enum Kind { NONE, COMPLETE_WITH_ERRNO, SHORT, REFUSE_SUBMISSION }

    public static final InjectedFault NONE = new InjectedFault(Kind.NONE, 0, 0);

    public InjectedFault {
        Objects.requireNonNull(kind, "kind");
        if ((kind == Kind.COMPLETE_WITH_ERRNO || kind == Kind.REFUSE_SUBMISSION) != (errno > 0)) {
            throw new IllegalArgumentException(kind + " with errno " + errno);
        }
        if (kind == Kind.SHORT ? bytes < 0 : bytes != 0) {
            throw new IllegalArgumentException(kind + " with " + bytes + " bytes");
        }
    }

    /** The operation completes with {@code errno}, without doing any I/O. */
    public static InjectedFault completeWith(int errno) {
        return new InjectedFault(Kind.COMPLETE_WITH_ERRNO, errno, 0);
    }

    /** A READ or WRITE moves only its first {@code bytes} bytes (for real) and reports that count. */
    public static InjectedFault shortTransfer(long bytes) {
        return new InjectedFault(Kind.SHORT, 0, bytes);
    }

    /** The submitting call throws an IOException with {@code errno}; the operation never enters the engine. */
    public static InjectedFault refuseSubmission(int errno) {
        return new InjectedFault(Kind.REFUSE_SUBMISSION, errno, 0);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case NONE -> "no fault";
            case COMPLETE_WITH_ERRNO -> "completion with " + Errno.describe(errno);
            case SHORT -> "short transfer of " + bytes + " bytes";
            case REFUSE_SUBMISSION -> "submission refused with " + Errno.describe(errno);
        };
    }
}
