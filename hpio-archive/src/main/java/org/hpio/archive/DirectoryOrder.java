package org.hpio.archive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files of a directory tree in directory order: depth first, names in each directory sorted (so the order
 * does not depend on the file system's readdir order). The baseline that trace order is measured against.
 */
public final class DirectoryOrder {
    /** Compares '/'-separated paths component by component, the order of a sorted depth-first walk. */
    public static final Comparator<String> COMPONENTS = (a, b) -> Arrays.compare(a.split("/"), b.split("/"));

    private DirectoryOrder() {
    }

    /** The regular files under {@code root} (and symbolic links to regular files), as relative '/' paths. */
    public static List<String> of(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new IOException(root + " is not a directory");
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile)
                    .map(p -> root.relativize(p).toString())
                    .sorted(COMPONENTS)
                    .toList();
        } catch (UncheckedIOException e) {
            throw new IOException("cannot list " + root + ": " + e.getCause().getMessage(), e.getCause());
        }
    }

    /** {@code paths} sorted into directory order. */
    public static List<String> sort(List<String> paths) {
        return paths.stream().sorted(COMPONENTS).toList();
    }
}
