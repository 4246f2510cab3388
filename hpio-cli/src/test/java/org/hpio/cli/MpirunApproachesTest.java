package org.hpio.cli;

import org.hpio.bench.bulk.Approaches;
import org.hpio.bench.data.TestData;
import org.hpio.bulk.LaunchRank;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mpirun -np 4 hpio bench approaches} on this machine, as the README's cluster recipe runs it on many:
 * four JVMs started by Open MPI, each a rank owning one block of the shared file. Afterwards every byte of every
 * approach's written file is compared, block by block, with what its rank had to write. Skips, saying why,
 * where mpirun is missing ({@code ./hpio test} installs Debian's {@code openmpi-bin} when it runs as root).
 */
class MpirunApproachesTest {
    private static final int RANKS = 4;
    private static final long BYTES = 1 << 20;
    private static final List<String> CONFIGS = List.of("bulkraf", "bulk-native", "nio", "encode-decode");

    @TempDir
    Path dir;

    @Test
    void fourRanksWriteTheirBlocksOfOneSharedFileAndRankZeroReports() throws Exception {
        Path mpirun = mpirun();
        Path work = dir.resolve("work");
        Path json = dir.resolve("results.json");
        List<String> command = new ArrayList<>(List.of(mpirun.toString(), "--oversubscribe", "-np", String.valueOf(RANKS)));
        if ("root".equals(System.getProperty("user.name"))) {
            command.add(1, "--allow-run-as-root");
        }
        command.addAll(java("-Dhpio.bench.approaches.keep=true", "bench", "approaches", "--size", String.valueOf(BYTES),
                "--reps", "1", "--configs", String.join(",", CONFIGS), "--work-dir", work.toString(),
                "--report", dir.resolve("report").toString(), "--json", json.toString()));
        Result run = run(command, Map.of());
        assertEquals(0, run.exit(), run.output());

        String results = Files.readString(json);
        for (String name : CONFIGS) {
            assertTrue(results.contains("\"" + name + "-r" + RANKS + "\""), name + " missing from " + results);
            Path written = work.resolve("approaches").resolve("ints-out-" + name + ".bin");
            checkEveryBlock(written, Approaches.byName(name).fileOrder());
        }
        assertTrue(Files.readString(dir.resolve("report").resolve("report.md")).contains(RANKS + " ranks (Open MPI)"));
        assertFalse(Files.exists(work.resolve("approaches").resolve("ranks")), "meeting files left behind");
        assertTrue(run.output().contains("rank 3 of 4 (Open MPI) done"), run.output());
    }

    @Test
    void anInconsistentLauncherEnvironmentIsAnErrorNamingTheVariables() throws Exception {
        Result run = run(java("bench", "approaches", "--size", "64k", "--work-dir", dir.toString()),
                Map.of("OMPI_COMM_WORLD_RANK", "4", "OMPI_COMM_WORLD_SIZE", "4"));
        assertNotEquals(0, run.exit());
        assertTrue(run.output().contains("OMPI_COMM_WORLD_RANK='4'") && run.output().contains("OMPI_COMM_WORLD_SIZE='4'"),
                run.output());
    }

    /** Each rank's block must hold exactly the generator's elements at that block's indices. */
    private static void checkEveryBlock(Path file, ByteOrder order) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(order);
        long count = BYTES / 4;
        assertEquals(BYTES, bytes.capacity(), file + " has the wrong length");
        for (int rank = 0; rank < RANKS; rank++) {
            LaunchRank r = new LaunchRank(rank, RANKS, "test");
            for (long i = r.blockStart(count); i < r.blockStart(count) + r.blockLength(count); i++) {
                int expected = (int) TestData.value(i);
                int actual = bytes.getInt(Math.toIntExact(4 * i));
                if (actual != expected) {
                    throw new AssertionError(file.getFileName() + ": rank " + rank + "'s block holds " + actual
                            + " at element " + i + ", expected " + expected);
                }
            }
        }
    }

    /** Open MPI's mpirun on the PATH (the flags above are its own), or the test skips saying why. */
    private static Path mpirun() throws Exception {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(dir, "mpirun");
            if (Files.isExecutable(candidate)) {
                Result version = run(List.of(candidate.toString(), "--version"), Map.of());
                if (version.output().contains("Open MPI")) {
                    return candidate;
                }
                return skip(candidate + " is not Open MPI's (it says: " + version.output().strip() + ")");
            }
        }
        return skip("mpirun is not installed (Debian: apt-get install openmpi-bin; ./hpio test does it as root)");
    }

    private static Path skip(String why) {
        System.out.println("MpirunApproachesTest skipped: " + why);
        Assumptions.abort(why);
        throw new AssertionError("unreachable");
    }

    /** This JVM's java running the hpio CLI with {@code args} (JVM options first). */
    private static List<String> java(String... args) {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED"));
        List<String> jvmOptions = List.of(args).stream().filter(a -> a.startsWith("-D")).toList();
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args).subList(jvmOptions.size(), args.length));
        return command;
    }

    private record Result(int exit, String output) {
    }

    private static Result run(List<String> command, Map<String, String> environment) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
