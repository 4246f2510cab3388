package org.hpio.reliability;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small ext4 file system in an image file, loop-mounted: a real disk that fills up (ENOSPC from the kernel,
 * on every engine's path). {@link #create} skips the calling test, printing why, when it cannot be made here
 * (not root, no mkfs.ext4 from Debian's e2fsprogs, no loop device).
 */
public final class LoopExt4 implements AutoCloseable {
    private final Path image;
    private final Path mountpoint;
    private boolean mounted;

    private LoopExt4(Path image, Path mountpoint) {
        this.image = image;
        this.mountpoint = mountpoint;
    }

    /** Makes an ext4 of {@code megabytes} MiB in {@code dir} and mounts it at dir/mnt. */
    public static LoopExt4 create(Path dir, int megabytes) throws IOException, InterruptedException {
        String reason = !LazyFsMount.isRoot() ? "not root: loop-mounting an ext4 image needs root"
                : !Files.isExecutable(Path.of("/usr/sbin/mkfs.ext4")) && !Files.isExecutable(Path.of("/sbin/mkfs.ext4"))
                ? "mkfs.ext4 is missing: install Debian's e2fsprogs" : null;
        if (reason != null) {
            System.out.println("SKIPPED (loop ext4): " + reason);
        }
        Assumptions.assumeTrue(reason == null, reason);
        Path image = dir.resolve("ext4.img");
        Path mountpoint = Files.createDirectories(dir.resolve("mnt"));
        try (var f = new RandomAccessFile(image.toFile(), "rw")) {
            f.setLength((long) megabytes << 20);
        }
        String mkfs = run(List.of("mkfs.ext4", "-q", "-F", "-b", "4096", "-E", "nodiscard", image.toString()));
        LoopExt4 fs = new LoopExt4(image, mountpoint);
        String failure = fs.mount();
        if (failure != null) {
            System.out.println("SKIPPED (loop ext4): mount -o loop failed: " + failure + " " + mkfs);
        }
        Assumptions.assumeTrue(failure == null, () -> "mount -o loop failed: " + failure);
        return fs;
    }

    public Path mountpoint() {
        return mountpoint;
    }

    /** Unmounts and mounts again: what is read afterwards came from the disk image, not the page cache. */
    public void remount() throws IOException, InterruptedException {
        unmount();
        String failure = mount();
        if (failure != null) {
            throw new IOException("remounting " + image + " failed: " + failure);
        }
    }

    private String mount() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("mount", "-o", "loop", image.toString(), mountpoint.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            return out.isBlank() ? "exit " + p.exitValue() : out.strip();
        }
        mounted = true;
        return null;
    }

    private void unmount() throws IOException, InterruptedException {
        if (mounted) {
            String out = run(List.of("umount", mountpoint.toString()));
            mounted = false;
            if (!out.isBlank()) {
                System.out.println("umount " + mountpoint + ": " + out);
            }
        }
    }

    @Override
    public void close() throws IOException {
        try {
            unmount();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(command);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }
}
