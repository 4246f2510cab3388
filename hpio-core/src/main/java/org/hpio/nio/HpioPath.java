package org.hpio.nio;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Objects;

/**
 * A path of {@link HpioFileSystem}: the platform's path, reporting hpio's file system (and so hpio's provider,
 * which is how {@code FileChannel.open(path)} reaches hpio). Every operation is the platform path's, its
 * results wrapped again; so are the watch keys and events of hpio's file system's watch service
 * ({@link HpioWatchService}).
 */
final class HpioPath implements Path {
    private final HpioFileSystem fileSystem;
    private final Path delegate;

    HpioPath(HpioFileSystem fileSystem, Path delegate) {
        this.fileSystem = fileSystem;
        this.delegate = Objects.requireNonNull(delegate);
    }

    /** The platform's path behind {@code path}, or {@code path} itself when it is not one of hpio's. */
    static Path unwrap(Path path) {
        return path instanceof HpioPath p ? p.delegate : path;
    }

    Path delegate() {
        return delegate;
    }

    private Path wrap(Path path) {
        return fileSystem.wrap(path);
    }

    /**
     * The platform's {@code result}, as this path when it is this path's own delegate and as {@code other} when
     * it is {@code other}'s: where the platform returns the receiver or the argument itself (a normal path's
     * {@code normalize}, an absolute one's {@code toAbsolutePath}, a resolve against an absolute path), so
     * does hpio, and code comparing with {@code ==} sees what it sees on the JDK's.
     */
    private Path same(Path result, Path other) {
        if (result == delegate) {
            return this;
        }
        return other instanceof HpioPath p && result == p.delegate ? other : wrap(result);
    }

    @Override
    public HpioFileSystem getFileSystem() {
        return fileSystem;
    }

    @Override
    public boolean isAbsolute() {
        return delegate.isAbsolute();
    }

    @Override
    public Path getRoot() {
        return fileSystem.wrapRoot(delegate.getRoot());
    }

    @Override
    public Path getFileName() {
        return wrap(delegate.getFileName());
    }

    @Override
    public Path getParent() {
        return wrap(delegate.getParent());
    }

    @Override
    public int getNameCount() {
        return delegate.getNameCount();
    }

    @Override
    public Path getName(int index) {
        return wrap(delegate.getName(index));
    }

    @Override
    public Path subpath(int beginIndex, int endIndex) {
        return wrap(delegate.subpath(beginIndex, endIndex));
    }

    @Override
    public boolean startsWith(Path other) {
        return other.getFileSystem() == fileSystem && delegate.startsWith(unwrap(other));
    }

    @Override
    public boolean endsWith(Path other) {
        return other.getFileSystem() == fileSystem && delegate.endsWith(unwrap(other));
    }

    @Override
    public Path normalize() {
        return same(delegate.normalize(), null);
    }

    @Override
    public Path resolve(Path other) {
        return same(delegate.resolve(unwrap(other)), other);
    }

    @Override
    public Path relativize(Path other) {
        return wrap(delegate.relativize(unwrap(other)));
    }

    @Override
    public URI toUri() {
        return delegate.toUri();
    }

    @Override
    public Path toAbsolutePath() {
        return same(delegate.toAbsolutePath(), null);
    }

    @Override
    public Path toRealPath(LinkOption... options) throws IOException {
        return wrap(delegate.toRealPath(options));
    }

    /**
     * The platform path's own {@code toFile} refuses once this file system, not the platform's, is the default;
     * a path of the default file system is a {@code File} of the same name.
     */
    @Override
    public File toFile() {
        return new File(delegate.toString());
    }

    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers)
            throws IOException {
        if (watcher instanceof HpioWatchService ours) {
            return ours.register(this, events, modifiers);
        }
        return delegate.register(watcher, events, modifiers);   // the platform's own service: its keys, its paths
    }

    @Override
    public int compareTo(Path other) {
        return delegate.compareTo(unwrap(other));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HpioPath p && p.fileSystem == fileSystem && p.delegate.equals(delegate);
    }

    @Override
    public int hashCode() {
        return delegate.hashCode();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
