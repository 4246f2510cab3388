package org.hpio.nio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.spi.FileSystemProvider;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * hpio's {@link FileChannel} and {@link AsynchronousFileChannel} for code that asks for them by name, without
 * installing {@link HpioFileSystemProvider} for the whole JVM. The same signatures as
 * {@code FileChannel.open} and {@code AsynchronousFileChannel.open}; paths of the default file system only.
 */
public final class HpioChannels {
    private HpioChannels() {
    }

    /** The provider over the platform's own, made on first use (never at class load: see the provider). */
    private static final class Holder {
        static final HpioFileSystemProvider PROVIDER = new HpioFileSystemProvider(platformProvider());

        private static FileSystemProvider platformProvider() {
            FileSystemProvider provider = FileSystems.getDefault().provider();
            return provider instanceof HpioFileSystemProvider hpio ? hpio.delegate() : provider;
        }
    }

    /** The provider behind these factories, made now if need be (tests: its warm-up then starts). */
    static HpioFileSystemProvider provider() {
        return Holder.PROVIDER;
    }

    /** The options as the JDK's {@code FileChannel.open} takes them: repeats allowed, a null one a NullPointerException. */
    private static Set<OpenOption> optionSet(OpenOption... options) {
        Set<OpenOption> set = new HashSet<>(options.length);
        Collections.addAll(set, options);
        return set;
    }

    public static FileChannel open(Path path, OpenOption... options) throws IOException {
        return open(path, optionSet(options));
    }

    public static FileChannel open(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        return Holder.PROVIDER.newFileChannel(local(path), options, attrs);
    }

    public static AsynchronousFileChannel openAsynchronous(Path path, OpenOption... options) throws IOException {
        return openAsynchronous(path, optionSet(options), null);
    }

    /** Handlers run on {@code executor}, or on hpio's default pool when it is null. */
    public static AsynchronousFileChannel openAsynchronous(Path path, Set<? extends OpenOption> options,
                                                           ExecutorService executor, FileAttribute<?>... attrs)
            throws IOException {
        return Holder.PROVIDER.newAsynchronousFileChannel(local(path), options, executor, attrs);
    }

    /**
     * Whether {@code channel} is served by hpio's engine (false for the JDK's, for files that are not regular,
     * and for files of pseudo file systems such as /proc).
     */
    public static boolean isHpio(Object channel) {
        return channel instanceof HpioFileChannel || channel instanceof HpioAsynchronousFileChannel;
    }

    /**
     * The engine behind an hpio channel ("uring" or "threads"), or null for any other channel. A
     * {@code FileChannel} or {@code AsynchronousFileChannel} opened before hpio's engines were started starts
     * them when a call first needs one;
     * asking this starts them too (and throws {@link UncheckedIOException} if that fails). Null also for such a
     * channel asked after the engines were closed without ever being started for it (the JVM's shutdown: the
     * JDK's channel then serves its calls).
     */
    public static String engineOf(Object channel) {
        try {
            return switch (channel) {
                case HpioFileChannel c -> c.engineName();
                case HpioAsynchronousFileChannel c -> c.engineName();
                default -> null;
            };
        } catch (IOException e) {
            throw new UncheckedIOException("starting hpio's engines failed: " + e.getMessage(), e);
        }
    }

    private static Path local(Path path) {
        String scheme = path.getFileSystem().provider().getScheme();
        if (!scheme.equals("file")) {
            throw new UnsupportedOperationException("hpio's channels serve files of the default file system, not "
                    + scheme + ": " + path);
        }
        return path;
    }
}
