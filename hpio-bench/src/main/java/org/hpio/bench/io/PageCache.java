package org.hpio.bench.io;

import org.hpio.internal.sys.NativeFile;
import org.hpio.internal.sys.Syscalls;

import java.io.IOException;
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

    /** Reads {@code file} once so that it is in the page cache. */
    public static void warm(Path file) throws IOException {
        try (var in = Files.newInputStream(file)) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
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
