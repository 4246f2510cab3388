package org.hpio.archive;

import org.hpio.internal.sys.Errno;
import org.hpio.internal.sys.LooseFiles;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * The virtual file system of 002 (§1.2, §3): archives and loose directories mounted in order into one tree of
 * '/'-separated paths. A later mount overrides an earlier one (as a game's mods override its data), a lookup
 * falls through from the latest mount to the earliest until one has the file, and a listing merges every
 * mount. Loose files are read with the same engine as archives ({@link StraightReads} at the queue depth, at
 * the same block size, O_DIRECT when asked).
 *
 * <p>Paths are relative: "." components are dropped and a path leaving the root ("..") is refused, in lookups
 * and in loose directories alike (a symbolic link in a loose directory that leads out of it is refused too).
 *
 * <p>Owns the archives it opened ({@link #mountArchive}); close the table when done (loaded files stay
 * valid). Thread-safe: loads may run on several threads, and mounting while loading is allowed.
 */
public final class MountTable implements AutoCloseable {
    /** One mounted source. */
    private sealed interface Mount permits ArchiveMount, DirectoryMount {
        String label();

        boolean has(String name);

        LoadedFile load(String name) throws IOException;

        /** The file {@code name} loaded, or null when this mount has no file there (one lookup, not two). */
        LoadedFile loadIfPresent(String name) throws IOException;

        Collection<String> files() throws IOException;

        LoadStats stats();

        void close() throws IOException;
    }

    private final LoadOptions options;
    private final List<Mount> mounts = new CopyOnWriteArrayList<>();

    /** A table whose mounts load with the default options. */
    public MountTable() {
        this(LoadOptions.defaults());
    }

    /** A table whose mounts load with {@code options}. */
    public MountTable(LoadOptions options) {
        this.options = options;
    }

    /** Opens the archive at {@code zip} with the table's options and mounts it above the others; the table owns it. */
    public MountTable mountArchive(Path zip) throws IOException {
        mounts.add(new ArchiveMount(Archive.open(zip, options)));
        return this;
    }

    /** Mounts the loose files under {@code directory} above the others. */
    public MountTable mountDirectory(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            throw new NoSuchFileException(directory.toString(), null, "not a directory, cannot mount it");
        }
        mounts.add(new DirectoryMount(directory.toRealPath(), options));
        return this;
    }

    /** The sources mounted, earliest first (archive or directory paths). */
    public List<String> mounts() {
        return mounts.stream().map(Mount::label).toList();
    }

    /** Which mount serves {@code path} (the latest that has it), or empty. */
    public Optional<String> source(String path) {
        return find(EntryNames.of(path)).map(Mount::label);
    }

    /** Whether some mount has a file at {@code path}. */
    public boolean exists(String path) {
        try {
            return find(EntryNames.of(path)).isPresent();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Loads {@code path} from the latest mount that has it; the caller owns the result (see {@link LoadedFile}).
     *
     * @throws NoSuchFileException when no mount has it, or the path leaves the root
     */
    public LoadedFile load(String path) throws IOException {
        String name;
        try {
            name = EntryNames.of(path);
        } catch (IllegalArgumentException e) {
            throw new NoSuchFileException(path, null, e.getMessage());
        }
        for (int i = mounts.size() - 1; i >= 0; i--) {
            LoadedFile f = mounts.get(i).loadIfPresent(name);
            if (f != null) {
                return f;
            }
        }
        throw new NoSuchFileException(path, null, "in none of the " + mounts.size() + " mounts");
    }

    /** Every file path of every mount, sorted, each once. */
    public SortedSet<String> list() throws IOException {
        SortedSet<String> all = new TreeSet<>();
        for (Mount m : mounts) {
            all.addAll(m.files());
        }
        return all;
    }

    /** What loads through this table did so far, over all mounts. */
    public LoadStats stats() {
        LoadStats sum = new LoadStats(0, 0, 0, 0, 0, 0);
        for (Mount m : mounts) {
            sum = sum.plus(m.stats());
        }
        return sum;
    }

    private Optional<Mount> find(String name) {
        for (int i = mounts.size() - 1; i >= 0; i--) {
            Mount m = mounts.get(i);
            if (m.has(name)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    /** Closes every archive it opened. */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (Mount m : mounts) {
            try {
                m.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        mounts.clear();
        if (first != null) {
            throw first;
        }
    }

    private record ArchiveMount(Archive archive) implements Mount {
        @Override
        public String label() {
            return archive.path().toString();
        }

        @Override
        public boolean has(String name) {
            return archive.contains(name);
        }

        @Override
        public LoadedFile load(String name) throws IOException {
            return archive.load(name);
        }

        @Override
        public LoadedFile loadIfPresent(String name) throws IOException {
            return archive.loadIfPresent(name);
        }

        @Override
        public Collection<String> files() {
            return archive.entries().stream().filter(e -> !e.isDirectory()).map(ArchiveEntry::name).toList();
        }

        @Override
        public LoadStats stats() {
            return archive.stats();
        }

        @Override
        public void close() throws IOException {
            archive.close();
        }
    }

    /**
     * Loose files under a root. A load of a file of at most {@link LoadOptions#wholeReadBytes()} costs four system
     * calls, one fewer than {@code Files.readAllBytes}: {@code openat2} beneath the root's descriptor (which also
     * refuses a path or link leading out of the root), {@code fstat}, one {@code pread} straight into a Java
     * array, {@code close} (see {@link Archive#load(String)} for why a small file is read by the caller's thread).
     * A larger file, an O_DIRECT load, a load from a virtual thread (a blocking native call would pin its
     * carrier), or a kernel without {@code openat2} takes the engine's path: the file's
     * real path checked against the root, then {@link StraightReads} at the queue depth into recycled memory.
     */
    private static final class DirectoryMount implements Mount {
        private final Path root;
        private final LoadOptions options;
        /** An O_PATH descriptor of the root, owned, closed with the mount. */
        private final int rootFd;
        private final LongAdder loads = new LongAdder();
        private final LongAdder userBytes = new LongAdder();
        private final LongAdder reads = new LongAdder();
        private final LongAdder bytesRead = new LongAdder();
        private final LongAdder seeks = new LongAdder();

        DirectoryMount(Path root, LoadOptions options) throws IOException {
            this.root = root;
            this.options = options;
            this.rootFd = LooseFiles.openRoot(root);
        }

        @Override
        public String label() {
            return root.toString();
        }

        @Override
        public boolean has(String name) {
            return Files.isRegularFile(root.resolve(name));
        }

        @Override
        public LoadedFile loadIfPresent(String name) throws IOException {
            if (options.direct() || Thread.currentThread().isVirtual()) { // a blocking pread would pin the carrier
                return has(name) ? load(name) : null;
            }
            int fd = LooseFiles.openBeneath(rootFd, name);
            if (fd == -Errno.ENOENT || fd == -Errno.ENOTDIR) {
                return null;
            }
            if (fd == LooseFiles.UNSUPPORTED || fd == -Errno.EXDEV || fd == -Errno.ELOOP) {
                return has(name) ? load(name) : null; // no openat2, or a link to check the slow way
            }
            String file = root.resolve(name).toString();
            if (fd < 0) {
                throw Errno.exception("openat2", -fd, file, -1);
            }
            long size;
            try {
                size = LooseFiles.regularFileSize(fd, file);
                if (size >= 0 && size <= options.wholeReadBytes()) {
                    return readWhole(name, fd, (int) size, file);
                }
            } finally {
                LooseFiles.close(fd, file);
            }
            return size < 0 ? null : load(name);   // not a regular file: this mount does not have it
        }

        /** The whole file (its {@code size} bytes at open) read into a new Java array by one pread. */
        private LoadedFile readWhole(String name, int fd, int size, String file) throws IOException {
            MemorySegment contents = MemorySegment.ofArray(new byte[size]);
            long done = 0;
            while (done < size) {
                long got = LooseFiles.pread(fd, contents.asSlice(done), done, file);
                if (got == 0) {
                    throw new IOException(file + " shrank from " + size + " to " + done + " bytes while it was loaded");
                }
                done += got;
            }
            loads.increment();
            userBytes.add(size);
            reads.increment();
            bytesRead.add(size);
            seeks.increment(); // a loose file lies wherever the file system put it
            return new LoadedFile(name, contents, LoadedFile.NOTHING_TO_RELEASE);
        }

        @Override
        public LoadedFile load(String name) throws IOException {
            Path file = root.resolve(name);
            Path real = file.toRealPath();
            if (!real.startsWith(root)) {
                throw new NoSuchFileException(file.toString(), null, "leads to " + real + ", outside the mount " + root);
            }
            try (BlockIo io = BlockIo.open(real, options, false)) {
                long size = io.fileSize();
                MemorySegment memory = io.take(size);
                try {
                    MemorySegment contents = memory.asSlice(0, size);
                    StraightReads.read(io, 0, contents, null, 0, 0, file.toString());
                    LoadStats s = io.stats();
                    loads.increment();
                    userBytes.add(size);
                    reads.add(s.reads());
                    bytesRead.add(s.bytesRead());
                    seeks.add(1 + s.seeks()); // a loose file lies wherever the file system put it
                    return new LoadedFile(name, contents, () -> BlockIo.give(memory));
                } catch (IOException | RuntimeException | Error e) {
                    BlockIo.give(memory); // no read is in flight into it: StraightReads waited for every one
                    throw e;
                }
            }
        }

        @Override
        public Collection<String> files() throws IOException {
            return new ArrayList<>(DirectoryOrder.of(root));
        }

        @Override
        public LoadStats stats() {
            return new LoadStats(loads.sum(), userBytes.sum(), reads.sum(), bytesRead.sum(), seeks.sum(), 0);
        }

        @Override
        public void close() throws IOException {
            LooseFiles.close(rootFd, root.toString());
        }
    }
}
