package org.hpio.archive;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Runs the machine's tools (unzip, zip, python3) for interoperability tests; skips when one is missing. */
final class Tools {
    /** What a finished command printed and returned. */
    record Result(int exitCode, String output) {
    }

    private Tools() {
    }

    /** Whether {@code tool} is on the PATH. */
    static boolean installed(String tool) {
        return System.getenv("PATH") != null && Arrays.stream(System.getenv("PATH")
                .split(":")).anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
    }

    /** Skips the calling test, naming the Debian package, when {@code tool} is not on the PATH. */
    static void assumeInstalled(String tool, String debianPackage) {
        boolean found = System.getenv("PATH") != null && Arrays.stream(System.getenv("PATH")
                .split(":")).anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
        assumeTrue(found, tool + " is not installed (Debian package '" + debianPackage + "'); skipping");
    }

    /** Runs {@code command} in {@code dir}, returning its exit code and combined output. */
    static Result run(Path dir, List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IOException("timed out: " + command);
        }
        return new Result(process.exitValue(), output);
    }
}
