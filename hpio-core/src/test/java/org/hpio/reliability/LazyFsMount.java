package org.hpio.reliability;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A mounted {@code src/test/python/lazyfs.py} (LazyFS-like FUSE file system: unsynced writes live in memory and
 * a "crash" drops them; chosen operations fail with EIO). The files written through {@link #mountpoint()}
 * land, once fsynced, in {@link #backing()}: after {@link #crash()} and {@link #close()}, the backing directory
 * is what a disk would hold after a power cut.
 *
 * <p>{@link #mount} skips the calling test (JUnit assumption, with the reason printed) where FUSE cannot run:
 * not root, no /dev/fuse, or Debian's python3-fusepy (and fuse3) missing ({@code ./hpio test} installs them).
 */
public final class LazyFsMount implements AutoCloseable {
    public static final Path SCRIPT = Path.of("src/test/python/lazyfs.py").toAbsolutePath();
    private static final String PYTHON = "/usr/bin/python3";

    private final Path backing;
    private final Path mountpoint;
    private final Path stats;
    private final Path log;
    private final Process daemon;
    private boolean closed;

    private LazyFsMount(Path backing, Path mountpoint, Path stats, Path log, Process daemon) {
        this.backing = backing;
        this.mountpoint = mountpoint;
        this.stats = stats;
        this.log = log;
        this.daemon = daemon;
    }

    /** Why FUSE tests cannot run here, or null when they can. */
    public static String unavailableReason() {
        if (!isRoot()) {
            return "not root: mounting the lazyfs FUSE file system needs root";
        }
        if (!Files.exists(Path.of("/dev/fuse"))) {
            return "/dev/fuse is missing (no FUSE in this kernel or container)";
        }
        if (!Files.isExecutable(Path.of(PYTHON))) {
            return PYTHON + " is missing (Debian package python3)";
        }
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import fusepy").redirectErrorStream(true).start();
            Process q = p.waitFor() == 0 ? p : new ProcessBuilder(PYTHON, "-c", "import fuse").redirectErrorStream(true).start();
            if (q.waitFor() != 0) {
                return "the Python FUSE binding is missing: install Debian's python3-fusepy and fuse3";
            }
        } catch (IOException e) {
            return "cannot run " + PYTHON + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        return null;
    }

    /** Mounts a fresh lazyfs under {@code dir} (which must be empty), or skips the test saying why it cannot. */
    public static LazyFsMount mount(Path dir) throws IOException, InterruptedException {
        String reason = unavailableReason();
        if (reason != null) {
            System.out.println("SKIPPED (FUSE): " + reason);
        }
        Assumptions.assumeTrue(reason == null, reason);
        Path backing = Files.createDirectories(dir.resolve("disk"));
        Path mountpoint = Files.createDirectories(dir.resolve("mnt"));
        Path trash = Files.createDirectories(dir.resolve("trash"));
        Path stats = dir.resolve("stats");
        Path log = dir.resolve("lazyfs.log");
        Process daemon = new ProcessBuilder(PYTHON, SCRIPT.toString(), backing.toString(), mountpoint.toString(),
                "--trash", trash.toString(), "--stats", stats.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        LazyFsMount mount = new LazyFsMount(backing, mountpoint, stats, log, daemon);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!mount.isMounted()) {
            if (!daemon.isAlive() || System.nanoTime() > deadline) {
                mount.close();
                throw new IOException("lazyfs did not mount on " + mountpoint + ": " + Files.readString(log));
            }
            Thread.sleep(20);
        }
        return mount;
    }

    public Path mountpoint() {
        return mountpoint;
    }

    public Path backing() {
        return backing;
    }

    /** Sends one control command (see lazyfs.py). */
    public void command(String command) throws IOException {
        Files.writeString(mountpoint.resolve(".lazyfs-control"), command + "\n", StandardCharsets.UTF_8);
    }

    /** The power cut: every unsynced write and name change is gone from the backing directory. */
    public void crash() throws IOException {
        command("crash");
    }

    /** The daemon's counters (crashes, dropped_bytes, undone_names, faults_injected, fsyncs_...). */
    public Map<String, Long> stats() throws IOException {
        Map<String, Long> out = new HashMap<>();
        for (String line : Files.readAllLines(stats)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                out.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 1).strip()));
            }
        }
        return out;
    }

    public String log() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    private boolean isMounted() throws IOException {
        String target = mountpoint.toRealPath().toString();
        return Files.readAllLines(Path.of("/proc/self/mounts")).stream()
                .anyMatch(l -> l.split(" ").length > 1 && l.split(" ")[1].equals(target));
    }

    /** Unmounts (lazily, if something still holds it) and stops the daemon. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            run(List.of("umount", mountpoint.toString()));
            if (isMounted()) {
                run(List.of("umount", "-l", mountpoint.toString()));
            }
            if (!daemon.waitFor(10, TimeUnit.SECONDS)) {
                daemon.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            daemon.destroyForcibly();
        }
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor(30, TimeUnit.SECONDS);
    }

    static boolean isRoot() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("Uid:")).anyMatch(l -> l.split("\\s+")[1].equals("0"));
        } catch (IOException e) {
            return false;
        }
    }
}
