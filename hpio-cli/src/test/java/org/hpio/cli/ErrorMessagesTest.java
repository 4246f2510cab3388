package org.hpio.cli;

import org.hpio.Hpio;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every command over bad input (a missing file, a directory, an empty file, a file of the wrong kind, a bad
 * trace line, bad option values) fails with one line that names the command, the file and the problem.
 * In the arguments, {@code @/} stands for a scratch directory holding the files {@link #files} makes.
 */
class ErrorMessagesTest {
    @TempDir
    static Path dir;

    /** A bad command line and the words its error must hold. */
    record Case(List<String> args, List<String> expected) {
        static Case of(String commandLine, String... expected) {
            return new Case(Arrays.asList(commandLine.split(" ")), List.of(expected));
        }

        @Override
        public String toString() {
            return String.join(" ", args);
        }
    }

    @BeforeAll
    static void files() throws Exception {
        Files.createDirectories(dir.resolve("tree"));
        Files.writeString(dir.resolve("tree/a.txt"), "a");
        Files.createFile(dir.resolve("empty.zip"));
        Files.writeString(dir.resolve("text.zip"), "this is no archive\n".repeat(10));
        Files.writeString(dir.resolve("bad.trace"), "000.100000: L \"a.txt\" 1\nnonsense\n");
        Files.writeString(dir.resolve("good.trace"), "000.100000: L \"a.txt\" 1\n");
        Files.createFile(dir.resolve("empty.trace"));
    }

    static Stream<Case> badInput() {
        return Stream.of(
                Case.of("ls @/missing.zip", "hpio ls: ", "@/missing.zip", "no such file"),
                Case.of("ls @/tree", "hpio ls: ", "@/tree is a directory, not a Zip archive"),
                Case.of("ls @/empty.zip", "@/empty.zip", "too short to be a Zip file"),
                Case.of("ls @/text.zip", "@/text.zip", "not a Zip file"),
                Case.of("verify @/missing.zip", "hpio verify: ", "@/missing.zip: no such file"),
                Case.of("verify @/tree", "hpio verify: ", "is a directory, not a Zip archive"),
                Case.of("verify @/text.zip", "@/text.zip", "not a Zip file"),
                Case.of("pack @/missing -o @/out.zip", "hpio pack: ", "@/missing: no such directory"),
                Case.of("pack @/text.zip -o @/out.zip", "@/text.zip is a file, not a directory"),
                Case.of("pack @/tree -o @/nowhere/out.zip", "@/nowhere/out.zip", "no such directory"),
                Case.of("pack @/tree -o @/tree", "@/tree is a directory; give the file to write"),
                Case.of("pack @/tree -o @/out.zip --trace @/missing.trace", "@/missing.trace: no such file"),
                Case.of("pack @/tree -o @/out.zip --trace @/bad.trace", "@/bad.trace line 2", "nonsense"),
                Case.of("pack @/tree -o @/out.zip --order sideways", "--order must be trace or dir"),
                Case.of("pack @/tree -o @/out.zip --level 12", "Deflate level must be"),
                Case.of("pack @/tree -o @/out.zip --level x", "hpio pack: ", "'--level'", "'x' is not an int"),
                Case.of("order --trace @/missing.trace", "hpio order: ", "@/missing.trace: no such file"),
                Case.of("order --trace @/tree", "@/tree is a directory, not a load trace"),
                Case.of("order --trace @/bad.trace", "@/bad.trace line 2"),
                Case.of("order --trace @/empty.trace", "@/empty.trace: the trace holds no loads (the file is empty)"),
                Case.of("order --trace @/good.trace --archive @/empty.zip", "@/empty.zip", "too short"),
                Case.of("order --trace @/good.trace --root @/missing", "@/missing: no such directory"),
                Case.of("order --trace @/good.trace --cache zz", "not a size", "zz"),
                Case.of("simulate --trace @/missing.trace", "hpio simulate: ", "@/missing.trace: no such file"),
                Case.of("simulate --trace @/bad.trace", "@/bad.trace line 2"),
                Case.of("simulate --trace @/empty.trace", "@/empty.trace: the trace holds no loads"),
                Case.of("pack @/tree -o @/out.zip --trace @/empty.trace", "@/empty.trace: the trace holds no loads"),
                Case.of("simulate --trace synthetic --sizes abc", "not a size", "abc"),
                Case.of("simulate --trace synthetic --policies foo", "no cache policy named 'foo'"),
                Case.of("simulate --trace synthetic --order @/missing.list", "@/missing.list: no such file"),
                Case.of("simulate --trace synthetic --cost foo", "--cost: expected"),
                Case.of("simulate --trace synthetic --bypass-share 2", "--bypass-share must be in (0, 1]"),
                Case.of("simulate --trace synthetic --charts @/text.zip", "--charts @/text.zip: exists and is not a directory"),
                Case.of("bench nosuch", "hpio bench: ", "no suite named 'nosuch'"),
                Case.of("bench --cache lukewarm bulk", "--cache: expected warm, cold or both, got 'lukewarm'"),
                Case.of("bench --size abc bulk", "not a size", "abc"),
                Case.of("bench --reps 0 bulk", "repetitions must be at least 1"),
                Case.of("bench --threads x bulk", "'--threads'", "'x' is not an int"),
                Case.of("bench --work-dir @/text.zip bulk", "--work-dir @/text.zip: exists and is not a directory"),
                Case.of("bench --trace @/missing.trace archive", "@/missing.trace: no such file"),
                Case.of("bench --trace-root @/missing archive", "@/missing: no such directory"),
                Case.of("trace record -o @/t.trace --root @/missing -- true", "hpio trace record: ",
                        "@/missing: no such directory"),
                Case.of("trace record -o @/nowhere/t.trace -- true", "@/nowhere/t.trace", "no such directory"),
                Case.of("nosuchcommand", "hpio: ", "'nosuchcommand'"));
    }

    @ParameterizedTest(name = "hpio {0}")
    @MethodSource("badInput")
    void saysWhichFileAndWhatIsWrong(Case c) {
        String[] args = c.args().stream().map(ErrorMessagesTest::resolve).toArray(String[]::new);
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        int exit = cli.execute(args);
        String message = err.toString();
        assertNotEquals(0, exit, message);
        for (String words : c.expected()) {
            assertTrue(message.contains(resolve(words)), () -> "expected '" + resolve(words) + "' in:\n" + message);
        }
        assertFalse(message.contains("Exception"), message);
    }

    @Test
    void versionIsTheArtifactsVersionThenWhatRunsHere() throws IOException {
        StringWriter out = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        assertEquals(0, cli.execute("--version"));
        assertEquals("hpio " + System.getProperty("hpio.projectVersion") + "\n" + Hpio.describe(),
                out.toString().strip());
    }

    private static String resolve(String text) {
        return text.replace("@/", dir.toString() + "/");
    }
}
