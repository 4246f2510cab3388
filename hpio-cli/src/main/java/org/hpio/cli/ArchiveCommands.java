package org.hpio.cli;

import org.hpio.archive.Archive;
import org.hpio.archive.ArchiveBuilder;
import org.hpio.archive.ArchiveEntry;
import org.hpio.archive.DirectoryOrder;
import org.hpio.archive.order.TraceOrdering;
import org.hpio.archive.simulation.FileCacheModel;
import org.hpio.bench.suite.BenchOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** The archive commands: {@code hpio pack}, {@code hpio ls}, {@code hpio verify}. */
final class ArchiveCommands {
    private ArchiveCommands() {
    }

    /** A cache size option value: 0, or a size such as 10m. */
    static long parseCacheSize(String text) {
        return text.strip().equals("0") || text.strip().equalsIgnoreCase("none") ? 0 : BenchOptions.parseSize(text);
    }

    /** {@code hpio pack DIR -o OUT.zip [--trace T] [--order trace|dir]}. */
    @Command(name = "pack", mixinStandardHelpOptions = true,
            description = {"Packs every file under DIR into a Zip archive that unzip, Python and Java read.",
                    "With --trace, files are ordered so that the traced program reads them with few seeks"
                            + " (002 §3.3)."})
    static final class Pack implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "DIR", description = "the directory to pack")
        Path root;

        @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT.zip", description = "the archive")
        Path output;

        @Option(names = "--trace", paramLabel = "T", description = "a load trace (paths relative to DIR)")
        Path trace;

        @Option(names = "--order", paramLabel = "ORDER",
                description = "trace or dir (default: trace with --trace, else dir)")
        String order;

        @Option(names = "--cache", paramLabel = "SIZE", description = "file cache simulated while ordering, LRU"
                + " (default: 0, none)")
        String cache = "0";

        @Option(names = "--min-savings", paramLabel = "SHARE",
                description = "Deflate only when it saves this share of a file (default: 0.05)")
        double minSavings = 0.05;

        @Option(names = "--method", paramLabel = "M",
                description = "how compressed entries are compressed: deflate or zstd (default: deflate)")
        String method = "deflate";

        @Option(names = "--level", paramLabel = "N",
                description = "Deflate level 0-9 (default: 6) or Zstandard level 1-22 (default: 3)")
        Integer level;

        @Option(names = "--fast-decode", description = "with --method zstd: trade some size for decoding speed"
                + " (raw literals, matches of 6 bytes or more; about 1.5x faster to read, 10 %% larger)")
        boolean fastDecode;

        /** A builder of DIR's archive compressing by {@link #method} at {@link #level}. */
        private ArchiveBuilder builder() {
            ArchiveBuilder b = new ArchiveBuilder(root).minDeflateSavings(minSavings);
            if (fastDecode && !method.equals("zstd")) {
                throw new IllegalArgumentException("--fast-decode is for --method zstd, not " + method);
            }
            return switch (method) {
                case "deflate" -> b.deflateLevel(level == null ? 6 : level);
                case "zstd" -> b.zstd(level == null ? 3 : level, fastDecode);
                default -> throw new IllegalArgumentException("--method must be deflate or zstd, was " + method);
            };
        }

        /** Leaves out the archive being written, should it lie under the directory (an older one, say). */
        private List<String> withoutOutput(List<String> files) {
            Path out = output.toAbsolutePath().normalize();
            Path base = root.toAbsolutePath().normalize();
            String relative = out.startsWith(base) ? base.relativize(out).toString() : null;
            return files.stream().filter(f -> !f.equals(relative)).toList();
        }

        @Override
        public Integer call() throws IOException {
            String chosen = order != null ? order : trace != null ? "trace" : "dir";
            if (!chosen.equals("trace") && !chosen.equals("dir")) {
                throw new IllegalArgumentException("--order must be trace or dir, was " + chosen);
            }
            if (chosen.equals("trace") && trace == null) {
                throw new IllegalArgumentException("--order trace needs --trace T");
            }
            InputFiles.directory(root);
            InputFiles.output(output);
            List<String> files = withoutOutput(DirectoryOrder.of(root));
            if (chosen.equals("trace")) {
                files = TraceOrdering.order(InputFiles.readTrace(trace), files, FileCacheModel.lru(parseCacheSize(cache)));
            }
            ArchiveBuilder.Summary s = builder().addAll(files).write(output);
            System.out.printf("%s: %d entries in %s order (%d %s), %,d bytes of files, %,d bytes%n",
                    output, s.entries(), chosen, s.deflated(), method.equals("zstd") ? "zstd" : "deflated",
                    s.fileBytes(), s.archiveBytes());
            return 0;
        }
    }

    /** A command on one archive, given as its only parameter; the archive is open while it runs. */
    abstract static class OnArchive implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "A.zip", description = "the archive")
        Path archive;

        @Override
        public final Integer call() throws IOException {
            try (Archive a = Archive.open(InputFiles.archive(archive))) {
                return run(a);
            }
        }

        /** Does the work on the open archive (which the caller closes); returns the exit code. */
        abstract int run(Archive a) throws IOException;
    }

    /** {@code hpio ls A.zip}. */
    @Command(name = "ls", mixinStandardHelpOptions = true, description = "Lists the entries of a Zip archive.")
    static final class Ls extends OnArchive {
        @Override
        int run(Archive a) {
            System.out.printf("%-8s %14s %14s %-8s %14s  %s%n", "method", "size", "compressed", "crc-32",
                    "offset", "name");
            long size = 0;
            long compressed = 0;
            for (ArchiveEntry e : a.entries()) {
                System.out.printf("%-8s %14d %14d %08x %14d  %s%n", e.methodName(), e.uncompressedSize(),
                        e.compressedSize(), e.crc(), e.localHeaderOffset(), e.name());
                size += e.uncompressedSize();
                compressed += e.compressedSize();
            }
            System.out.printf("%d entries, %,d bytes, %,d compressed%n", a.entries().size(), size, compressed);
            return 0;
        }
    }

    /** {@code hpio verify A.zip}. */
    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Reads every entry of a Zip archive and checks its sizes and CRC-32.")
    static final class Verify extends OnArchive {
        @Override
        int run(Archive a) {
            List<IOException> problems = a.verifyAll();
            problems.forEach(p -> System.err.println("hpio verify: " + p.getMessage()));
            a.warnings().forEach(w -> System.err.println("hpio verify: warning: " + w));
            System.out.printf("%s: %d entries, %d bad, %d warnings%n", archive, a.entries().size(), problems.size(),
                    a.warnings().size());
            return problems.isEmpty() ? 0 : 1;
        }
    }
}
