package org.hpio.nio;

import org.hpio.internal.io.IoEngine;
import org.hpio.internal.io.IoEngines;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.spi.FileSystemProvider;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;

import static org.hpio.nio.HpioPath.unwrap;

/**
 * The platform's default {@link FileSystemProvider} with hpio's engine behind its channels:
 * {@link #newFileChannel}, {@link #newAsynchronousFileChannel} and {@link #newByteChannel} open hpio's channels
 * on regular files (not those of pseudo file systems such as /proc and /sys; and {@code newByteChannel} not
 * for a platform thread's plain read-only channel, see there); everything else is the wrapped provider's,
 * unchanged.
 *
 * <p>Installed for the whole JVM:
 * <pre>{@code java -Djava.nio.file.spi.DefaultFileSystemProvider=org.hpio.nio.HpioFileSystemProvider ...}</pre>
 * The JDK then constructs it (with the platform's provider) when the default file system is first asked for,
 * very early. Nothing here touches a file while the class loads or the provider is built: a daemon thread
 * links the native calls a first channel makes ({@link NativeFiles#warmUpInBackground}), and the engines start
 * when a channel's call first needs one. Paths of the default file system are then {@link HpioPath}s, whose
 * provider is this.
 *
 * <p>Explicitly, without the property: {@link HpioChannels}.
 */
public final class HpioFileSystemProvider extends FileSystemProvider {
    /** Where channels get their engines: the JVM's shared ones by default, started on the first channel. */
    interface EngineSource {
        /** The engine of asynchronous channels. */
        IoEngine engine() throws IOException;

        /** The engines a FileChannel's calls are spread over ({@link EngineRings}): by default {@link #engine()}. */
        default List<IoEngine> rings() throws IOException {
            return List.of(engine());
        }

        /** Whether {@link #rings()} has its engines already, so that asking costs no start. */
        default boolean ringsStarted() {
            return true;
        }

        /** Whether {@link #engine()} has its engine already, so that asking costs no start. */
        default boolean engineStarted() {
            return true;
        }
    }

    /** The JVM's shared engine, and {@link IoEngines#sharedRings} for FileChannels. */
    private static final EngineSource SHARED = new EngineSource() {
        @Override
        public IoEngine engine() throws IOException {
            return IoEngines.shared();
        }

        @Override
        public List<IoEngine> rings() throws IOException {
            return IoEngines.sharedRings();
        }

        @Override
        public boolean ringsStarted() {
            return IoEngines.sharedRingsStarted();
        }

        @Override
        public boolean engineStarted() {
            return IoEngines.sharedStarted();
        }
    };

    /** A step that may start engines; see {@link #unlessStarting}. */
    private interface Starting<T> {
        T get() throws IOException;
    }

    /**
     * Set while this thread starts the engine: a file it opens meanwhile (the engine's own set-up, a logger's
     * configuration) gets the JDK's channel, never a second start of the engine.
     */
    private static final ThreadLocal<Boolean> STARTING_ENGINE = new ThreadLocal<>();

    /** The JDK's property that names the JVM's default provider (a list of class names, separated by commas). */
    private static final String DEFAULT_PROVIDER_PROPERTY = "java.nio.file.spi.DefaultFileSystemProvider";

    static {
        // The JDK initializes this class, then constructs it reflectively (8-11 ms of a cold JVM's method-handle
        // set-up); the warm-up's first part, loading a first channel's classes, runs meanwhile.
        if (namedDefaultProvider()) {
            NativeFiles.warmUpEarly();
        }
    }

    /** Whether the JVM's default-provider property names this class (then the JDK is about to construct it). */
    private static boolean namedDefaultProvider() {
        String names = System.getProperty(DEFAULT_PROVIDER_PROPERTY, "");
        for (String name : names.split(",")) {
            if (name.equals(HpioFileSystemProvider.class.getName())) {
                return true;
            }
        }
        return false;
    }

    private final FileSystemProvider delegate;
    private final HpioFileSystem fileSystem;
    private final EngineSource engines;
    /**
     * What {@link #engines} gave once started, so that later opens skip the start guard (a thread-local set
     * and removed: a tenth of the provider's part of opening a small file); null until then.
     */
    private volatile EngineRings startedRings;
    /** The rings of channels opened before the engines were started: they start them on first need. */
    private final EngineRings ringsOnFirstUse = EngineRings.startedOnFirstUse(new EngineRings.Starter() {
        @Override
        public List<IoEngine> start() throws IOException {   // a class, not a lambda: no lambda bootstrap at boot
            return startedEngines();
        }
    });
    /**
     * The engine of asynchronous channels ({@link EngineSource#engine}), started by the first operation that
     * needs it; one engine, not the FileChannels' rings.
     */
    private final EngineRings asyncEngine = EngineRings.startedOnFirstUse(new EngineRings.Starter() {
        @Override
        public List<IoEngine> start() throws IOException {
            IoEngine engine = unlessStarting(engines::engine, Function.identity());
            return engine == null ? null : List.of(engine);
        }
    });

    /** Wraps {@code delegate}, the platform's default provider (what the JDK passes when it installs this one). */
    public HpioFileSystemProvider(FileSystemProvider delegate) {
        this(delegate, SHARED);
        NativeFiles.warmUpInBackground(delegate);
    }

    /** With channels on the engines {@code engines} gives (tests: one engine or the other). */
    HpioFileSystemProvider(FileSystemProvider delegate, EngineSource engines) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.engines = engines;
        this.fileSystem = new HpioFileSystem(this, delegate.getFileSystem(URI.create("file:///")));
    }

    /** The wrapped (platform's) provider. */
    FileSystemProvider delegate() {
        return delegate;
    }

    // ---- hpio's channels ----

    /**
     * hpio's {@code FileChannel} on a regular file. Opening one does not start the engines: until they are
     * started, a channel's engines start when one of its calls first needs one (a read the page cache cannot
     * serve at once, a write, a force: {@link EngineRings#startedOnFirstUse}), so a cold JVM's first
     * {@code FileChannel.open} and read of a cached file costs the native calls' first linking, not io_uring's
     * set-up.
     */
    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        Path own = own(path);
        EngineRings rings = ringsForNewChannel();
        if (rings == null) {
            return delegate.newFileChannel(own, options, attrs);
        }
        return HpioFileChannel.open(rings, delegate, own, options, attrs);
    }

    /**
     * The engines for a new FileChannel: the started ones, or before the start {@link #ringsOnFirstUse}; null
     * when this thread is starting them or they are closed (the caller then opens the JDK's channel).
     */
    private EngineRings ringsForNewChannel() throws IOException {
        if (startedRings != null || engines.ringsStarted()) {
            return rings();
        }
        return STARTING_ENGINE.get() != null ? null : ringsOnFirstUse;
    }

    /** The engines, started now if need be; null when this thread is starting them or they are closed. */
    private EngineRings rings() throws IOException {
        EngineRings rings = startedRings;
        if (rings == null || rings.first().isClosed()) {
            List<IoEngine> started = startedEngines();
            rings = started == null ? null : new EngineRings(started);
            startedRings = rings;
        }
        return rings;
    }

    /** The engines, started now if need be; null when this thread is starting them or they are closed. */
    private List<IoEngine> startedEngines() throws IOException {
        return unlessStarting(engines::rings, List::getFirst);
    }

    /**
     * The engines if they are started, else null, after asking a daemon thread of its own to start them (once,
     * {@link EngineRings#startInBackground}): a virtual thread's plain read then gets the JDK's channel rather
     * than waiting for the start (see {@link #newByteChannel}).
     */
    private EngineRings ringsWithoutWaiting() throws IOException {
        if (startedRings != null || engines.ringsStarted()) {
            return rings();   // started (or closed, at shutdown: then null)
        }
        return ringsOnFirstUse.startInBackground() ? null : rings();   // that start failed: start them here
    }

    /**
     * hpio's {@code AsynchronousFileChannel} on a regular file. Opening one does not start the engine: a channel
     * starts it with its first operation that needs it (a read the page cache cannot serve at once, a write, a
     * force, a handler to run without an executor), as a {@code FileChannel} does; once started, every channel
     * opened later has it at once. The JDK's channel when this thread is starting the engine, or when the
     * engine was started and closed (the JVM is shutting down).
     */
    @Override
    public AsynchronousFileChannel newAsynchronousFileChannel(Path path, Set<? extends OpenOption> options,
                                                              ExecutorService executor, FileAttribute<?>... attrs)
            throws IOException {
        Path own = own(path);
        IoEngine started = asyncEngine.firstIfStarted();
        if (started == null && engines.engineStarted() && STARTING_ENGINE.get() == null) {
            started = asyncEngine.firstOrStart();   // the engine exists already (AsyncFile's, say): no start to defer
        }
        if (STARTING_ENGINE.get() != null || started != null && started.isClosed()) {
            return delegate.newAsynchronousFileChannel(own, options, executor, attrs);
        }
        return HpioAsynchronousFileChannel.open(asyncEngine, delegate, own, options, executor, attrs);
    }

    /**
     * The engine, or engines, {@code step} gives (started on the first call), or null when this thread is
     * starting them right now or the first of them ({@code firstOf}) is closed (the JVM is shutting down): the caller then opens the JDK's
     * channel.
     */
    private static <T> T unlessStarting(Starting<T> step, Function<T, IoEngine> firstOf) throws IOException {
        if (STARTING_ENGINE.get() != null) {
            return null;
        }
        STARTING_ENGINE.set(Boolean.TRUE);
        try {
            T got = step.get();
            return firstOf.apply(got).isClosed() ? null : got;
        } finally {
            STARTING_ENGINE.remove();
        }
    }

    /**
     * As {@link #newFileChannel}, except a plain read-only channel (READ or no option, no attribute: what
     * {@code Files.readAllBytes}, {@code readString} and {@code newByteChannel(path)} ask for) opened by a
     * platform thread, which gets the JDK's channel: such a thread blocks in a read on either channel, so hpio's
     * would bring it nothing, and opening hpio's descriptor safely costs a second path walk (hpio asks the file's
     * type by name before it opens, so that it never opens a pipe: see {@link HpioFileChannel}), the whole price
     * of installing the provider for code that reads small files ({@code Files.readAllBytes} of 1 KiB, 6.4 against
     * 4.7 µs, AMD EPYC, warm). A virtual thread's gets hpio's, whose reads park it rather than pin its carrier
     * (a name found a regular file before skips the check by name: see {@code HpioFileChannel.openRemembered}).
     * The thread that opens decides: a channel a platform thread opened stays the JDK's when virtual threads read
     * it later.
     *
     * <p>Until the engines are started, a virtual thread's plain read-only channel is the JDK's too, and the
     * first such call has a daemon thread start them: starting them (io_uring's rings, their threads, the
     * native calls' first linking) takes a cold JVM 150-200 ms, which the program's first
     * {@code Files.readAllBytes} would otherwise wait for, against the JDK's 1-3 ms. Calls after the start get
     * hpio's channel. Every other channel starts the engines itself when it is the first: it needs them.
     */
    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        if (!ChannelOptions.plainRead(options, attrs)) {
            return newFileChannel(path, options, attrs);
        }
        Path own = own(path);
        EngineRings rings = Thread.currentThread().isVirtual() ? ringsWithoutWaiting() : null;
        if (rings == null) {
            return delegate.newByteChannel(own, options);
        }
        FileChannel channel = HpioFileChannel.open(rings, delegate, own, options, attrs);
        if (channel instanceof HpioFileChannel hpio) {
            hpio.setUninterruptible();   // what Files.readAllBytes and readString make the JDK's (see HpioFileChannel)
        }
        return channel;
    }

    /**
     * {@code path} as the wrapped provider's path, for hpio's channels; ProviderMismatchException for a path of
     * another kind of file system (a Zip file system's, scheme "jar"), as the JDK's provider throws: hpio's calls
     * by name would open a file of the host by that path's string. The scheme, not the provider object, decides:
     * the wrapped provider may itself wrap the platform's (a chain of default providers).
     */
    private Path own(Path path) {
        Path unwrapped = unwrap(path);
        if (!unwrapped.getFileSystem().provider().getScheme().equalsIgnoreCase(delegate.getScheme())) {
            throw new ProviderMismatchException();
        }
        return unwrapped;
    }

    // ---- the file system and its paths ----

    @Override
    public String getScheme() {
        return delegate.getScheme();
    }

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
        return delegate.newFileSystem(uri, env);   // the default file system exists: FileSystemAlreadyExistsException
    }

    @Override
    public FileSystem newFileSystem(Path path, Map<String, ?> env) throws IOException {
        return delegate.newFileSystem(unwrap(path), env);
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
        delegate.getFileSystem(uri);   // the delegate's checks of the URI
        return fileSystem;
    }

    @Override
    public Path getPath(URI uri) {
        return fileSystem.wrap(delegate.getPath(uri));
    }

    /** {@code path} as a path of hpio's file system, for {@link HpioChannels}. */
    Path wrap(Path path) {
        return fileSystem.wrap(path);
    }

    // ---- everything else: the platform's provider, paths unwrapped (and wrapped on the way out) ----

    @Override
    public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
        return delegate.newInputStream(unwrap(path), options);
    }

    @Override
    public OutputStream newOutputStream(Path path, OpenOption... options) throws IOException {
        return delegate.newOutputStream(unwrap(path), options);
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        if (filter == null) {
            throw new NullPointerException();   // as the JDK's, at the open, not at the first entry
        }
        DirectoryStream<Path> entries = delegate.newDirectoryStream(unwrap(dir), p -> filter.accept(fileSystem.wrap(p)));
        return HpioDirectoryStream.of(fileSystem, entries);
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        delegate.createDirectory(unwrap(dir), attrs);
    }

    @Override
    public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) throws IOException {
        delegate.createSymbolicLink(unwrap(link), unwrap(target), attrs);
    }

    @Override
    public void createLink(Path link, Path existing) throws IOException {
        delegate.createLink(unwrap(link), unwrap(existing));
    }

    @Override
    public void delete(Path path) throws IOException {
        delegate.delete(unwrap(path));
    }

    @Override
    public boolean deleteIfExists(Path path) throws IOException {
        return delegate.deleteIfExists(unwrap(path));
    }

    @Override
    public Path readSymbolicLink(Path link) throws IOException {
        return fileSystem.wrap(delegate.readSymbolicLink(unwrap(link)));
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        delegate.copy(unwrap(source), unwrap(target), options);
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        delegate.move(unwrap(source), unwrap(target), options);
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        return delegate.isSameFile(unwrap(path), unwrap(path2));
    }

    @Override
    public boolean isHidden(Path path) throws IOException {
        return delegate.isHidden(unwrap(path));
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        return delegate.getFileStore(unwrap(path));
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        delegate.checkAccess(unwrap(path), modes);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        return delegate.getFileAttributeView(unwrap(path), type, options);
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        return delegate.readAttributes(unwrap(path), type, options);
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        return delegate.readAttributes(unwrap(path), attributes, options);
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        delegate.setAttribute(unwrap(path), attribute, value, options);
    }

    @Override
    public boolean exists(Path path, LinkOption... options) {
        return delegate.exists(unwrap(path), options);
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributesIfExists(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        return delegate.readAttributesIfExists(unwrap(path), type, options);
    }
}
