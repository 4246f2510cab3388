package org.hpio.archive;

import java.nio.file.Path;

/**
 * One file as it goes into an archive, once its CRC, method and sizes are known (see {@link EntryEncoder}).
 *
 * @param name             the entry name ('/'-separated, relative)
 * @param source           the file it comes from
 * @param method           {@link ZipFormat#STORED} or {@link ZipFormat#DEFLATED}
 * @param crc              CRC-32 of the file's bytes
 * @param compressedSize   bytes of data in the archive
 * @param uncompressedSize bytes of the file
 * @param data             the data as it goes into the archive when small enough to hold, else {@code null}
 *                         (then {@link EntryEncoder} streams it again from {@code source}); owned by this record
 */
record EncodedEntry(String name, Path source, int method, long crc, long compressedSize, long uncompressedSize,
                    byte[] data) {
    /** Whether the sizes need the Zip64 extra field. */
    boolean needsZip64Sizes() {
        return uncompressedSize >= ZipFormat.MAX_32 || compressedSize >= ZipFormat.MAX_32;
    }
}
