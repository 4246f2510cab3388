package org.hpio.nio;

import org.hpio.internal.sys.NativeAccess;
import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Statx;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.spi.FileSystemProvider;
import java.util.concurrent.locks.ReentrantLock;

/**
 * hpio's descriptor for a channel opened before the native calls were ready (a cold JVM's first 60-100 ms, while
 * {@link NativeFiles#warmUpInBackground} links them): the JDK's channel on the file serves the channel until
 * then, and {@link #get} opens hpio's descriptor at the channel's first call after. It goes by the channel's
 * path, like every hpio open beside the JDK's, but only takes the file found there if it is the one the JDK's
 * channel opened: the same file key (device and inode) as the JDK's {@code stat} gave right after that open. Otherwise
 * (renamed, replaced, deleted since; now a pipe or a /proc file) the JDK's channel goes on serving the channel
 * for good. The descriptor, once opened, is the channel's: its close closes it ({@link #close}).
 */
final class LateDescriptor implements Closeable {
    /** Where a descriptor's own name is, {@code /proc/self/fd/}; another folder for tests (see {@link #procForTests}). */
    private static volatile String procSelfFd = "/proc/self/fd/";
    private final FileSystemProvider jdkProvider;
    private final Path path;
    private final ChannelOptions options;
    /**
     * The file as the JDK's {@code stat} gave it after its open: {@link BasicFileAttributes#fileKey}, its device
     * and inode (equal keys, the same file). Basic attributes, not the "unix" view's {@code dev} and {@code ino}:
     * a cold JVM's first channel then loads no attribute-view classes (about 0.5 ms).
     */
    private final Object fileKey;
    /** Guards the opening against {@link #close}. */
    private final ReentrantLock lock = new ReentrantLock();
    /** hpio's descriptor once opened; null before, and for good when it could not be or the channel closed. */
    private volatile NativeFile file;
    /** Set once the open was tried, or the channel closed: nothing is opened after. */
    private volatile boolean settled;

    private LateDescriptor(FileSystemProvider jdkProvider, Path path, ChannelOptions options, Object fileKey) {
        this.jdkProvider = jdkProvider;
        this.path = path;
        this.options = options;
        this.fileKey = fileKey;
    }

    /**
     * For the warm-up: asks the JDK for the basic attributes and file key of the root directory once, so that
     * their classes are there before a first channel needs them.
     */
    static void prepare(FileSystemProvider jdkProvider) {
        try {
            jdkProvider.readAttributes(jdkProvider.getPath(URI.create("file:///")), BasicFileAttributes.class)
                    .fileKey();
        } catch (IOException | RuntimeException e) {
            // ifNotReady says so for each channel
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
            BasicFileAttributes stat = jdkProvider.readAttributes(path, BasicFileAttributes.class);
            Object fileKey = stat.fileKey();
            if (!stat.isRegularFile() || fileKey == null) {
                return null;
            }
            return new LateDescriptor(jdkProvider, path, options, fileKey);
        } catch (IOException | RuntimeException e) {
            return null;   // the name is gone already
        }
    }

    /**
     * hpio's descriptor, opened now if it was not tried yet and the native calls are ready or the caller cannot
     * do without it ({@code now}: it then links what it needs itself, beside the warm-up); null while they are
     * not, and for good when the name no longer leads to the file or the engine does not serve what is there
     * ({@link NativeFiles#servedByEngine}: hpio never opens a pipe put there meanwhile), or the open failed.
     */
    NativeFile get(boolean now) {
        NativeFile opened = file;
        if (opened != null || settled || !now && !NativeFiles.channelCallsReady()) {
            return opened;
        }
        lock.lock();
        try {
            if (!settled) {
                file = openIfSameFile();
                settled = true;
            }
            return file;
        } finally {
            lock.unlock();
        }
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
        lock.lock();
        try {
            settled = true;
            opened = file;
        } finally {
            lock.unlock();
        }
        if (opened != null) {
            opened.close();
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
                same = isTheFile(lease.fd());
                if (same && NativeAccess.available()) {
                    NativeFile.watchDroppedDescriptors();   // the channel's registration could not start it
                }
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

    /**
     * Whether hpio's descriptor {@code fd}, just opened by {@link #path}, is the file the JDK's channel opened:
     * the JDK's file key of /proc/self/fd/N (a {@code stat} that follows the descriptor, not a name) equals
     * {@link #fileKey}. Where /proc cannot say (not mounted; a process that is not dumpable gets EACCES there):
     * the name still leads to the JDK's file (its key now) and hpio's descriptor is the file at the name (statx
     * of both, device and inode).
     */
    private boolean isTheFile(int fd) throws IOException {
        Path self = path.getFileSystem().getPath(procSelfFd + fd);
        try {
            return fileKey.equals(jdkProvider.readAttributes(self, BasicFileAttributes.class).fileKey());
        } catch (IOException noProc) {
            if (!fileKey.equals(jdkProvider.readAttributes(path, BasicFileAttributes.class).fileKey())) {
                return false;
            }
            int mask = Statx.STATX_TYPE | Statx.STATX_INO;
            Statx opened = Statx.of(fd, path.toString(), mask);
            Statx named = Statx.of(path.toString(), mask);
            return opened.ino() == named.ino() && opened.dev() == named.dev();
        }
    }

    /**
     * For tests: looks for descriptors' names under {@code folder} (one with none of them: as where /proc is not
     * mounted, so that the identity check takes its other way), or under /proc again with null.
     */
    static void procForTests(String folder) {
        procSelfFd = folder == null ? "/proc/self/fd/" : folder;
    }
}
