package org.hpio.archive;

/**
 * One entry of an archive's central directory (PKWARE APPNOTE §4.3.12), with Zip64 values already applied.
 *
 * @param name              the entry name, '/'-separated; directories end in '/'
 * @param method            0 stored, 8 Deflate (others are listed but cannot be read)
 * @param flags             the general purpose bit flags
 * @param crc               CRC-32 of the uncompressed data
 * @param compressedSize    bytes of data in the archive
 * @param uncompressedSize  bytes of the file
 * @param localHeaderOffset where the entry's local header starts
 * @param dosDateTime       the MS-DOS date (high 16 bits) and time (low 16 bits)
 */
public record ArchiveEntry(String name, int method, int flags, long crc, long compressedSize,
                           long uncompressedSize, long localHeaderOffset, int dosDateTime) {
    /** Method 0: the data is the file. */
    public static final int STORED = ZipFormat.STORED;
    /** Method 8: the data is raw Deflate. */
    public static final int DEFLATED = ZipFormat.DEFLATED;
    /** Method 93: Zstandard, read and written through the system's libzstd. */
    public static final int ZSTD = ZipFormat.ZSTD;
    /** Method 12: bzip2, read (not written) through the system's libbz2. */
    public static final int BZIP2 = ZipFormat.BZIP2;

    /** Whether the entry is a directory (its name ends in '/'). */
    public boolean isDirectory() {
        return name.endsWith("/");
    }

    /** Whether the data is encrypted (which hpio does not read). */
    public boolean isEncrypted() {
        return (flags & ZipFormat.FLAG_ENCRYPTED) != 0;
    }

    /** "stored", "deflate", or "method N". */
    public String methodName() {
        return switch (method) {
            case STORED -> "stored";
            case DEFLATED -> "deflate";
            case ZSTD -> "zstd";
            case 12 -> "bzip2";
            case 14 -> "lzma";
            case 95 -> "xz";
            case 9 -> "deflate64";
            default -> "method " + method;
        };
    }
}
