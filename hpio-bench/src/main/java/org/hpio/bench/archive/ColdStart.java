package org.hpio.bench.archive;

import org.hpio.bench.machine.PageCache;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** How a cold replay starts. */
enum ColdStart {
    /** sync, then the whole machine's page cache, dentries and inodes dropped: as after a reboot. */
    MACHINE("sync; echo 3 > /proc/sys/vm/drop_caches before each replay (page cache, dentries and inodes: "
            + "file data and file-system metadata cold, as after a reboot)"),
    /** Only the replay's own files' pages dropped; their inodes, dentries and directories stay cached. */
    FILES("POSIX_FADV_DONTNEED on every file read before each replay (file data cold; inodes, dentries and "
            + "directories stay cached)");

    final String description;

    ColdStart(String description) {
        this.description = description;
    }

    /** {@code --cold machine|files}; by default machine where the machine allows it, else files. */
    static ColdStart choose(Optional<String> given) {
        if (given.isEmpty()) {
            return PageCache.canDropEverything() ? MACHINE : FILES;
        }
        return switch (given.get()) {
            case "machine" -> {
                if (!PageCache.canDropEverything()) {
                    throw new IllegalArgumentException("--cold machine needs a writable /proc/sys/vm/drop_caches "
                            + "(root); use --cold files");
                }
                yield MACHINE;
            }
            case "files" -> FILES;
            default -> throw new IllegalArgumentException("--cold: expected machine or files, got '"
                    + given.get() + "'");
        };
    }

    void apply(List<Path> files) throws IOException {
        if (this == FILES) {
            for (Path f : files) {
                PageCache.drop(f);
            }
        } else if (!PageCache.dropEverything()) {
            throw new IOException("could not drop the page cache (sync or /proc/sys/vm/drop_caches failed)");
        }
    }
}
