package org.hpio.nio;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static java.nio.file.StandardOpenOption.READ;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the provider gives besides channels keeps to hpio's paths and to the JDK's kinds: a directory stream is
 * a {@link SecureDirectoryStream} where the JDK's is (code such as Guava's recursive delete refuses an insecure
 * one), and a watch key's {@code watchable()} and its events' contexts are hpio's paths (equal to the path
 * registered; opened through hpio).
 */
class ProviderPathsTest {
    @TempDir
    Path dir;

    private final FileSystem hpio = new HpioFileSystemProvider(FileSystems.getDefault().provider())
            .getFileSystem(URI.create("file:///"));

    private Path viaHpio(Path path) {
        return hpio.getPath(path.toString());
    }

    @Test
    void aDirectoryStreamIsSecureWhereTheJdksIsAndItsOperationsWorkRelativeToIt() throws Exception {
        Files.createDirectories(dir.resolve("tree/sub"));
        Files.writeString(dir.resolve("tree/a.txt"), "a");
        Files.writeString(dir.resolve("tree/sub/b.txt"), "b");
        Path tree = viaHpio(dir.resolve("tree"));
        try (DirectoryStream<Path> jdk = Files.newDirectoryStream(dir.resolve("tree"));
             DirectoryStream<Path> entries = Files.newDirectoryStream(tree)) {
            assertEquals(jdk instanceof SecureDirectoryStream, entries instanceof SecureDirectoryStream);
            List<String> names = new ArrayList<>();
            for (Path p : entries) {
                assertSame(hpio, p.getFileSystem(), "an entry of hpio's file system: " + p);
                names.add(p.getFileName().toString());
            }
            names.sort(null);
            assertEquals(List.of("a.txt", "sub"), names);
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(tree)) {
            if (!(entries instanceof SecureDirectoryStream<Path> secure)) {
                return;   // the JDK's is not secure here either
            }
            Path sub = hpio.getPath("sub");
            try (SecureDirectoryStream<Path> inner = secure.newDirectoryStream(sub)) {
                assertTrue(inner.iterator().next().getFileSystem() == hpio, "the inner stream's entries are hpio's");
                try (SeekableByteChannel ch = inner.newByteChannel(hpio.getPath("b.txt"), Set.of(READ))) {
                    assertEquals(1, ch.size());
                }
                assertNotNull(inner.getFileAttributeView(BasicFileAttributeView.class).readAttributes());
                inner.move(hpio.getPath("b.txt"), secure, hpio.getPath("moved.txt"));   // across two of hpio's streams
                NoSuchFileException missing = assertThrows(NoSuchFileException.class,
                        () -> inner.deleteFile(hpio.getPath("missing")));   // errors are the JDK's
                assertEquals("missing", missing.getFile());
            }
            assertEquals("b", Files.readString(dir.resolve("tree/moved.txt")));
            assertTrue(secure.getFileAttributeView(hpio.getPath("a.txt"), BasicFileAttributeView.class)
                    .readAttributes().isRegularFile());
            secure.deleteFile(hpio.getPath("a.txt"));
            secure.deleteDirectory(hpio.getPath("sub"));
            assertFalse(Files.exists(dir.resolve("tree/a.txt")));
            assertFalse(Files.exists(dir.resolve("tree/sub")));
        }
    }

    /** Where the JDK's paths return the receiver or the argument itself, hpio's do too: {@code ==} agrees. */
    @Test
    void identityOfPathResultsIsTheJdks() {
        for (FileSystem fs : List.of(FileSystems.getDefault(), hpio)) {
            Path abs = fs.getPath("/tmp/x");
            Path rel = fs.getPath("a");
            List<Boolean> jdk = identities(FileSystems.getDefault().getPath("/tmp/x"),
                    FileSystems.getDefault().getPath("a"));
            assertEquals(jdk, identities(abs, rel), "on " + fs.provider().getClass().getSimpleName());
        }
    }

    private static List<Boolean> identities(Path abs, Path rel) {
        return List.of(abs.normalize() == abs, abs.toAbsolutePath() == abs, rel.resolve(abs) == abs,
                abs.getRoot() == rel.toAbsolutePath().getRoot(), rel.resolve(rel.getFileSystem().getPath("")) == rel,
                rel.normalize() == rel);
    }

    @Test
    void aDirectoryStreamWithoutAFilterIsRefusedAtTheOpenAsTheJdksIs() {
        assertThrows(NullPointerException.class,
                () -> Files.newDirectoryStream(dir, (DirectoryStream.Filter<Path>) null));
        assertThrows(NullPointerException.class,
                () -> Files.newDirectoryStream(viaHpio(dir), (DirectoryStream.Filter<Path>) null));
    }

    @Test
    void aWatchKeyIsTheRegisteredPathsAndItsEventsContextsAreHpiosPaths() throws Exception {
        Path watched = viaHpio(dir);
        try (WatchService service = hpio.newWatchService()) {
            WatchKey key = watched.register(service, StandardWatchEventKinds.ENTRY_CREATE);
            assertSame(key, watched.register(service, StandardWatchEventKinds.ENTRY_CREATE),
                    "one key per directory, as the JDK's");
            assertEquals(watched, key.watchable());
            Files.writeString(dir.resolve("new.txt"), "news");
            WatchKey signalled = service.poll(30, TimeUnit.SECONDS);
            assertSame(key, signalled);
            List<WatchEvent<?>> events = signalled.pollEvents();
            assertFalse(events.isEmpty());
            WatchEvent<?> created = events.get(0);
            assertEquals(StandardWatchEventKinds.ENTRY_CREATE, created.kind());
            Path name = assertInstanceOf(Path.class, created.context());
            assertSame(hpio, name.getFileSystem(), "the context is hpio's path");
            Path full = ((Path) signalled.watchable()).resolve(name);
            assertSame(hpio, full.getFileSystem());
            assertEquals("news", Files.readString(full));
            assertTrue(signalled.reset());
            key.cancel();
            assertFalse(key.isValid());
        }
        try (WatchService service = hpio.newWatchService()) {   // signalled, then cancelled: still the same key
            WatchKey key = watched.register(service, StandardWatchEventKinds.ENTRY_CREATE);
            Files.writeString(dir.resolve("late.txt"), "late");
            Thread.sleep(500);   // for the platform's watcher thread to signal the key (not a measurement)
            key.cancel();
            WatchKey got = service.poll(5, TimeUnit.SECONDS);
            Assumptions.assumeTrue(got != null, "the key was not signalled before its cancel");
            assertSame(key, got, "a key signalled before its cancel comes out as the same object, as the JDK's");
            assertFalse(got.isValid());
            assertNull(service.poll(), "and once");
        }
        try (WatchService service = hpio.newWatchService()) {
            service.close();
            assertThrows(ClosedWatchServiceException.class, service::poll);
        }
    }
}
