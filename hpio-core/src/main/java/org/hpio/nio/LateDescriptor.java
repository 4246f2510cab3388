package org.hpio.nio;

import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Statx;
import org.hpio.internal.sys.Syscalls;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.spi.FileSystemProvider;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * hpio's descriptor for a channel that gets it, or its check, after the channel's open; one of two kinds.
 *
 * <p><b>Opened late</b> ({@link #ifNotReady}): for a channel opened before the native calls were ready (a cold
 * JVM's first 60-100 ms, while {@link NativeFiles#warmUpInBackground} links them), the JDK's channel on the file
 * serves the channel until then, and {@link #get} opens hpio's descriptor at the channel's first call after. It
 * goes by the channel's path, like every hpio open beside the JDK's, but only takes the file found there if it
 * is the one the JDK's channel opened: the same device and inode as the JDK's {@code stat} gave right after that
 * open. Otherwise (renamed, replaced, deleted since; now a pipe or a /proc file) the JDK's channel goes on
 * serving the channel for good.
 *
 * <p><b>Checked late</b> ({@link #unchecked}): for a plain read-only channel on a name remembered as a regular
 * file ({@link RegularFileNames}), hpio's descriptor is opened at once without the type check (O_NONBLOCK, so
 * that a pipe put there meanwhile does not hold up the open), and checked by a statx of the descriptor at the
 * channel's first call that uses it ({@link #get}, or {@link #sizeByCheck}, which answers {@code size} from
 * that statx): still a regular file on the device remembered, or the name is forgotten and the JDK's channel,
 * opened by the name before hpio's descriptor is closed ({@link #takeFallback}), serves the channel for good. A
 * pipe put in the name's place between two opens is then opened by hpio once, which the statx by name would
 * have avoided; the JDK's channel then waits in its open for a writer as it would have at the channel's open
 * (one that came and went between hpio's open and the check leaves its data in the pipe, and the JDK's open
 * waits for the next). That is the price of skipping the statx for names that stay regular files.
 *
 * <p>The descriptor, once there, is the channel's: its close closes it ({@link #close}).
 */
final class LateDescriptor implements Closeable {
    private final FileSystemProvider jdkProvider;
    private final Path path;
    private final ChannelOptions options;
    /** Opened late: the file's {@code st_dev} and {@code st_ino} as the JDK gave them after its open; checked late: the device remembered, ino unused. */
    private final long dev;
    private final long ino;
    /** Whether this descriptor is checked late (opened by {@link #unchecked}), not opened late. */
    private final boolean checkOnly;
    /** Guards the opening, or the check, against {@link #close}. */
    private final ReentrantLock lock = new ReentrantLock();
    /** hpio's descriptor once opened (checked late: from the start); null before, and for good when it could not be, failed its check, or the channel closed. */
    private volatile NativeFile file;
    /** Set once the open or the check was tried, or the channel closed: nothing is opened or checked after. */
    private volatile boolean settled;
    /** Set when a failed check found a named pipe: the JDK's channel serves it, as a stream ({@link #onPipe}). */
    private volatile boolean onPipe;
    /** The JDK's channel a failed check opened, until {@link #takeFallback} or {@link #close} (guarded by lock). */
    private FileChannel fallback;

    private LateDescriptor(FileSystemProvider jdkProvider, Path path, ChannelOptions options, long dev, long ino,
                           NativeFile unchecked) {
        this.jdkProvider = jdkProvider;
        this.path = path;
        this.options = options;
        this.dev = dev;
        this.ino = ino;
        this.checkOnly = unchecked != null;
        this.file = unchecked;
    }

    /**
     * A descriptor checked late: {@code unchecked}, just opened by {@code NativeFile.openNonBlocking} for the
     * name remembered as a served regular file on device {@code dev}.
     */
    static LateDescriptor unchecked(NativeFile unchecked, long dev, FileSystemProvider jdkProvider, Path path,
                                    ChannelOptions options) {
        return new LateDescriptor(jdkProvider, path, options, dev, 0, unchecked);
    }

    /** The JDK's attributes that say which file a name leads to ({@link #ifNotReady}). */
    private static final String IDENTITY = "unix:dev,ino,isRegularFile";

    /**
     * For the warm-up: asks the JDK for {@link #IDENTITY} of the root directory once, so that the classes of
     * its "unix" view (loaded from the run-time image, not the JDK's class-data archive: about 0.3-0.5 ms in a
     * cold JVM) are there before a first channel needs them.
     */
    static void prepare(FileSystemProvider jdkProvider) {
        try {
            jdkProvider.readAttributes(jdkProvider.getPath(URI.create("file:///")), IDENTITY);
        } catch (IOException | RuntimeException e) {
            // no "unix" view here: ifNotReady says so for each channel
        }
    }

    /**
     * For a channel whose JDK channel has just opened the regular file at {@code path} while the native calls are
     * not ready ({@link NativeFiles#channelCallsReady}): its identity by the JDK's own {@code stat} (no native call
     * of hpio's). Null, and the channel is opened as usual at once, when the calls are ready, when the options
     * carry O_DIRECT or DELETE_ON_CLOSE (the JDK's channel does not: the one needs hpio's flags from the first
     * call, the other removes the name a late open needs), when the file is not regular (a pipe or a device gets
     * the JDK's channel alone) or the JDK cannot say.
     */
    static LateDescriptor ifNotReady(FileSystemProvider jdkProvider, Path path, ChannelOptions options) {
        if (NativeFiles.channelCallsReady() || options.direct() || options.deleteOnClose()) {
            return null;
        }
        try {
            Map<String, Object> stat = jdkProvider.readAttributes(path, IDENTITY);
            if (!Boolean.TRUE.equals(stat.get("isRegularFile"))) {
                return null;
            }
            return new LateDescriptor(jdkProvider, path, options, (Long) stat.get("dev"), (Long) stat.get("ino"), null);
        } catch (IOException | RuntimeException e) {
            return null;   // no "unix" view here, or the name is gone already
        }
    }

    /**
     * hpio's descriptor. Opened late: opened now if it was not tried yet and the native calls are ready or the
     * caller cannot do without it ({@code now}: it then links what it needs itself, beside the warm-up); null
     * while they are not, and for good when the name no longer leads to the file or the engine does not serve
     * what is there ({@link NativeFiles#servedByEngine}: hpio never opens a pipe put there meanwhile), or the open
     * failed. Checked late: checked now if it was not yet; null for good when it failed the check.
     */
    NativeFile get(boolean now) {
        NativeFile opened = file;
        if (settled || !checkOnly && (opened != null || !now && !NativeFiles.channelCallsReady())) {
            return opened;
        }
        lock.lock();
        try {
            if (!settled) {
                file = checkOnly ? (checked(Statx.STATX_TYPE) != null ? file : null) : openIfSameFile();
                settled = true;
            }
            return file;
        } finally {
            lock.unlock();
        }
    }

    /**
     * For {@code size}: the file's size by the statx that checks a descriptor checked late, if that check is
     * still to come (it is made now, once); else, or when it fails, -1: the caller asks as usual, and finds the
     * descriptor (or, failed, the JDK's channel).
     */
    long sizeByCheck() {
        if (!checkOnly || settled) {
            return -1;
        }
        lock.lock();
        try {
            if (settled) {
                return -1;
            }
            Statx statx = checked(Statx.STATX_TYPE | Statx.STATX_SIZE);
            if (statx == null) {
                file = null;
            }
            settled = true;
            return statx == null ? -1 : statx.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The check of a descriptor checked late (under the lock, before it is settled): the statx of the descriptor,
     * asking {@code mask}, when it is a regular file on the device remembered; else null, the descriptor closed
     * and the name forgotten ({@link RegularFileNames}).
     */
    private Statx checked(int mask) {
        NativeFile opened = file;
        boolean pipe = false;
        try {
            Statx statx = opened.statx(mask);
            if (statx.isRegularFile() && statx.dev() == dev) {
                return statx;
            }
            pipe = statx.isPipe();
            onPipe = pipe;
        } catch (IOException | RuntimeException e) {
            System.getLogger(LateDescriptor.class.getName()).log(System.Logger.Level.DEBUG,
                    "hpio's descriptor on " + path + " was not checked; the JDK's channel serves it: " + e);
        }
        RegularFileNames.forget(opened.path());
        try {
            fallback = pipe ? jdkChannelOnPipe(opened) : jdkProvider.newFileChannel(path, options.forJdk());
        } catch (IOException | RuntimeException e) {
            // gone, say, or a device that allows one open at a time: the channel's JDK channel is opened by the
            // name when a call needs it, after hpio's descriptor is closed, and gives the JDK's outcome
        } finally {
            try {
                opened.close();
            } catch (IOException e) {
                System.getLogger(LateDescriptor.class.getName()).log(System.Logger.Level.DEBUG,
                        "closing hpio's descriptor on " + path + " that failed its check: " + e);
            }
        }
        return null;
    }

    /**
     * The JDK's channel on the named pipe that hpio's descriptor {@code opened} has open, opened (by
     * {@code /proc/self/fd/N}: that very pipe) while it still is. hpio's open let through a writer that was waiting
     * for a reader: what that writer wrote is in the pipe, and it may have closed its end since, where the JDK's
     * open would wait for the next writer. So when the pipe holds bytes, a writer of hpio's own is opened on it
     * (O_NONBLOCK: it does not wait, there being a reader) for the moment of the JDK's open, which then does not
     * wait, and reads those bytes and, once the other writers close, the end of the stream, as the JDK's
     * channel would have from its own open. An empty pipe gets the JDK's open as the JDK's channel would have
     * had it: waiting for a writer (hpio's reader stays meanwhile, so a writer that came in between does not
     * find the pipe without one).
     */
    private FileChannel jdkChannelOnPipe(NativeFile opened) throws IOException {
        Path same = path.getFileSystem().getPath(opened.procName());
        if (opened.bytesInPipe() == 0) {
            return jdkProvider.newFileChannel(same, options.forJdk());
        }
        int writer = Syscalls.open(opened.procName(), Syscalls.O_WRONLY | Syscalls.O_NONBLOCK, 0);
        try {
            return jdkProvider.newFileChannel(same, options.forJdk());
        } finally {
            Syscalls.close(writer, opened.procName());
        }
    }

    /**
     * The JDK's channel that a failed check opened on the name (handed over once: the caller owns it), or null.
     * It is opened while hpio's descriptor is still open, so that a pipe found there keeps a reader throughout:
     * a writer that hpio's open let through finds the JDK's channel reading, and what it wrote stays in the pipe
     * for it.
     */
    FileChannel takeFallback() {
        lock.lock();
        try {
            FileChannel taken = fallback;
            fallback = null;
            return taken;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether a failed check found a named pipe (checked now if it is still to come; a descriptor opened late
     * is not opened here): the JDK's channel serves the channel for good, and it has no positions, so the
     * channel's relative reads and writes are the JDK channel's own.
     */
    boolean onPipe() {
        if (checkOnly && !settled) {
            get(false);
        }
        return onPipe;
    }

    /** Whether the JDK's channel serves the channel for good (the open was tried and failed, or it closed). */
    boolean jdkForGood() {
        return settled && file == null;
    }

    /**
     * What serves a channel, for its {@code toString}: its engines ({@link EngineRings#nameIfStarted}) once it
     * has hpio's descriptor ({@code late} null: from its open), else the JDK's channel, for now or for good.
     */
    static String servedBy(LateDescriptor late, EngineRings engines) {
        if (late == null || late.file != null) {
            return engines.nameIfStarted();
        }
        return late.settled ? "the JDK's channel" : "the JDK's channel until hpio's native calls are ready";
    }

    /** At the channel's close: nothing is opened after, and the descriptor, if opened, is closed. */
    @Override
    public void close() throws IOException {
        NativeFile opened;
        FileChannel untaken;
        lock.lock();
        try {
            settled = true;
            opened = file;
            untaken = fallback;
            fallback = null;
        } finally {
            lock.unlock();
        }
        try {
            if (untaken != null) {
                untaken.close();
            }
        } finally {
            if (opened != null) {
                opened.close();
            }
        }
    }

    private NativeFile openIfSameFile() {
        try {
            if (!NativeFiles.servedByEngine(jdkProvider, path)) {
                return null;
            }
            NativeFile opened = NativeFile.open(path, options.nativeFlags());
            boolean same = false;
            try (NativeFile.Lease lease = opened.lease()) {
                Statx statx = Statx.of(lease.fd(), path.toString(), Statx.STATX_TYPE | Statx.STATX_INO);
                same = statx.ino() == ino && statx.dev() == dev;
            } finally {
                if (!same) {
                    opened.close();
                }
            }
            return same ? opened : null;
        } catch (IOException | RuntimeException e) {
            System.getLogger(LateDescriptor.class.getName()).log(System.Logger.Level.DEBUG,
                    "hpio's descriptor on " + path + " was not opened; the JDK's channel serves it: " + e);
            return null;
        }
    }
}
