package org.hpio.examples;

import org.hpio.Hpio;
import org.hpio.archive.Archive;
import org.hpio.archive.ArchiveBuilder;
import org.hpio.archive.ArchiveLoader;
import org.hpio.archive.LoadOptions;
import org.hpio.archive.LoadedFile;
import org.hpio.archive.LookAhead;
import org.hpio.archive.MountTable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SortedSet;
import java.util.zip.CRC32;

/** The README's loading: a mount table over two archives and a directory, a streamed entry, a look-ahead loader. */
public final class MountAndLoad {
    private MountAndLoad() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Scratch.directory("mounts");
        byte[] big = new byte[3 << 20];
        new Random(19).nextBytes(big);
        Path dataZip = pack(dir, "data", List.of("art/textures/a.dds", "art/textures/b.dds", "lib/x.txt"), big);
        Path modZip = pack(dir, "mod", List.of("art/textures/a.dds"), null);
        Path loose = Files.createDirectories(dir.resolve("loose"));
        Files.writeString(loose.resolve("readme.txt"), "loose file");
        List<String> paths = List.of("lib/x.txt", "art/textures/a.dds", "big.bin", "lib/x.txt");
        String a;
        SortedSet<String> every;
        CRC32 crc = new CRC32();
        List<String> delivered = new ArrayList<>();
        // README: mounts
        LoadOptions options = LoadOptions.defaults();      // 32 KiB blocks, queue depth 4, 16-block LRU block cache
        try (MountTable vfs = new MountTable(options)      // later mounts override earlier ones; lookups fall through
                .mountArchive(dataZip).mountArchive(modZip).mountDirectory(loose)) {
            try (LoadedFile f = vfs.load("art/textures/a.dds")) {   // read-only, CRC-checked; close gives the memory back
                ByteBuffer bytes = f.buffer();                      // or f.segment()
                a = StandardCharsets.UTF_8.decode(bytes).toString();
            }
            every = vfs.list();                                     // every mount, merged
        }
        // O_DIRECT if on: what is not in the page cache bypasses it (no insertion cost, it does not stay cached);
        // ranges already cached are copied from it (cachestat, Linux 6.5). Suits a cold look-ahead replay too.
        try (Archive archive = Archive.open(dataZip, options.withDirect(Hpio.nativeCalls()))) {
            archive.stream("big.bin", crc::update);                // bounded memory; checked when it returns
        }
        try (Archive archive = Archive.open(dataZip);              // a known load list (a trace), in order:
             ArchiveLoader next = archive.loader(paths, LookAhead.defaults())) {   // neighbours read together, inflated ahead
            while (next.hasNext()) {
                try (LoadedFile f = next.next()) { delivered.add(f.name() + " " + f.size()); }   // a bad entry fails its own position only
            }
        }
        // README: end
        check(a, every, crc, big, delivered, paths);
        System.out.println("MountAndLoad: " + every.size() + " files in 3 mounts; big.bin streamed; "
                + delivered.size() + " loads in order");
    }

    private static void check(String a, SortedSet<String> every, CRC32 crc, byte[] big, List<String> delivered,
                              List<String> paths) {
        Check.that(a.equals("mod:art/textures/a.dds"), "the later mount wins: " + a);
        Check.that(every.containsAll(List.of("art/textures/b.dds", "readme.txt", "big.bin")), "merged list: " + every);
        CRC32 expected = new CRC32();
        expected.update(big);
        Check.that(crc.getValue() == expected.getValue(), "big.bin streamed whole");
        Check.that(delivered.size() == paths.size() && delivered.get(2).equals("big.bin " + big.length),
                "the loader delivers the list in order: " + delivered);
    }

    /** An archive of the named small files (their contents say which archive and file) and, if given, big.bin. */
    private static Path pack(Path dir, String name, List<String> files, byte[] big) throws IOException {
        Path root = dir.resolve(name);
        for (String file : files) {
            Files.createDirectories(root.resolve(file).getParent());
            Files.writeString(root.resolve(file), name + ":" + file);
        }
        List<String> entries = new ArrayList<>(files);
        if (big != null) {
            Files.write(root.resolve("big.bin"), big);
            entries.add("big.bin");
        }
        Path zip = dir.resolve(name + ".zip");
        new ArchiveBuilder(root).addAll(entries).write(zip);
        return zip;
    }
}
