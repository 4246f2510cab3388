package org.hpio.bench.archive;

import org.hpio.archive.Archive;
import org.hpio.archive.ArchiveLoader;
import org.hpio.archive.LoadOptions;
import org.hpio.archive.LoadedFile;
import org.hpio.archive.LookAhead;
import org.hpio.archive.MountTable;
import org.hpio.archive.cache.FileCache;
import org.hpio.archive.cache.FileCacheConfig;
import org.hpio.internal.sys.Libdeflate;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * One configuration of the archive suite, a way of loading the trace's files: what it opens, how it loads one
 * file, and the files whose page cache state matters. Opening, each load and each release are timed by
 * {@link Replays}; the check of each file's bytes (CRC-32 against the expected value) is not.
 *
 * @param name      the configuration name (DESIGN.md's naming)
 * @param mechanism what it is, for the report
 * @param files     the files it reads (for dropping or warming their pages)
 * @param opener    opens a session
 */
record ArchiveConfig(String name, String mechanism, List<Path> files, Opener opener) {
    @FunctionalInterface
    interface Opener {
        Session open() throws IOException;
    }

    /** A replay's open state (a ZipFile, an Archive, a mount table). */
    interface Session extends AutoCloseable {
        Loaded load(String path) throws IOException;

        /** Seeks measured by the loader itself, when it counts them. */
        default OptionalLong seeks() {
            return OptionalLong.empty();
        }

        @Override
        void close() throws IOException;
    }

    /** One loaded file. */
    interface Loaded {
        long crc();

        long size();

        default void release() {
        }
    }

    private static Loaded heap(byte[] b) {
        return new Loaded() {
            @Override
            public long crc() {
                CRC32 crc = new CRC32();
                crc.update(b);
                return crc.getValue();
            }

            @Override
            public long size() {
                return b.length;
            }
        };
    }

    private static Loaded offHeap(LoadedFile f) {
        return new Loaded() {
            @Override
            public long crc() {
                CRC32 crc = new CRC32();
                crc.update(f.buffer());
                return crc.getValue();
            }

            @Override
            public long size() {
                return f.size();
            }

            @Override
            public void release() {
                f.close();
            }
        };
    }

    /** Files.readAllBytes on each loose file: what users write. */
    static ArchiveConfig readAllBytes(TraceData data) {
        return new ArchiveConfig("loose-readallbytes", "Files.readAllBytes on loose files", looseFiles(data), () -> new Session() {
            @Override
            public Loaded load(String path) throws IOException {
                return heap(Files.readAllBytes(data.tree().resolve(path)));
            }

            @Override
            public void close() {
            }
        });
    }

    /** hpio's mount table over the loose directory: the same engine as archives. */
    static ArchiveConfig looseHpio(TraceData data, LoadOptions options) {
        return new ArchiveConfig("loose-hpio", "hpio MountTable over the loose directory, " + describe(options),
                looseFiles(data), () -> {
            MountTable table = new MountTable(options).mountDirectory(data.tree());
            return new Session() {
                @Override
                public Loaded load(String path) throws IOException {
                    return offHeap(table.load(path));
                }

                @Override
                public void close() throws IOException {
                    table.close();
                }
            };
        });
    }

    /** java.util.zip.ZipFile on an archive: the JDK's way. */
    static ArchiveConfig zipFile(String name, Path archive) {
        return new ArchiveConfig(name, "java.util.zip.ZipFile, getInputStream().readAllBytes()", List.of(archive), () -> {
            ZipFile zip = new ZipFile(archive.toFile());
            return new Session() {
                @Override
                public Loaded load(String path) throws IOException {
                    ZipEntry e = zip.getEntry(path);
                    if (e == null) {
                        throw new IOException(archive + " has no entry " + path);
                    }
                    try (InputStream in = zip.getInputStream(e)) {
                        return heap(in.readAllBytes());
                    }
                }

                @Override
                public void close() throws IOException {
                    zip.close();
                }
            };
        });
    }

    /** hpio's Archive.load. */
    static ArchiveConfig archive(String name, Path archive, LoadOptions options) {
        return archive(name, archive, options, inflation(options));
    }

    /** hpio's Archive.load of an archive whose compressed entries {@code decoder} decodes (for the report). */
    static ArchiveConfig archive(String name, Path archive, LoadOptions options, String decoder) {
        return new ArchiveConfig(name, "hpio Archive.load, " + describe(options, decoder), List.of(archive),
                () -> loading(Archive.open(archive, options), () -> { }));
    }

    /**
     * hpio's Archive.load through a whole-file cache of {@code capacity} bytes (002 §3.5; the default policy,
     * Landlord), made empty for each replay: a file loaded again within the replay comes from the cache
     * (no read, no copy, no CRC again), which is what the python trace's second and third runs do. The page
     * cache is cold or warm as for every row.
     */
    static ArchiveConfig cachedArchive(String name, Path archive, LoadOptions options, long capacity) {
        return new ArchiveConfig(name, "hpio Archive.load, " + describe(options) + ", " + (capacity >> 20)
                + " MiB Landlord whole-file cache, empty at the start", List.of(archive), () -> {
            FileCache cache = new FileCache(FileCacheConfig.of(capacity));
            try {
                return loading(Archive.open(archive, options.withFileCache(cache)), cache::close);
            } catch (IOException | RuntimeException e) {
                cache.close();
                throw e;
            }
        });
    }

    /** A replay session loading from {@code a}; closing it closes {@code a}, then runs {@code after}. */
    private static Session loading(Archive a, Runnable after) {
        return new Session() {
            @Override
            public Loaded load(String path) throws IOException {
                return offHeap(a.load(path));
            }

            @Override
            public OptionalLong seeks() {
                return OptionalLong.of(a.stats().seeks());
            }

            @Override
            public void close() throws IOException {
                try {
                    a.close();
                } finally {
                    after.run();
                }
            }
        };
    }

    /**
     * hpio's ArchiveLoader over the trace's load list: reads and decoding of the next files run ahead of the
     * replay; each file is still delivered in trace order (checked by name) and checked by the replay.
     */
    static ArchiveConfig lookAhead(String name, Path archive, LoadOptions options, LookAhead ahead, List<String> paths) {
        return lookAhead(name, archive, options, ahead, paths, inflation(options));
    }

    /** {@link #lookAhead(String, Path, LoadOptions, LookAhead, List)} with {@code decoder} decoding the entries. */
    static ArchiveConfig lookAhead(String name, Path archive, LoadOptions options, LookAhead ahead, List<String> paths,
                                   String decoder) {
        String how = "hpio ArchiveLoader (look-ahead " + ahead.files() + " files / " + (ahead.bytes() >> 20)
                + " MiB, neighbours read together in reads of up to " + (ahead.readBytes() >> 10) + " KiB, "
                + ahead.workers() + " decode worker" + (ahead.workers() == 1 ? "" : "s") + ", "
                + (ahead.reuse() ? "repeats reuse the kept file" : "repeats read again")
                + (options.direct() ? ", O_DIRECT" : "") + ", " + decoder + ")";
        return new ArchiveConfig(name, how, List.of(archive), () -> {
            Archive a = Archive.open(archive, options);
            ArchiveLoader loader;
            try {
                loader = a.loader(paths, ahead);
            } catch (IOException | RuntimeException e) {
                a.close();
                throw e;
            }
            return new Session() {
                @Override
                public Loaded load(String path) throws IOException {
                    LoadedFile f = loader.next();
                    if (!f.name().equals(path)) {
                        f.close();
                        throw new IllegalStateException("the loader delivered " + f.name() + " where the trace loads "
                                + path);
                    }
                    return offHeap(f);
                }

                @Override
                public OptionalLong seeks() {
                    return OptionalLong.of(loader.stats().seeks());
                }

                @Override
                public void close() throws IOException {
                    try {
                        loader.close();
                    } finally {
                        a.close();
                    }
                }
            };
        });
    }

    static String describe(LoadOptions o) {
        return describe(o, inflation(o));
    }

    /** The options, with {@code decoder} saying how compressed entries are decoded. */
    static String describe(LoadOptions o, String decoder) {
        return (o.blockSize() >> 10) + " KiB blocks, queue depth " + o.queueDepth() + (o.direct() ? ", O_DIRECT" : "")
                + ", " + decoder;
    }

    /** How Deflate entries are inflated with {@code o}. */
    static String inflation(LoadOptions o) {
        return switch (o.inflation()) {
            case BLOCKS -> "Inflater per block (002 §3.2)";
            case WHOLE -> Libdeflate.available() ? "whole-buffer libdeflate"
                    : "whole-buffer Inflater (libdeflate missing)";
            case WHOLE_JDK -> "whole-buffer Inflater";
        };
    }

    private static List<Path> looseFiles(TraceData data) {
        return data.sizes().keySet().stream().map(data.tree()::resolve).toList();
    }
}
