package org.hpio.archive;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Finds a Zip file's central directory from its end, as the most tolerant readers do where the file is
 * unambiguous (PKWARE APPNOTE §4.3.14-16), and as strictly as before where it is not.
 *
 * <p>Searches backwards over the last 64 KiB + 22 bytes for end of central directory signatures. Each candidate
 * is checked: one disk, its directory's offset, size and count consistent with the file and with each other,
 * and a central header signature where the directory starts. A Zip64 end of central directory locator just
 * before the candidate is checked the same way (one disk, pointing inside the file at a Zip64 record whose
 * directory checks out) before it is trusted; a locator that does not check out is taken for other bytes (an
 * entry name may hold its signature) when the 32-bit record needs no Zip64 values. Bytes before the archive (a
 * self-extractor's stub, whose offsets count from where the archive starts) are taken as a prefix only when the
 * directory and its first entry's local header are found where the prefix puts them ({@link Found#prefixBytes()}). The candidate that checks
 * out and whose comment ends the file wins; failing that, the last one that checks out, followed by bytes that
 * belong to no record (a trailer: {@link Found#trailingBytes()}); failing that, the refusal of the last
 * candidate whose comment ends the file (else of the last candidate), naming the offset.
 */
final class EndOfDirectory {
    /**
     * Where the directory is: {@code count} entries in {@code size} bytes at {@code offset}, entry data before
     * {@code limit}; the end record at {@code recordAt}, followed by {@code trailingBytes} that belong to no record.
     */
    record Found(long offset, long size, long count, long limit, long recordAt, long trailingBytes,
                 long prefixBytes) {
        /** This directory, {@code prefix} bytes further on (and so is every local header). */
        Found shifted(long prefix) {
            return new Found(offset + prefix, size, count, limit, recordAt, trailingBytes, prefix);
        }
    }

    private EndOfDirectory() {
    }

    /** Finds the directory of the file open on {@code channel}; {@code archive} names it in errors. */
    static Found find(FileChannel channel, String archive) throws IOException {
        long fileSize = channel.size();
        if (fileSize < ZipFormat.END_SIZE) {
            throw new ArchiveFormatException(archive, "too short to be a Zip file (" + fileSize + " bytes)");
        }
        int tail = (int) Math.min(fileSize, ZipFormat.END_SIZE + ZipFormat.MAX_16);
        long tailAt = fileSize - tail;
        ByteBuffer b = ChannelReads.read(channel, tailAt, tail, archive, "end of the file");
        Found withTrailer = null;
        ArchiveFormatException refusal = null;
        ArchiveFormatException nearestRefusal = null;
        for (int i = tail - ZipFormat.END_SIZE; i >= 0; i--) {
            if (b.getInt(i) != ZipFormat.END_OF_CENTRAL_DIRECTORY) {
                continue;
            }
            long recordEnd = tailAt + i + ZipFormat.END_SIZE + Short.toUnsignedInt(b.getShort(i + 20));
            if (recordEnd > fileSize) {
                continue; // its comment would run past the end of the file: not a record
            }
            try {
                Found found = check(channel, archive, tailAt + i, b.slice(i, ZipFormat.END_SIZE)
                        .order(b.order()), fileSize - recordEnd);
                if (recordEnd == fileSize) {
                    return found;
                }
                withTrailer = withTrailer == null ? found : withTrailer;
            } catch (ArchiveFormatException e) {
                refusal = refusal == null && recordEnd == fileSize ? e : refusal;
                nearestRefusal = nearestRefusal == null ? e : nearestRefusal;
            }
        }
        if (withTrailer != null) {
            return withTrailer;
        }
        if (refusal != null || nearestRefusal != null) {
            throw refusal != null ? refusal : nearestRefusal;
        }
        throw new ArchiveFormatException(archive, "no end of central directory record: not a Zip file");
    }

    /** Checks the candidate record {@code e} at {@code at}; throws saying what does not check out. */
    private static Found check(FileChannel channel, String archive, long at, ByteBuffer e, long trailingBytes)
            throws IOException {
        if (e.getShort(4) != 0 || e.getShort(6) != 0) {
            throw new ArchiveFormatException(archive, "multi-disk archives are not supported (end of central "
                    + "directory record at offset " + at + ")");
        }
        long count = Short.toUnsignedInt(e.getShort(10));
        long size = Integer.toUnsignedLong(e.getInt(12));
        long offset = Integer.toUnsignedLong(e.getInt(16));
        Found plain = new Found(offset, size, count, at, at, trailingBytes, 0);
        if (at >= ZipFormat.ZIP64_LOCATOR_SIZE && ChannelReads.read(channel, at - ZipFormat.ZIP64_LOCATOR_SIZE, 4,
                archive, "Zip64 locator").getInt(0) == ZipFormat.ZIP64_LOCATOR) {
            try {
                return checkDirectory(channel, archive, zip64(channel, archive, at, trailingBytes));
            } catch (ArchiveFormatException notALocator) {
                if (needsZip64(plain)) {
                    throw notALocator;
                }
            }
        }
        return checkDirectory(channel, archive, plain);
    }

    /** Whether the 32-bit record holds a "see the Zip64 record" marker. */
    private static boolean needsZip64(Found plain) {
        return plain.count() == ZipFormat.MAX_16 || plain.size() == ZipFormat.MAX_32
                || plain.offset() == ZipFormat.MAX_32;
    }

    /** The directory as the Zip64 record says, where the locator before the record at {@code at} points. */
    private static Found zip64(FileChannel channel, String archive, long at, long trailingBytes) throws IOException {
        long locatorAt = at - ZipFormat.ZIP64_LOCATOR_SIZE;
        ByteBuffer locator = ChannelReads.read(channel, locatorAt, ZipFormat.ZIP64_LOCATOR_SIZE, archive,
                "Zip64 locator");
        if (locator.getInt(4) != 0 || Integer.compareUnsigned(locator.getInt(16), 1) > 0) {
            throw new ArchiveFormatException(archive, "multi-disk archives are not supported (Zip64 locator at "
                    + "offset " + locatorAt + ")");
        }
        long recordAt = locator.getLong(8);
        if (recordAt < 0 || recordAt > locatorAt - ZipFormat.ZIP64_END_SIZE) {
            throw new ArchiveFormatException(archive, "Zip64 locator points to offset " + recordAt
                    + ", outside the file");
        }
        ByteBuffer z = ChannelReads.read(channel, recordAt, ZipFormat.ZIP64_END_SIZE, archive,
                "Zip64 end of central directory");
        if (z.getInt(0) != ZipFormat.ZIP64_END_OF_CENTRAL_DIRECTORY) {
            throw new ArchiveFormatException(archive, "no Zip64 end of central directory record at offset "
                    + recordAt + " where the locator points");
        }
        if (z.getInt(16) != 0 || z.getInt(20) != 0) {
            throw new ArchiveFormatException(archive, "multi-disk archives are not supported (Zip64 end of "
                    + "central directory record at offset " + recordAt + ")");
        }
        return new Found(z.getLong(48), z.getLong(40), z.getLong(32), recordAt, at, trailingBytes, 0);
    }

    /** {@code found} when its directory fits before its limit and starts with a central header signature. */
    private static Found checkDirectory(FileChannel channel, String archive, Found found) throws IOException {
        long offset = found.offset();
        long size = found.size();
        long count = found.count();
        long limit = found.limit();
        if (offset < 0 || size < 0 || count < 0 || offset > limit || size > limit - offset
                || size > Integer.MAX_VALUE - 8 || count > size / ZipFormat.CENTRAL_HEADER_SIZE) {
            throw new ArchiveFormatException(archive, "central directory of " + count + " entries at offset "
                    + offset + ", " + size + " bytes, does not fit before offset " + limit);
        }
        if (count > 0 && !centralHeaderAt(channel, archive, offset)) {
            Found prefixed = withPrefix(channel, archive, found);
            if (prefixed != null) {
                return prefixed;
            }
            throw new ArchiveFormatException(archive, "central directory entry 0 at offset " + offset
                    + " has no central header signature");
        }
        return found;
    }

    private static boolean centralHeaderAt(FileChannel channel, String archive, long offset) throws IOException {
        return ChannelReads.read(channel, offset, 4, archive, "central directory").getInt(0)
                == ZipFormat.CENTRAL_HEADER;
    }

    /**
     * {@code found} shifted by the bytes before the archive (a self-extractor's stub, say: its offsets count from
     * where the archive starts), as Python's {@code zipfile} and Info-ZIP take it: when the directory, placed to
     * end where the end records start, begins with a central header whose entry's local header, shifted the same,
     * begins with a local header signature. Else null.
     */
    private static Found withPrefix(FileChannel channel, String archive, Found found) throws IOException {
        long prefix = found.limit() - found.size() - found.offset();
        if (prefix <= 0 || !centralHeaderAt(channel, archive, found.offset() + prefix)
                || found.size() < ZipFormat.CENTRAL_HEADER_SIZE) {
            return null;
        }
        long local = Integer.toUnsignedLong(ChannelReads.read(channel, found.offset() + prefix + 42, 4, archive,
                "central directory").getInt(0));
        if (local == ZipFormat.MAX_32 || local + prefix > found.limit() - ZipFormat.LOCAL_HEADER_SIZE) {
            return null;
        }
        boolean localHeader = ChannelReads.read(channel, local + prefix, 4, archive, "local header").getInt(0)
                == ZipFormat.LOCAL_HEADER;
        return localHeader ? found.shifted(prefix) : null;
    }
}
