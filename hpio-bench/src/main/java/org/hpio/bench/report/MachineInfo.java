package org.hpio.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The machine a benchmark ran on: I/O figures mean little without the CPU, memory, kernel, file system and JDK
 * behind them, so every report and JSON file carries one of these. Text fields the machine does not reveal are
 * {@value #UNKNOWN}; {@code memoryBytes} is -1 when unknown.
 *
 * @param cpuModel         the CPU model ("model name" of /proc/cpuinfo)
 * @param logicalCores     processors available to the JVM
 * @param memoryBytes      physical memory (MemTotal of /proc/meminfo), -1 if unknown
 * @param kernel           the kernel release, e.g. "6.1.0-18-amd64"
 * @param workDir          the directory whose file system is described
 * @param fileSystemType   the type of that file system, e.g. "ext4", "xfs", "tmpfs"
 * @param fileSystemDevice the device (or source) the file system is on, e.g. "/dev/nvme0n1p2"
 * @param mountPoint       where that file system is mounted
 * @param javaVendor       the JDK vendor
 * @param javaVersion      the JDK runtime version, e.g. "25+36-LTS"
 * @param javaVm           the VM, e.g. "OpenJDK 64-Bit Server VM"
 * @param os               operating system, architecture and (where known) distribution
 */
public record MachineInfo(String cpuModel, int logicalCores, long memoryBytes, String kernel, String workDir,
                          String fileSystemType, String fileSystemDevice, String mountPoint,
                          String javaVendor, String javaVersion, String javaVm, String os) {

    /** What a field holds when the machine does not tell. */
    public static final String UNKNOWN = "unknown";

    /** Looks at this machine and at the file system holding {@code workDir}; never throws. */
    public static MachineInfo probe(Path workDir) {
        Path dir = existingAncestor(workDir);
        FileStore store = null;
        try {
            store = dir == null ? null : Files.getFileStore(dir);
        } catch (IOException | RuntimeException e) {
            // unknown file system
        }
        String type = UNKNOWN;
        String device = UNKNOWN;
        if (store != null) {
            type = orUnknown(safe(store::type));
            device = orUnknown(safe(store::name));
        }
        return new MachineInfo(
                cpuModelHere(),
                Math.max(1, Runtime.getRuntime().availableProcessors()),
                memTotal(),
                kernelRelease(),
                workDir == null ? UNKNOWN : workDir.toAbsolutePath().normalize().toString(),
                type,
                device,
                dir == null ? UNKNOWN : mountPoint(dir),
                orUnknown(System.getProperty("java.vendor")),
                orUnknown(firstNonBlank(System.getProperty("java.runtime.version"), System.getProperty("java.version"))),
                orUnknown(System.getProperty("java.vm.name")),
                probeOs());
    }

    /** The JDK in one line: vendor, version and VM. */
    public String jdk() {
        return javaVendor + " " + javaVersion + " (" + javaVm + ")";
    }

    /** The fields under the keys of the JSON contract (lowercase words joined by '-'), in a stable order. */
    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpu", cpuModel);
        m.put("logical-cores", logicalCores);
        m.put("memory-bytes", memoryBytes >= 0 ? (Object) memoryBytes : UNKNOWN);
        m.put("kernel", kernel);
        m.put("work-dir", workDir);
        m.put("file-system", fileSystemType);
        m.put("file-system-device", fileSystemDevice);
        m.put("mount-point", mountPoint);
        m.put("java-vendor", javaVendor);
        m.put("java-version", javaVersion);
        m.put("java-vm", javaVm);
        m.put("os", os);
        return m;
    }

    /**
     * This machine's CPU model ("model name" of /proc/cpuinfo, or what the kernel calls it), read once: what a
     * suite's parameters and quoted tables name (see {@link SuiteReport#quotedTable}).
     */
    public static String cpuModelHere() {
        return CpuModel.HERE;
    }

    /** Holds the CPU model, probed on first use. */
    private static final class CpuModel {
        static final String HERE = probeCpuModel();
    }

    private static String probeCpuModel() {
        // x86 says "model name"; some ARM and other kernels use one of the others.
        for (String key : List.of("model name", "Processor", "cpu model", "Hardware", "cpu")) {
            String v = procValue("/proc/cpuinfo", key);
            if (v != null) {
                return v;
            }
        }
        return orUnknown(System.getProperty("os.arch"));
    }

    private static long memTotal() {
        String v = procValue("/proc/meminfo", "MemTotal"); // "16314504 kB"
        if (v == null) {
            return -1;
        }
        try {
            String[] parts = v.trim().split("\\s+");
            long n = Long.parseLong(parts[0]);
            return parts.length > 1 && parts[1].equalsIgnoreCase("kB") ? n * 1024 : n;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private static String kernelRelease() {
        String v = readFirstLine(Path.of("/proc/sys/kernel/osrelease"));
        return orUnknown(firstNonBlank(v, System.getProperty("os.version")));
    }

    private static String probeOs() {
        String base = orUnknown(System.getProperty("os.name")) + " " + orUnknown(System.getProperty("os.arch"));
        String pretty = null;
        try {
            for (String line : Files.readAllLines(Path.of("/etc/os-release"), StandardCharsets.UTF_8)) {
                if (line.startsWith("PRETTY_NAME=")) {
                    pretty = line.substring("PRETTY_NAME=".length()).replace("\"", "").trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // no distribution name
        }
        return pretty == null || pretty.isEmpty() ? base : base + " (" + pretty + ")";
    }

    /**
     * The mount point of the file system holding {@code dir}: the longest mount point in /proc/self/mounts that
     * contains the real path (the last one listed wins, as later mounts hide earlier ones).
     */
    private static String mountPoint(Path dir) {
        try {
            Path real = dir.toRealPath();
            String best = null;
            for (String line : Files.readAllLines(Path.of("/proc/self/mounts"), StandardCharsets.UTF_8)) {
                String[] f = line.split(" ");
                if (f.length < 2) {
                    continue;
                }
                String mount = unescapeMount(f[1]);
                if (real.startsWith(Path.of(mount)) && (best == null || mount.length() >= best.length())) {
                    best = mount;
                }
            }
            return orUnknown(best);
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /** /proc/self/mounts writes space, tab, newline and backslash as octal escapes ("\040"). */
    private static String unescapeMount(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).chars().allMatch(d -> d >= '0' && d <= '7')) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** The value after the first "key :" line of a /proc file, or null. */
    private static String procValue(String file, String key) {
        try {
            for (String line : Files.readAllLines(Path.of(file), StandardCharsets.UTF_8)) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals(key)) {
                    String v = line.substring(colon + 1).trim();
                    if (!v.isEmpty()) {
                        return v;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable
        }
        return null;
    }

    private static String readFirstLine(Path p) {
        try {
            List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
            return lines.isEmpty() ? null : lines.getFirst().trim();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static Path existingAncestor(Path p) {
        if (p == null) {
            return null;
        }
        for (Path q = p.toAbsolutePath().normalize(); q != null; q = q.getParent()) {
            if (Files.exists(q)) {
                return q;
            }
        }
        return null;
    }

    private interface IoSupplier {
        String get() throws IOException;
    }

    private static String safe(IoSupplier s) {
        try {
            return s.get();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String firstNonBlank(String a, String b) {
        return a != null && !a.isBlank() ? a : b;
    }

    private static String orUnknown(String s) {
        return Optional.ofNullable(s).map(String::trim).filter(v -> !v.isEmpty()).orElse(UNKNOWN);
    }
}
