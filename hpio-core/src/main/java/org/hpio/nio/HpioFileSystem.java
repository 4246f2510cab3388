package org.hpio.nio;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The platform's default file system, reporting hpio's provider; its paths are {@link HpioPath}s. */
final class HpioFileSystem extends FileSystem {
    private final HpioFileSystemProvider provider;
    private final FileSystem delegate;

    HpioFileSystem(HpioFileSystemProvider provider, FileSystem delegate) {
        this.provider = provider;
        this.delegate = delegate;
    }

    /** The wrapped root, made once: the platform's root is one object, and so is hpio's ({@code ==} holds). */
    private volatile HpioPath root;

    /** The platform's {@code root} (null stays null) as hpio's one root path when it is the platform's usual one. */
    Path wrapRoot(Path platformRoot) {
        HpioPath known = root;
        if (known != null && known.delegate() == platformRoot) {
            return known;
        }
        Path wrapped = wrap(platformRoot);
        if (known == null && wrapped instanceof HpioPath first) {
            root = first;
        }
        return wrapped;
    }

    /** {@code path} as a path of this file system (null stays null). */
    Path wrap(Path path) {
        return path == null || path instanceof HpioPath ? path : new HpioPath(this, path);
    }

    @Override
    public HpioFileSystemProvider provider() {
        return provider;
    }

    @Override
    public void close() throws IOException {
        delegate.close();   // the default file system cannot be closed: UnsupportedOperationException
    }

    @Override
    public boolean isOpen() {
        return delegate.isOpen();
    }

    @Override
    public boolean isReadOnly() {
        return delegate.isReadOnly();
    }

    @Override
    public String getSeparator() {
        return delegate.getSeparator();
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        List<Path> roots = new ArrayList<>();
        for (Path root : delegate.getRootDirectories()) {
            roots.add(wrap(root));
        }
        return List.copyOf(roots);   // unmodifiable, as the JDK's
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        return delegate.getFileStores();
    }

    @Override
    public Set<String> supportedFileAttributeViews() {
        return delegate.supportedFileAttributeViews();
    }

    @Override
    public Path getPath(String first, String... more) {
        return wrap(delegate.getPath(first, more));
    }

    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        PathMatcher matcher = delegate.getPathMatcher(syntaxAndPattern);
        return path -> matcher.matches(HpioPath.unwrap(path));
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        return delegate.getUserPrincipalLookupService();
    }

    @Override
    public WatchService newWatchService() throws IOException {
        return new HpioWatchService(this, delegate.newWatchService());
    }
}
