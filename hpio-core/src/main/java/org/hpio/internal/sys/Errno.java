package org.hpio.internal.sys;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.Map;

/** Turns an errno into an {@link IOException} that says what failed and where: the one place that does. */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EEXIST = 17;
    public static final int EXDEV = 18;
    public static final int ENOTDIR = 20;
    public static final int EISDIR = 21;
    public static final int EINVAL = 22;
    public static final int EMFILE = 24;
    public static final int EFBIG = 27;
    public static final int ENOSPC = 28;
    public static final int ESPIPE = 29;
    public static final int EROFS = 30;
    public static final int ENAMETOOLONG = 36;
    public static final int ENOSYS = 38;
    public static final int ELOOP = 40;
    public static final int EOPNOTSUPP = 95;
    public static final int ECANCELED = 125;
    public static final int EDQUOT = 122;

    /** The symbolic names of the errnos hpio reports (see {@link #describe}). */
    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(EPERM, "EPERM"), Map.entry(ENOENT, "ENOENT"), Map.entry(EINTR, "EINTR"),
            Map.entry(EIO, "EIO"), Map.entry(EBADF, "EBADF"), Map.entry(EAGAIN, "EAGAIN"),
            Map.entry(ENOMEM, "ENOMEM"), Map.entry(EACCES, "EACCES"), Map.entry(EEXIST, "EEXIST"),
            Map.entry(EXDEV, "EXDEV"), Map.entry(ENOTDIR, "ENOTDIR"), Map.entry(ENAMETOOLONG, "ENAMETOOLONG"),
            Map.entry(ELOOP, "ELOOP"), Map.entry(EISDIR, "EISDIR"), Map.entry(EINVAL, "EINVAL"),
            Map.entry(EMFILE, "EMFILE"), Map.entry(EFBIG, "EFBIG"), Map.entry(ENOSPC, "ENOSPC"),
            Map.entry(ESPIPE, "ESPIPE"), Map.entry(EROFS, "EROFS"), Map.entry(ENOSYS, "ENOSYS"),
            Map.entry(EOPNOTSUPP, "EOPNOTSUPP"), Map.entry(ECANCELED, "ECANCELED"), Map.entry(EDQUOT, "EDQUOT"));

    /** hpio's own meaning where it says more than the C library's text (see {@link #describe}). */
    private static final Map<Integer, String> MEANINGS = Map.of(
            ENOMEM, "out of memory",
            EXDEV, "cross-device link, or a path leaving the directory");

    /**
     * The C library's text for each errno (glibc's {@code strerror}), which the JDK's channels give as the message
     * of their IOException for a failed call (see {@link #strerror}).
     */
    private static final Map<Integer, String> STRERROR = Map.ofEntries(
            Map.entry(EPERM, "Operation not permitted"),
            Map.entry(ENOENT, "No such file or directory"),
            Map.entry(EINTR, "Interrupted system call"),
            Map.entry(EIO, "Input/output error"),
            Map.entry(6, "No such device or address"),
            Map.entry(EBADF, "Bad file descriptor"),
            Map.entry(EAGAIN, "Resource temporarily unavailable"),
            Map.entry(ENOMEM, "Cannot allocate memory"),
            Map.entry(EACCES, "Permission denied"),
            Map.entry(EEXIST, "File exists"),
            Map.entry(EXDEV, "Invalid cross-device link"),
            Map.entry(19, "No such device"),
            Map.entry(ENOTDIR, "Not a directory"),
            Map.entry(EISDIR, "Is a directory"),
            Map.entry(EINVAL, "Invalid argument"),
            Map.entry(EMFILE, "Too many open files"),
            Map.entry(26, "Text file busy"),
            Map.entry(EFBIG, "File too large"),
            Map.entry(ENOSPC, "No space left on device"),
            Map.entry(ESPIPE, "Illegal seek"),
            Map.entry(EROFS, "Read-only file system"),
            Map.entry(ENAMETOOLONG, "File name too long"),
            Map.entry(ENOSYS, "Function not implemented"),
            Map.entry(ELOOP, "Too many levels of symbolic links"),
            Map.entry(75, "Value too large for defined data type"),
            Map.entry(EOPNOTSUPP, "Operation not supported"),
            Map.entry(EDQUOT, "Disk quota exceeded"),
            Map.entry(ECANCELED, "Operation canceled"));

    private Errno() {
    }

    /** The C library's text for {@code errno}, as glibc's {@code strerror} gives it ("Unknown error N" beyond its table). */
    public static String strerror(int errno) {
        return STRERROR.getOrDefault(errno, "Unknown error " + errno);
    }

    /**
     * The errno of a failed system call that {@link #exception} reported in {@code e}, or -1 when {@code e} is not
     * such a report (another exception, or a missing file, which a call on an open descriptor never reports).
     */
    public static int ofCall(IOException e) {
        return switch (e) {
            case ErrnoException errnoException -> errnoException.errno();
            case Denied denied -> denied.errno;
            default -> -1;
        };
    }

    /** The error number behind {@code e}: its own for an {@link ErrnoException}, else EIO. */
    public static int of(IOException e) {
        return switch (e) {
            case ErrnoException errnoException -> errnoException.errno();
            case Denied denied -> denied.errno;
            case NoSuchFileException ignored -> ENOENT;
            case AccessDeniedException ignored -> EACCES;
            default -> EIO;
        };
    }

    /**
     * The symbolic name and meaning of {@code errno}, e.g. "ENOSPC (no space left on device)": the C library's
     * text from a small letter, or hpio's own where it says more.
     */
    public static String describe(int errno) {
        String name = NAMES.get(errno);
        if (name == null) {
            return "errno " + errno;
        }
        String meaning = MEANINGS.get(errno);
        if (meaning == null) {
            String text = strerror(errno);
            meaning = Character.toLowerCase(text.charAt(0)) + text.substring(1);
        }
        return name + " (" + meaning + ")";
    }

    /**
     * The exception for a failed {@code operation} on {@code path} ({@code position} &lt; 0 when no offset applies).
     * File-system errors that {@code java.nio.file} has a type for get that type.
     */
    public static IOException exception(String operation, int errno, String path, long position) {
        String where = position >= 0 ? " at offset " + position : "";
        String reason = operation + " failed" + where + ": " + describe(errno);
        return switch (errno) {
            case ENOENT -> new NoSuchFileException(path, null, reason);
            case EACCES, EPERM -> new Denied(path, reason, errno);
            default -> new ErrnoException(path, reason, errno);
        };
    }

    /** EACCES or EPERM, as the AccessDeniedException {@code java.nio.file} has for them, keeping which it was. */
    static final class Denied extends AccessDeniedException {
        private static final long serialVersionUID = 1L;
        private final int errno;

        Denied(String path, String reason, int errno) {
            super(path, null, reason);
            this.errno = errno;
        }
    }
}
