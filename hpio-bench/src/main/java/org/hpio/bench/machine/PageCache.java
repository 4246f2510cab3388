package org.hpio.bench.machine;

import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Makes a file's pages cold or warm, and tells how much of it is resident.
 *
 * <p>Cold: the file's dirty pages are written and its clean pages dropped with
 * {@code posix_fadvise(POSIX_FADV_DONTNEED)}, which needs no privilege and touches no other file. The share
 * still resident is then measured with util-linux's {@code fincore} when the machine has it, so the report
 * states what it saw rather than what it asked for.
 */
public final class PageCache {
    private PageCache() {
    }

    /** Writes back and drops {@code file}'s pages from the page cache. */
    public static void drop(Path file) throws IOException {
        try (NativeFile f = NativeFile.open(file, Syscalls.O_RDONLY)) {
            f.force(false);
            f.advise(Syscalls.POSIX_FADV_DONTNEED);
        }
    }

    private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

    /**
     * Writes back every dirty page (sync) and drops the whole machine's clean page cache, dentries and inodes
     * ({@code echo 3 > /proc/sys/vm/drop_caches}): the state after a reboot, file-system metadata included.
     * Needs root; returns false, having changed nothing, where the machine does not allow it.
     */
    public static boolean dropEverything() {
        if (!canDropEverything()) {
            return false;
        }
        try {
            Process sync = new ProcessBuilder("sync").redirectErrorStream(true).start();
            sync.getInputStream().transferTo(OutputStream.nullOutputStream());
            if (sync.waitFor() != 0) {
                return false;
            }
            Files.writeString(DROP_CACHES, "3");
            return true;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether {@link #dropEverything()} can work here (root, /proc/sys/vm/drop_caches writable). */
    public static boolean canDropEverything() {
        return Files.isWritable(DROP_CACHES);
    }

    /** Reads {@code file} once so that it is in the page cache. */
    public static void warm(Path file) throws IOException {
        try (var in = Files.newInputStream(file)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
    }

    /** The share of {@code file} in the page cache (0..1), when {@code fincore} can tell. */
    public static OptionalDouble residentShare(Path file) {
        try {
            Process p = new ProcessBuilder(List.of("fincore", "--bytes", "--noheadings", "--raw", "--output", "RES",
                    file.toString())).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.waitFor() != 0 || out.isEmpty()) {
                return OptionalDouble.empty();
            }
            long size = Files.size(file);
            return OptionalDouble.of(size == 0 ? 0 : Long.parseLong(out.lines().findFirst().orElse("0").strip()) / (double) size);
        } catch (IOException | NumberFormatException e) {
            return OptionalDouble.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalDouble.empty();
        }
    }
}
