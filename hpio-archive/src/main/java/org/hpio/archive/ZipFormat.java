package org.hpio.archive;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.LocalDateTime;

/**
 * Constants and small helpers of the Zip format, PKWARE APPNOTE 6.3.x: record signatures (§4.3.7, §4.3.12,
 * §4.3.14-16), the 32-bit "use Zip64" markers (§4.4.8), the Zip64 extra field (§4.5.3) and MS-DOS dates
 * (§4.4.6). All multi-byte numbers in a Zip file are little-endian.
 */
final class ZipFormat {
    static final int LOCAL_HEADER = 0x04034b50;
    static final int CENTRAL_HEADER = 0x02014b50;
    static final int END_OF_CENTRAL_DIRECTORY = 0x06054b50;
    static final int ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
    static final int ZIP64_LOCATOR = 0x07064b50;

    static final int LOCAL_HEADER_SIZE = 30;
    static final int CENTRAL_HEADER_SIZE = 46;
    static final int END_SIZE = 22;
    static final int ZIP64_END_SIZE = 56;
    static final int ZIP64_LOCATOR_SIZE = 20;
    static final int ZIP64_EXTRA_ID = 0x0001;

    static final long MAX_32 = 0xFFFFFFFFL;
    static final int MAX_16 = 0xFFFF;

    static final int STORED = 0;
    static final int DEFLATED = 8;
    /** bzip2 (APPNOTE §4.4.5: method 12); read only. */
    static final int BZIP2 = 12;
    /** Zstandard (APPNOTE 6.3.7 §4.4.5: method 93). */
    static final int ZSTD = 93;

    static final int FLAG_ENCRYPTED = 0x0001;
    static final int FLAG_UTF8 = 0x0800;

    static final int VERSION_STORED = 10;
    static final int VERSION_DEFLATE = 20;
    static final int VERSION_ZIP64 = 45;
    /** The version needed to extract a Zstandard entry (APPNOTE 6.3.7 §4.4.3.2: 6.3). */
    static final int VERSION_ZSTD = 63;
    /** "Version made by": Unix (3) in the high byte, so unzip reads the Unix mode in the external attributes. */
    static final int MADE_BY_UNIX = 3 << 8;
    /** External attributes of a regular file with mode 0644 (Unix mode in the high 16 bits). */
    static final int REGULAR_FILE_0644 = 0100644 << 16;

    private ZipFormat() {
    }

    /** A little-endian buffer of {@code size} bytes. */
    static ByteBuffer littleEndian(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** {@code time} as MS-DOS date (high 16 bits) and time (low 16 bits), two-second resolution. */
    static int dosDateTime(LocalDateTime time) {
        if (time.getYear() < 1980 || time.getYear() > 2107) {
            throw new IllegalArgumentException("a Zip timestamp must be in 1980..2107, was " + time);
        }
        int date = (time.getYear() - 1980) << 9 | time.getMonthValue() << 5 | time.getDayOfMonth();
        int clock = time.getHour() << 11 | time.getMinute() << 5 | time.getSecond() / 2;
        return date << 16 | clock;
    }

    /** The 32-bit field for {@code value}: itself, or the marker that says "see the Zip64 extra field". */
    static int field32(long value) {
        return (int) Math.min(value, MAX_32);
    }

    /** The 16-bit field for {@code value}: itself, or the marker that says "see the Zip64 record". */
    static short field16(long value) {
        return (short) Math.min(value, MAX_16);
    }
}
