package org.hpio.internal.sys;

import org.hpio.bulk.BulkRandomAccessFile;
import org.hpio.testing.Descriptors;
import org.hpio.testing.NativeCalls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NativeFile and descriptor hygiene: calls on a closed file throw IOException; closing while calls run is safe
 * and closes the descriptor exactly once; opening and closing many BulkRandomAccessFiles leaks no descriptor
 * (counted in /proc/self/fd), not even when a constructor fails.
 */
class NativeFileTest {
    private static final Path FDS = Path.of("/proc/self/fd");

    @TempDir
    Path dir;

    /** Open descriptors of this process: number -> target, read from /proc/self/fd. */
    private static Map<Integer, String> openDescriptors() throws IOException {
        Map<Integer, String> fds = new HashMap<>();
        try (Stream<Path> list = Files.list(FDS)) {
            for (Path fd : (Iterable<Path>) list::iterator) {
                try {
                    fds.put(Integer.parseInt(fd.getFileName().toString()), Files.readSymbolicLink(fd).toString());
                } catch (IOException gone) {
                    // closed between listing and reading the link (the listing's own descriptor, for one)
                }
            }
        }
        return fds;
    }

    private static long descriptorsOn(Path path) throws IOException {
        String target = path.toString();
        return openDescriptors().values().stream().filter(t -> t.equals(target)).count();
    }

    private static long descriptorsUnder(Path directory) throws IOException {
        String prefix = directory.toString() + "/";
        return openDescriptors().values().stream().filter(t -> t.startsWith(prefix)).count();
    }

    private static Integer descriptorOf(Path path) throws IOException {
        return openDescriptors().entrySet().stream().filter(e -> e.getValue().equals(path.toString()))
                .map(Map.Entry::getKey).findFirst().orElse(null);
    }

    /**
     * {@link NativeFile#openNonBlocking} opens with O_NONBLOCK, which reads by system call and the file's own
     * calls keep, and which a lease's {@link NativeFile.Lease#fd} (what an engine hands io_uring, where it would
     * mean "fail rather than wait" on some file systems) clears first, once; the other flags stay.
     */
    @Test
    void aNonBlockingOpenLosesONonBlockBeforeItsDescriptorIsHandedOut() throws IOException {
        NativeCalls.assumeOn("a descriptor");
        Path path = Files.write(dir.resolve("nonblocking"), new byte[] {1, 2, 3});
        try (NativeFile f = NativeFile.openNonBlocking(path, Syscalls.O_RDONLY)) {
            int fd = descriptorOf(path);
            assertEquals(Syscalls.O_NONBLOCK, Descriptors.statusFlags(fd) & Syscalls.O_NONBLOCK, "opened O_NONBLOCK");
            Statx statx = f.statx(Statx.STATX_TYPE | Statx.STATX_SIZE);
            assertTrue(statx.isRegularFile());
            assertEquals(3, statx.size());
            assertEquals(3, f.size());
            try (Arena arena = Arena.ofConfined()) {
                assertEquals(3, f.read(arena.allocate(8), 0));
            }
            assertEquals(Syscalls.O_NONBLOCK, Descriptors.statusFlags(fd) & Syscalls.O_NONBLOCK, "the file's own calls keep it");
            try (NativeFile.Lease lease = f.lease()) {
                assertEquals(fd, lease.fd());
            }
            int flags = Descriptors.statusFlags(fd);
            assertEquals(0, flags & Syscalls.O_NONBLOCK, "cleared before the descriptor was handed out");
            assertEquals(Syscalls.O_CLOEXEC, flags & Syscalls.O_CLOEXEC, "the other flags stay");
            try (NativeFile.Lease lease = f.lease()) {
                assertEquals(fd, lease.fd());
            }
        }
        try (NativeFile plain = NativeFile.open(path, Syscalls.O_RDONLY)) {
            assertEquals(0, Descriptors.statusFlags(descriptorOf(path)) & Syscalls.O_NONBLOCK, "a plain open has none");
        }
    }

    @Test
    void readWriteSizeThenClosedThrowsIOException() throws IOException {
        Path path = dir.resolve("basic");
        NativeFile f = NativeFile.open(path, Syscalls.O_RDWR | Syscalls.O_CREAT);
        assertTrue(Files.exists(path), "O_CREAT created the file");
        assertTrue(f.isOpen());
        assertEquals(path.toString(), f.path());
        assertEquals(4, f.write(MemorySegment.ofArray(new byte[]{1, 2, 3, 4}), 0));
        assertEquals(4, f.size());
        byte[] back = new byte[4];
        assertEquals(4, f.read(MemorySegment.ofArray(back), 0));
        assertArrayEquals(new byte[]{1, 2, 3, 4}, back);
        assertEquals(1, descriptorsOn(path));

        f.close();
        assertFalse(f.isOpen());
        assertEquals(0, descriptorsOn(path), "close() closed the descriptor");
        MemorySegment buffer = MemorySegment.ofArray(new byte[4]);
        IOException e = assertThrows(IOException.class, () -> f.read(buffer, 0));
        assertTrue(e.getMessage().contains("closed") && e.getMessage().contains(path.toString()), e.getMessage());
        assertThrows(IOException.class, () -> f.write(buffer, 0));
        assertThrows(IOException.class, f::size);
        assertThrows(IOException.class, () -> f.force(true));
        assertThrows(IOException.class, () -> f.advise(Syscalls.POSIX_FADV_DONTNEED));
        f.close(); // twice is fine
        assertArrayEquals(new byte[]{1, 2, 3, 4}, Files.readAllBytes(path), "nothing written after close");
    }

    /**
     * A call on a closed NativeFile must not close its old descriptor number again: by then the number may
     * belong to another file. Here the number is handed to a second file on purpose, and that file must keep
     * working after the first one is used (and refused) again.
     */
    @Test
    void callsAfterCloseNeverCloseTheDescriptorNumberAgain() throws IOException {
        Path firstPath = dir.resolve("first");
        Files.write(firstPath, new byte[8]);
        NativeFile first = NativeFile.open(firstPath, Syscalls.O_RDONLY);
        Integer number = descriptorOf(firstPath);
        assertNotNull(number);
        first.close();

        // Open files until one of them gets the freed number (Linux hands out the lowest free one).
        List<NativeFile> others = new ArrayList<>();
        NativeFile second = null;
        Path secondPath = null;
        try {
            for (int i = 0; i < 64 && second == null; i++) {
                Path p = dir.resolve("second-" + i);
                Files.write(p, new byte[]{42});
                NativeFile f = NativeFile.open(p, Syscalls.O_RDONLY);
                if (number.equals(descriptorOf(p))) {
                    second = f;
                    secondPath = p;
                } else {
                    others.add(f);
                }
            }
            assertNotNull(second, "no file got descriptor " + number);

            MemorySegment buffer = MemorySegment.ofArray(new byte[1]);
            for (int i = 0; i < 3; i++) {
                assertThrows(IOException.class, () -> first.read(buffer, 0));
                assertThrows(IOException.class, first::size);
            }
            // The second file still owns its descriptor and can use it.
            assertEquals(secondPath.toString(), openDescriptors().get(number),
                    "descriptor " + number + " was closed under the file that owns it now");
            assertEquals(1, second.size());
            assertEquals(1, second.read(buffer, 0));
            assertEquals(42, buffer.get(ValueLayout.JAVA_BYTE, 0));
        } finally {
            // Quietly: with the bug under test, closing the second file fails too and would hide the assertion.
            for (NativeFile f : others) {
                closeQuietly(f);
            }
            if (second != null) {
                closeQuietly(second);
            }
        }
    }

    private static void closeQuietly(NativeFile f) {
        try {
            f.close();
        } catch (IOException ignored) {
            // cleanup only
        }
    }

    /**
     * Closing while reads run on other threads: each read completes or throws IOException; the descriptor
     * is closed once the last call in flight has finished, and no other descriptor is touched.
     */
    @Test
    void closeWhileReadsRunIsSafe() throws Exception {
        Path path = dir.resolve("busy");
        byte[] data = new byte[1 << 20];
        new Random(1).nextBytes(data);
        Files.write(path, data);
        Path bystanderPath = dir.resolve("bystander");
        Files.write(bystanderPath, new byte[]{7});

        for (int round = 0; round < 5; round++) {
            NativeFile f = NativeFile.open(path, Syscalls.O_RDONLY);
            AtomicLong completed = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<Throwable>> futures = new ArrayList<>();
            CyclicBarrier start = new CyclicBarrier(5);
            try {
                for (int t = 0; t < 4; t++) {
                    boolean heap = t % 2 == 0;
                    futures.add(pool.submit(() -> {
                        start.await();
                        try (Arena arena = Arena.ofConfined()) {
                            MemorySegment buffer = heap ? MemorySegment.ofArray(new byte[64 * 1024])
                                    : arena.allocate(64 * 1024);
                            while (true) {
                                try {
                                    long at = (completed.get() * 4096) % (data.length - buffer.byteSize());
                                    long got = f.read(buffer, at);
                                    if (got != buffer.byteSize() || buffer.get(ValueLayout.JAVA_BYTE, 0) != data[(int) at]) {
                                        return new AssertionError("wrong read at " + at + ": " + got);
                                    }
                                    completed.incrementAndGet();
                                } catch (IOException e) {
                                    return e;
                                }
                            }
                        }
                    }));
                }
                start.await();
                while (completed.get() < 20) {
                    Thread.onSpinWait();
                }
                f.close();
                // Open a bystander at once: it may well get the descriptor number the busy file had.
                try (NativeFile bystander = NativeFile.open(bystanderPath, Syscalls.O_RDONLY)) {
                    for (Future<Throwable> future : futures) {
                        Throwable outcome = future.get(60, TimeUnit.SECONDS);
                        assertInstanceOf(IOException.class, outcome, () -> "outcome: " + outcome);
                    }
                    assertEquals(1, bystander.size(), "the bystander's descriptor is intact");
                    assertEquals(1, descriptorsOn(bystanderPath));
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(0, descriptorsOn(path), "round " + round + ": the busy file's descriptor was closed");
        }
    }

    /** Opening and closing many BulkRandomAccessFiles leaves the process with the descriptors it had. */
    @Test
    void noDescriptorLeakAcrossManyBulkRandomAccessFiles() throws IOException {
        Path files = Files.createDirectory(dir.resolve("many"));
        // Warm up: load every class and library the loop needs, so the JVM opens nothing new during it.
        Path warm = files.resolve("warm");
        try (BulkRandomAccessFile f = new BulkRandomAccessFile(warm, "rw")) {
            f.writeArray(new long[]{1, 2});
            f.readArray(0L, new long[2]);
        }
        Files.delete(warm);
        int before = openDescriptors().size();

        for (int batch = 0; batch < 4; batch++) {
            List<BulkRandomAccessFile> open = new ArrayList<>();
            try {
                for (int i = 0; i < 50; i++) {
                    BulkRandomAccessFile f = new BulkRandomAccessFile(files.resolve("f" + i), "rw",
                            i % 2 == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
                    open.add(f);
                    f.writeArray(new int[]{batch, i});
                    int[] back = new int[2];
                    f.readArray(0L, back);
                    assertArrayEquals(new int[]{batch, i}, back);
                }
                // Each open BulkRandomAccessFile holds two descriptors: the RandomAccessFile's and hpio's.
                assertEquals(100, descriptorsUnder(files), "descriptors while 50 files are open");
            } finally {
                for (BulkRandomAccessFile f : open) {
                    f.close();
                }
            }
            assertEquals(0, descriptorsUnder(files), "descriptors after closing batch " + batch);
        }
        assertEquals(before, openDescriptors().size(), "descriptors of the whole process");
    }

    /** A constructor that fails after the RandomAccessFile was opened must close it again. */
    @Test
    void failedConstructorLeavesNoDescriptor() throws IOException {
        Path path = dir.resolve("ctor");
        Files.write(path, new byte[4]);
        for (int i = 0; i < 5; i++) {
            assertThrows(NullPointerException.class, () -> new BulkRandomAccessFile(path, "rw", null));
            assertThrows(IllegalArgumentException.class, () -> new BulkRandomAccessFile(path, "rx"));
        }
        assertEquals(0, descriptorsOn(path), "descriptors left open on the file by failed constructors");
        Path missing = dir.resolve("missing");
        assertThrows(IOException.class, () -> new BulkRandomAccessFile(missing, "r"));
        assertEquals(0, descriptorsUnder(dir));
    }
}
