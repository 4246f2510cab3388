package org.hpio.archive;

import java.io.IOException;

/** An archive that is not a valid Zip file, or an entry whose data is damaged; says where. */
public final class ArchiveFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /** {@code archive}: {@code problem}, where the problem names the entry or offset. */
    public ArchiveFormatException(String archive, String problem) {
        super(archive + ": " + problem);
    }

    /** As above, caused by {@code cause} (for example a Deflate stream error). */
    public ArchiveFormatException(String archive, String problem, Throwable cause) {
        super(archive + ": " + problem, cause);
    }
}
