package org.hpio.bulk;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rank and size a launcher's environment gives, and the errors for environments that make no sense. */
class LaunchRankTest {
    @Test
    void eachLauncherIsRead() {
        assertEquals(Optional.of(new LaunchRank(2, 4, "Open MPI")),
                LaunchRank.from(Map.of("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4")));
        assertEquals(Optional.of(new LaunchRank(0, 8, "MPICH/Hydra (PMI)")),
                LaunchRank.from(Map.of("PMI_RANK", "0", "PMI_SIZE", "8")));
        assertEquals(Optional.of(new LaunchRank(5, 6, "Slurm")),
                LaunchRank.from(Map.of("SLURM_PROCID", "5", "SLURM_NTASKS", "6")));
    }

    @Test
    void noLauncherIsEmpty() {
        assertEquals(Optional.empty(), LaunchRank.from(Map.of("HOME", "/root", "SLURM_JOB_ID", "17")));
    }

    @Test
    void openMpiInsideASlurmJobWins() {
        // mpirun inside an allocation: the batch step's SLURM_PROCID=0 of 1 is not this process's rank
        var env = Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "1",
                "OMPI_COMM_WORLD_RANK", "3", "OMPI_COMM_WORLD_SIZE", "4");
        assertEquals(new LaunchRank(3, 4, "Open MPI"), LaunchRank.from(env).orElseThrow());
    }

    @Test
    void inconsistentEnvironmentsAreErrorsNamingTheVariablesAndValues() {
        expectError(Map.of("OMPI_COMM_WORLD_RANK", "4", "OMPI_COMM_WORLD_SIZE", "4"),
                "OMPI_COMM_WORLD_RANK must be in 0..3", "OMPI_COMM_WORLD_RANK='4'", "OMPI_COMM_WORLD_SIZE='4'");
        expectError(Map.of("PMI_RANK", "-1", "PMI_SIZE", "2"), "PMI_RANK must be in 0..1", "PMI_RANK='-1'");
        expectError(Map.of("SLURM_PROCID", "0"), "SLURM_NTASKS is missing", "SLURM_NTASKS=(unset)");
        expectError(Map.of("PMI_SIZE", "3"), "PMI_RANK is missing", "PMI_SIZE='3'");
        expectError(Map.of("SLURM_PROCID", "one", "SLURM_NTASKS", "2"), "SLURM_PROCID is not a whole number",
                "SLURM_PROCID='one'");
        expectError(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "0"),
                "OMPI_COMM_WORLD_SIZE must be at least 1");
        expectError(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "99999999999"),
                "OMPI_COMM_WORLD_SIZE is not a whole number");
    }

    private static void expectError(Map<String, String> env, String... parts) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> LaunchRank.from(env));
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), () -> "'" + part + "' not in: " + e.getMessage());
        }
    }

    @Test
    void blocksCoverTheElementsExactlyOnceAndDifferByAtMostOne() {
        for (long total : new long[] {0, 1, 7, 1000, 1001, (1L << 40) + 3, Long.MAX_VALUE / 2}) {
            for (int size : new int[] {1, 2, 3, 4, 7, 64}) {
                long next = 0;
                for (int rank = 0; rank < size; rank++) {
                    LaunchRank r = new LaunchRank(rank, size, "test");
                    assertEquals(next, r.blockStart(total), total + " / " + size + " rank " + rank);
                    long length = r.blockLength(total);
                    assertTrue(Math.abs(length - total / size) <= 1, total + " / " + size + ": " + length);
                    next += length;
                }
                assertEquals(total, next, total + " / " + size);
            }
        }
    }

    @Test
    void aRankOutsideTheSizeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LaunchRank(2, 2, "test"));
        assertThrows(IllegalArgumentException.class, () -> new LaunchRank(0, 0, "test"));
        assertEquals(0, LaunchRank.SINGLE.rank());
        assertTrue(LaunchRank.SINGLE.isFirst());
    }
}
