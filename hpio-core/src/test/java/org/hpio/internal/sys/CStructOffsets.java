package org.hpio.internal.sys;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Evaluates C constant expressions (sizes, offsets, constants of kernel headers) with the C compiler of this
 * machine, so that a test can check a Java {@code MemoryLayout} against the C compiler's view of the struct.
 *
 * <pre>{@code
 * Map<String, Long> c = CStructOffsets.evaluate(List.of("linux/io_uring.h"), List.of(
 *         CStructOffsets.sizeof("struct io_uring_sqe"),
 *         CStructOffsets.offsetof("struct io_uring_sqe", "user_data")));
 * assertEquals(c.get(CStructOffsets.sizeof("struct io_uring_sqe")), SQE_LAYOUT.byteSize());
 * }</pre>
 *
 * Each call compiles and runs one small program in a temporary directory (about 0.1 s): evaluate everything a
 * test needs in one call. When there is no C compiler or a header is missing, the test is skipped with a
 * printed reason (a JUnit assumption failure); any other compiler error (a typo in an expression) fails.
 */
public final class CStructOffsets {
    private static final List<String> COMPILERS = List.of("cc", "gcc", "clang");

    private CStructOffsets() {
    }

    /** The expression {@code sizeof(type)}, e.g. {@code sizeof("struct statx")}. */
    public static String sizeof(String type) {
        return "sizeof(" + type + ")";
    }

    /** The expression {@code offsetof(type, field)}, e.g. {@code offsetof("struct statx", "stx_mask")}. */
    public static String offsetof(String type, String field) {
        return "offsetof(" + type + ", " + field + ")";
    }

    /**
     * The value of each of {@code expressions}, keyed by the expression as given, in order, as the C compiler
     * computes them after including {@code includes} (e.g. "linux/io_uring.h" or "&lt;linux/stat.h&gt;";
     * stddef.h and stdio.h always are). Values are cast to {@code long long}.
     */
    public static Map<String, Long> evaluate(List<String> includes, List<String> expressions) {
        String compiler = findCompiler();
        try {
            Path dir = Files.createTempDirectory("hpio-cstruct");
            try {
                return compileAndRun(compiler, dir, includes, expressions);
            } finally {
                deleteRecursively(dir);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot evaluate C expressions " + expressions, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static Map<String, Long> compileAndRun(String compiler, Path dir, List<String> includes,
                                                   List<String> expressions) throws IOException, InterruptedException {
        StringBuilder source = new StringBuilder("#include <stddef.h>\n#include <stdio.h>\n");
        for (String include : includes) {
            source.append("#include ").append(include.startsWith("<") ? include : "<" + include + ">").append('\n');
        }
        source.append("int main(void) {\n");
        for (String expression : expressions) {
            source.append("    printf(\"%lld\\n\", (long long) (").append(expression).append("));\n");
        }
        source.append("    return 0;\n}\n");
        Path program = dir.resolve("probe.c");
        Path binary = dir.resolve("probe");
        Files.writeString(program, source);

        Result compiled = run(dir, compiler, "-o", binary.toString(), program.toString());
        if (compiled.exitCode != 0) {
            if (compiled.output.contains("No such file or directory") || compiled.output.contains("file not found")) {
                skip("a C header is missing (" + includes + "): " + compiled.output.strip());
            }
            throw new IllegalArgumentException("the C compiler rejects the expressions:\n" + source
                    + compiled.output);
        }
        Result ran = run(dir, binary.toString());
        List<String> lines = ran.output.lines().toList();
        if (ran.exitCode != 0 || lines.size() != expressions.size()) {
            throw new IllegalStateException("the probe program failed (exit " + ran.exitCode + "): " + ran.output);
        }
        Map<String, Long> values = new LinkedHashMap<>();
        for (int i = 0; i < expressions.size(); i++) {
            values.put(expressions.get(i), Long.parseLong(lines.get(i).strip()));
        }
        return values;
    }

    private record Result(int exitCode, String output) {
    }

    private static Result run(Path dir, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("timed out: " + String.join(" ", command));
        }
        return new Result(process.exitValue(), output);
    }

    private static String findCompiler() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String name : COMPILERS) {
            for (String entry : path.split(File.pathSeparator)) {
                Path candidate = Path.of(entry.isEmpty() ? "." : entry, name);
                if (Files.isExecutable(candidate)) {
                    return candidate.toString();
                }
            }
        }
        return skip("no C compiler (" + String.join(", ", COMPILERS) + ") on the PATH");
    }

    /** Aborts the calling test (a skip, not a failure) with the reason printed. */
    private static <T> T skip(String reason) {
        String message = "CStructOffsets: skipped, " + reason;
        System.err.println(message);
        return Assumptions.abort(message);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
