package org.hpio.bench.machine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * A C reference program shipped as source in the bench jar (org/hpio/bench/c/NAME.c) and compiled with the
 * machine's C compiler on first use into {@code buildDir}, keyed by the source's hash so that an edit
 * rebuilds it. Without a compiler the program is absent and the suite says so.
 */
public final class CProgram {
    private final Path executable;

    private CProgram(Path executable) {
        this.executable = executable;
    }

    public Path executable() {
        return executable;
    }

    /** Compiles {@code name}.c, or explains in {@code why} (when non-null) why it could not. */
    public static Optional<CProgram> compile(String name, Path buildDir, List<String> why) throws IOException {
        byte[] source;
        try (InputStream in = CProgram.class.getResourceAsStream("/org/hpio/bench/c/" + name + ".c")) {
            if (in == null) {
                throw new IOException("C source " + name + ".c is missing from the bench jar");
            }
            source = in.readAllBytes();
        }
        Path exe = buildDir.resolve(name + "-" + hash(source));
        if (Files.isExecutable(exe)) {
            return Optional.of(new CProgram(exe));
        }
        Optional<String> cc = findCompiler();
        if (cc.isEmpty()) {
            why.add("no C compiler (cc or gcc) on PATH: install Debian's package gcc for the C rows");
            return Optional.empty();
        }
        Files.createDirectories(buildDir);
        Path src = buildDir.resolve(name + ".c");
        Files.write(src, source);
        Path tmp = buildDir.resolve(exe.getFileName() + ".tmp");
        List<String> command = List.of(cc.get(), "-O2", "-march=native", "-pthread", "-o", tmp.toString(), src.toString());
        ProcessResult result = run(command);
        if (result.exit != 0) {
            why.add("compiling " + name + ".c failed: " + result.output.strip());
            return Optional.empty();
        }
        Files.move(tmp, exe, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return Optional.of(new CProgram(exe));
    }

    private static Optional<String> findCompiler() {
        for (String candidate : List.of("cc", "gcc")) {
            for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
                if (Files.isExecutable(Path.of(dir, candidate))) {
                    return Optional.of(Path.of(dir, candidate).toString());
                }
            }
        }
        return Optional.empty();
    }

    /** Starts the program with {@code args}; standard error is merged into standard output. */
    public Process start(List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.addAll(args);
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    record ProcessResult(int exit, String output) {
    }

    static ProcessResult run(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            return new ProcessResult(p.waitFor(), out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while running " + command.getFirst(), e);
        }
    }

    private static String hash(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
