package org.hpio.bench.bulk;

import org.hpio.bulk.BulkDataInputStream;
import org.hpio.bulk.BulkDataOutputStream;
import org.hpio.bulk.BulkRandomAccessFile;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

/**
 * hpio's bulk classes in the configurations of 000 Table 1 ({@code bulkraf}, {@code bulkds}), native order, and
 * the bulk streams straight over file streams ({@code bulkds-file}).
 */
public final class HpioApproaches {
    private HpioApproaches() {
    }

    public static List<Approach> all() {
        return List.of(new BulkRaf(ByteOrder.BIG_ENDIAN), new BulkDs(), new BulkRaf(ByteOrder.nativeOrder()),
                new BulkDsFile(ByteOrder.BIG_ENDIAN), new BulkDsFile(ByteOrder.nativeOrder()));
    }

    /**
     * bulkraf: BulkRandomAccessFile's positional readArray/writeArray (pread/pwrite at the block's offset, the
     * file pointer untouched), one call per block; bulk-native in native order.
     */
    static final class BulkRaf implements Approach {
        private final ByteOrder order;

        BulkRaf(ByteOrder order) {
            this.order = order;
        }

        public String name() { return order == ByteOrder.BIG_ENDIAN ? "bulkraf" : "bulk-native"; }
        public String description() {
            return order == ByteOrder.BIG_ENDIAN ? "hpio BulkRandomAccessFile, big-endian (000 Table 1)"
                    : "hpio BulkRandomAccessFile, native order: no swap";
        }
        public ByteOrder fileOrder() { return order; }

        public void read(Path file, long position, Object array, int offset, int count) throws IOException {
            try (BulkRandomAccessFile raf = new BulkRandomAccessFile(file, "r", order)) {
                if (array instanceof long[] longs) {
                    raf.readArray(position, longs, offset, count);
                } else {
                    raf.readArray(position, (int[]) array, offset, count);
                }
            }
        }

        public void write(Path file, long position, Object array, int offset, int count) throws IOException {
            try (BulkRandomAccessFile raf = new BulkRandomAccessFile(file, "rw", order)) {
                if (array instanceof long[] longs) {
                    raf.writeArray(position, longs, offset, count);
                } else {
                    raf.writeArray(position, (int[]) array, offset, count);
                }
            }
        }
    }

    /**
     * bulkds-file: BulkDataInputStream/OutputStream straight over a FileInputStream/FileOutputStream, the
     * streams' fast path (through the file's channel); bulkds-file-native in native order.
     */
    static final class BulkDsFile implements Approach {
        private final ByteOrder order;

        BulkDsFile(ByteOrder order) {
            this.order = order;
        }

        public String name() { return order == ByteOrder.BIG_ENDIAN ? "bulkds-file" : "bulkds-file-native"; }
        public String description() {
            return "hpio BulkDataInput/OutputStream straight over File streams, "
                    + (order == ByteOrder.BIG_ENDIAN ? "big-endian" : "native order");
        }
        public ByteOrder fileOrder() { return order; }

        public void read(Path file, long position, Object array, int offset, int count) throws IOException {
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                raf.seek(position);
                BulkDataInputStream in = new BulkDataInputStream(new FileInputStream(raf.getFD()), order);
                if (array instanceof long[] longs) {
                    in.readArray(longs, offset, count);
                } else {
                    in.readArray((int[]) array, offset, count);
                }
            }
        }

        public void write(Path file, long position, Object array, int offset, int count) throws IOException {
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.seek(position);
                BulkDataOutputStream out = new BulkDataOutputStream(new FileOutputStream(raf.getFD()), order);
                if (array instanceof long[] longs) {
                    out.writeArray(longs, offset, count);
                } else {
                    out.writeArray((int[]) array, offset, count);
                }
                out.flush();
            }
        }
    }

    /** bulkds: BulkDataInputStream over BufferedInputStream (default buffer), one call per block. */
    static final class BulkDs implements Approach {
        public String name() { return "bulkds"; }
        public String description() { return "hpio BulkDataInput/OutputStream over Buffered streams (000 Table 1)"; }

        public void read(Path file, long position, Object array, int offset, int count) throws IOException {
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                raf.seek(position);
                BulkDataInputStream in = new BulkDataInputStream(new BufferedInputStream(new FileInputStream(raf.getFD())));
                if (array instanceof long[] longs) {
                    in.readArray(longs, offset, count);
                } else {
                    in.readArray((int[]) array, offset, count);
                }
            }
        }

        public void write(Path file, long position, Object array, int offset, int count) throws IOException {
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.seek(position);
                BulkDataOutputStream out = new BulkDataOutputStream(new BufferedOutputStream(new FileOutputStream(raf.getFD())));
                if (array instanceof long[] longs) {
                    out.writeArray(longs, offset, count);
                } else {
                    out.writeArray((int[]) array, offset, count);
                }
                out.flush();
            }
        }
    }
}
