package org.hpio.bench.bulk;

import org.hpio.bench.data.DataFiles;
import org.hpio.bench.data.Elements;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The files of the bulk and approaches suites: the generator's elements in both byte orders, and the file the
 * writes go to. Closing deletes all three.
 *
 * @param bigEndian   the input, big-endian
 * @param nativeOrder the input, in the machine's order
 * @param output      where writes go (made afresh by each write run)
 */
record BulkFiles(Path bigEndian, Path nativeOrder, Path output) implements AutoCloseable {
    /** Writes {@code count} elements in both orders as {@code STEM-be.bin} and {@code STEM-native.bin} in {@code dir}. */
    static BulkFiles create(Path dir, String stem, Elements elements, long count) throws IOException {
        BulkFiles files = new BulkFiles(dir.resolve(stem + "-be.bin"), dir.resolve(stem + "-native.bin"),
                dir.resolve(stem + "-out.bin"));
        DataFiles.create(files.bigEndian, elements, count, ByteOrder.BIG_ENDIAN);
        DataFiles.create(files.nativeOrder, elements, count, ByteOrder.nativeOrder());
        return files;
    }

    /** The input in {@code order}. */
    Path input(ByteOrder order) {
        return order == ByteOrder.BIG_ENDIAN ? bigEndian : nativeOrder;
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(bigEndian);
        Files.deleteIfExists(nativeOrder);
        Files.deleteIfExists(output);
    }
}
