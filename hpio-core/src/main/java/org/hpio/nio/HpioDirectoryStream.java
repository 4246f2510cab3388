package org.hpio.nio;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.util.Iterator;
import java.util.Set;

import static org.hpio.nio.HpioPath.unwrap;

/**
 * The platform's directory stream with its entries in hpio's paths. Where the platform's is a
 * {@link SecureDirectoryStream} (Linux's is), so is this one ({@link Secure}): code that asks for one, such as
 * Guava's {@code MoreFiles.deleteRecursively}, which refuses an insecure one, gets it as on the JDK's provider.
 * Its operations are the platform's, relative to the open directory; a channel it opens is the platform's (the
 * descriptor is opened relative to the directory's, which hpio's engine does not do).
 */
class HpioDirectoryStream implements DirectoryStream<Path> {
    final HpioFileSystem fileSystem;
    private final DirectoryStream<Path> delegate;

    private HpioDirectoryStream(HpioFileSystem fileSystem, DirectoryStream<Path> delegate) {
        this.fileSystem = fileSystem;
        this.delegate = delegate;
    }

    /** {@code entries} in hpio's paths: secure when they are. */
    static DirectoryStream<Path> of(HpioFileSystem fileSystem, DirectoryStream<Path> entries) {
        return entries instanceof SecureDirectoryStream<Path> secure ? new Secure(fileSystem, secure)
                : new HpioDirectoryStream(fileSystem, entries);
    }

    @Override
    public Iterator<Path> iterator() {
        Iterator<Path> entries = delegate.iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return entries.hasNext();
            }

            @Override
            public Path next() {
                return fileSystem.wrap(entries.next());
            }
        };
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }

    /** The secure kind: every operation the platform's, paths unwrapped on the way in and wrapped on the way out. */
    static final class Secure extends HpioDirectoryStream implements SecureDirectoryStream<Path> {
        private final SecureDirectoryStream<Path> delegate;

        Secure(HpioFileSystem fileSystem, SecureDirectoryStream<Path> delegate) {
            super(fileSystem, delegate);
            this.delegate = delegate;
        }

        @Override
        public SecureDirectoryStream<Path> newDirectoryStream(Path path, LinkOption... options) throws IOException {
            return new Secure(fileSystem, delegate.newDirectoryStream(unwrap(path), options));
        }

        @Override
        public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
                                                  FileAttribute<?>... attrs) throws IOException {
            return delegate.newByteChannel(unwrap(path), options, attrs);
        }

        @Override
        public void deleteFile(Path path) throws IOException {
            delegate.deleteFile(unwrap(path));
        }

        @Override
        public void deleteDirectory(Path path) throws IOException {
            delegate.deleteDirectory(unwrap(path));
        }

        @Override
        public void move(Path srcpath, SecureDirectoryStream<Path> targetdir, Path targetpath) throws IOException {
            // Another kind of stream (null too) goes as it is: the platform's refuses it as it would on its own.
            SecureDirectoryStream<Path> target = targetdir instanceof Secure ours ? ours.delegate : targetdir;
            delegate.move(unwrap(srcpath), target, unwrap(targetpath));
        }

        @Override
        public <V extends FileAttributeView> V getFileAttributeView(Class<V> type) {
            return delegate.getFileAttributeView(type);
        }

        @Override
        public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
            return delegate.getFileAttributeView(unwrap(path), type, options);
        }
    }
}
