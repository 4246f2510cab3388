package org.hpio.bench.nio;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one {@link NioRow} in a fresh JVM like this one (same java, class path, native access), on the JDK's
 * provider or with hpio's installed for the whole JVM, and returns what it printed after
 * {@value NioRow#PREFIX}. The child's output goes to files beside the data; its stderr's last lines are in the
 * exception when the row fails (non-zero exit, no result), the file named when it runs out of time.
 */
final class ChildJvm {
    static final String HPIO_PROVIDER = "-Djava.nio.file.spi.DefaultFileSystemProvider=org.hpio.nio.HpioFileSystemProvider";

    private ChildJvm() {
    }

    /**
     * The JVM options a row runs with: hpio's provider or none, hpio's settings this JVM was given (every {@code hpio.*}
     * property but the bench's own {@code hpio.bench.*}, e.g. {@code HPIO_JAVA_OPTS=-Dhpio.engine.maxInFlight=128},
     * so that a setting can be tried on every hpio row at once), then {@code extra} (a row's own, which win).
     */
    static List<String> jvmOptions(boolean hpio, List<String> extra) {
        List<String> options = new ArrayList<>();
        if (hpio) {
            options.add(HPIO_PROVIDER);
            options.addAll(hpioSettings());
        }
        options.addAll(extra);
        return options;
    }

    /** {@code -Dname=value} for each of hpio's settings among this JVM's system properties, in name order. */
    static List<String> hpioSettings() {
        return System.getProperties().stringPropertyNames().stream()
                .filter(name -> name.startsWith("hpio.") && !name.startsWith("hpio.bench."))
                .sorted().map(name -> "-D" + name + "=" + System.getProperty(name)).toList();
    }

    static Map<String, String> run(String name, List<String> jvmOptions, List<String> args, Path workDir,
                                   long timeoutSeconds) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(NioRow.class.getName());
        command.addAll(args);
        Path err = workDir.resolve(name + ".stderr.txt");
        Path out = workDir.resolve(name + ".stdout.txt");
        Process p = new ProcessBuilder(command).redirectError(err.toFile()).redirectOutput(out.toFile()).start();
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new IOException(name + ": no result within " + timeoutSeconds + " s (stderr: " + err + ")");
            }
        } finally {
            p.destroyForcibly();
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        Files.deleteIfExists(out);
        if (p.exitValue() != 0) {
            throw new IOException(name + " failed (exit " + p.exitValue() + "): " + tail(err));
        }
        for (String line : text.split("\n")) {
            if (line.startsWith(NioRow.PREFIX + " ")) {
                Files.deleteIfExists(err);
                return parse(line.substring(NioRow.PREFIX.length() + 1));
            }
        }
        throw new IOException(name + " printed no result: " + text.strip() + " " + tail(err));
    }

    private static Map<String, String> parse(String pairs) {
        Map<String, String> result = new LinkedHashMap<>();
        for (String pair : pairs.strip().split(" ")) {
            int eq = pair.indexOf('=');
            result.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return result;
    }

    private static String tail(Path err) {
        try {
            List<String> lines = Files.readAllLines(err);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 6), lines.size()));
        } catch (IOException e) {
            return "(no stderr)";
        }
    }
}
