package org.hpio.internal.sys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What an O_DIRECT transfer on one file must be aligned to: the buffer address to {@code memoryAlignment}, the
 * file offset and the length to {@code offsetAlignment}.
 *
 * <p>Found, in this order: from statx(2) {@code STATX_DIOALIGN} (Linux 6.1+, on file systems that report it);
 * else from the logical block size of the block device under the file system, in sysfs (both alignments);
 * else {@value #DEFAULT_ALIGNMENT}, which satisfies every common device. {@link #source} says which.
 *
 * @param path            the file, named in the messages of {@link #check}
 * @param memoryAlignment the alignment of buffer addresses, a power of two
 * @param offsetAlignment the alignment of file offsets and lengths, a power of two
 * @param source          where the values come from
 */
public record DirectAlignment(String path, int memoryAlignment, int offsetAlignment, Source source) {
    /** The alignment assumed when neither statx nor sysfs tells. */
    public static final int DEFAULT_ALIGNMENT = 4096;

    /** Where an alignment comes from. */
    public enum Source {
        STATX("statx"), BLOCK_DEVICE("block device"), DEFAULT("default");

        private final String label;

        Source(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    public DirectAlignment {
        if (Integer.bitCount(memoryAlignment) != 1 || Integer.bitCount(offsetAlignment) != 1) {
            throw new IllegalArgumentException("alignments must be powers of two, not " + memoryAlignment
                    + " and " + offsetAlignment + " (" + source + ") for " + path);
        }
    }

    /** The alignment of the open {@code file}, whether or not it was opened with O_DIRECT. */
    public static DirectAlignment of(NativeFile file) throws IOException {
        try (NativeFile.Lease lease = file.lease()) {
            return of(file.path(), Statx.of(lease.fd(), file.path(), Statx.STATX_DIOALIGN));
        }
    }

    /** The alignment of the file at {@code path}. */
    public static DirectAlignment of(Path path) throws IOException {
        String name = path.toString();
        return of(name, Statx.of(name, Statx.STATX_DIOALIGN));
    }

    private static DirectAlignment of(String path, Statx statx) {
        if (statx.hasDirectAlignment() && Integer.bitCount(statx.dioMemAlign()) == 1
                && Integer.bitCount(statx.dioOffsetAlign()) == 1) {
            return new DirectAlignment(path, statx.dioMemAlign(), statx.dioOffsetAlign(), Source.STATX);
        }
        int blockSize = logicalBlockSize(statx.devMajor(), statx.devMinor());
        if (blockSize > 0) {
            return new DirectAlignment(path, blockSize, blockSize, Source.BLOCK_DEVICE);
        }
        return new DirectAlignment(path, DEFAULT_ALIGNMENT, DEFAULT_ALIGNMENT, Source.DEFAULT);
    }

    /**
     * The logical block size of block device {@code major:minor} from sysfs, or 0 when there is none (a file
     * system without a block device, such as tmpfs or overlayfs, or no sysfs). A partition has no queue
     * directory of its own: its disk's is one level up. The path is not normalized, so ".." follows the
     * symbolic link {@code /sys/dev/block/M:m} as the kernel resolves it.
     */
    static int logicalBlockSize(int major, int minor) {
        Path device = Path.of("/sys/dev/block", major + ":" + minor);
        for (Path queue : List.of(device.resolve("queue"), device.resolve("../queue"))) {
            try {
                int size = Integer.parseInt(Files.readString(queue.resolve("logical_block_size")).strip());
                if (size >= 512 && Integer.bitCount(size) == 1) {
                    return size;
                }
            } catch (IOException | NumberFormatException e) {
                // Not here: try the next place, then give up.
            }
        }
        return 0;
    }

    /**
     * Throws an IOException naming each of the buffer {@code address}, file {@code position} and
     * {@code length} that is not aligned, e.g. "unaligned O_DIRECT request on /x: offset 100 is not a
     * multiple of 512".
     */
    public void check(long address, long position, long length) throws IOException {
        if (Math.floorMod(address, memoryAlignment) == 0 && Math.floorMod(position, offsetAlignment) == 0
                && Math.floorMod(length, offsetAlignment) == 0) {
            return;   // every request of an O_DIRECT file passes here: nothing allocated
        }
        List<String> faults = new ArrayList<>(3);
        if (Math.floorMod(address, memoryAlignment) != 0) {
            faults.add("buffer address 0x" + Long.toHexString(address) + " is not a multiple of " + memoryAlignment);
        }
        if (Math.floorMod(position, offsetAlignment) != 0) {
            faults.add("offset " + position + " is not a multiple of " + offsetAlignment);
        }
        if (Math.floorMod(length, offsetAlignment) != 0) {
            faults.add("length " + length + " is not a multiple of " + offsetAlignment);
        }
        if (!faults.isEmpty()) {
            throw new IOException("unaligned O_DIRECT request on " + path + ": " + String.join(", ", faults)
                    + " (alignment from " + source + ")");
        }
    }
}
