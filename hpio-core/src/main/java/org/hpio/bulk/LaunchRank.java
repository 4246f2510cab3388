package org.hpio.bulk;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * This process's rank and the process count, as the launcher that started it says: the parallel
 * multiprocess experiment of 001 §4, where every process (one JVM each) owns one block of a shared file and
 * needs only "who am I, how many are we" from MPI. No MPI library is called: the launchers put both numbers
 * in the environment of every process they start.
 *
 * <table>
 * <caption>Launchers read, first match wins</caption>
 * <tr><th>launcher</th><th>rank</th><th>size</th></tr>
 * <tr><td>Open MPI ({@code mpirun}, {@code mpiexec})</td><td>{@code OMPI_COMM_WORLD_RANK}</td>
 *     <td>{@code OMPI_COMM_WORLD_SIZE}</td></tr>
 * <tr><td>MPICH, Intel MPI (Hydra)</td><td>{@code PMI_RANK}</td><td>{@code PMI_SIZE}</td></tr>
 * <tr><td>Slurm ({@code srun})</td><td>{@code SLURM_PROCID}</td><td>{@code SLURM_NTASKS}</td></tr>
 * </table>
 *
 * <pre>{@code
 * LaunchRank me = LaunchRank.fromEnvironment().orElse(LaunchRank.SINGLE);
 * int[] mine = new int[Math.toIntExact(me.blockLength(total))];
 * try (var file = new BulkRandomAccessFile(shared, "rw", ByteOrder.nativeOrder())) {
 *     file.writeArray(4 * me.blockStart(total), mine);   // positional: each rank its own disjoint block
 * }
 * }</pre>
 *
 * <p>A launcher's variables that do not make sense (a rank at or above the size, a negative rank, a size
 * below 1, one of the pair missing, not a number) are an {@link IllegalStateException} naming the variables
 * and their values: a process must never guess its block.
 *
 * @param rank     this process's rank, 0 .. size - 1
 * @param size     how many processes the launcher started
 * @param launcher which launcher's variables said so ("Open MPI", "MPICH/Hydra (PMI)", "Slurm"), or "none"
 */
public record LaunchRank(int rank, int size, String launcher) {
    /** A process started alone, by no launcher: rank 0 of 1. */
    public static final LaunchRank SINGLE = new LaunchRank(0, 1, "none");

    /** One launcher's pair of variables. */
    private record Variables(String launcher, String rank, String size) {
    }

    private static final List<Variables> LAUNCHERS = List.of(
            new Variables("Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),
            new Variables("MPICH/Hydra (PMI)", "PMI_RANK", "PMI_SIZE"),
            new Variables("Slurm", "SLURM_PROCID", "SLURM_NTASKS"));

    public LaunchRank {
        if (size < 1 || rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank " + rank + " of " + size + ": need 0 <= rank < size");
        }
    }

    /** The rank and size from this process's environment; empty when no known launcher started it. */
    public static Optional<LaunchRank> fromEnvironment() {
        return from(System.getenv());
    }

    /**
     * The rank and size from {@code environment}: the first launcher in the table above with either of its
     * variables set. Empty when none has.
     *
     * @throws IllegalStateException when that launcher's variables are missing, not numbers, or inconsistent
     */
    public static Optional<LaunchRank> from(Map<String, String> environment) {
        for (Variables v : LAUNCHERS) {
            String rank = environment.get(v.rank());
            String size = environment.get(v.size());
            if (rank != null || size != null) {
                return Optional.of(parse(v, rank, size));
            }
        }
        return Optional.empty();
    }

    private static LaunchRank parse(Variables v, String rankText, String sizeText) {
        String seen = v.rank() + "=" + shown(rankText) + ", " + v.size() + "=" + shown(sizeText);
        if (rankText == null || sizeText == null) {
            throw inconsistent(v, seen, (rankText == null ? v.rank() : v.size()) + " is missing");
        }
        int rank = number(v, seen, v.rank(), rankText);
        int size = number(v, seen, v.size(), sizeText);
        if (size < 1) {
            throw inconsistent(v, seen, v.size() + " must be at least 1");
        }
        if (rank < 0 || rank >= size) {
            throw inconsistent(v, seen, v.rank() + " must be in 0.." + (size - 1));
        }
        return new LaunchRank(rank, size, v.launcher());
    }

    private static int number(Variables v, String seen, String name, String text) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw inconsistent(v, seen, name + " is not a whole number");
        }
    }

    private static IllegalStateException inconsistent(Variables v, String seen, String why) {
        return new IllegalStateException("the " + v.launcher() + " launcher's environment is inconsistent: " + why
                + " (" + seen + ")");
    }

    private static String shown(String value) {
        return value == null ? "(unset)" : "'" + value + "'";
    }

    /** Whether this is rank 0, the one that by convention creates shared files and writes reports. */
    public boolean isFirst() {
        return rank == 0;
    }

    /** The index of this rank's first element when {@code total} elements are split into equal blocks. */
    public long blockStart(long total) {
        return blockStart(total, rank);
    }

    /** How many of {@code total} elements this rank's block holds (block sizes differ by at most one). */
    public long blockLength(long total) {
        return blockStart(total, rank + 1) - blockStart(total, rank);
    }

    private long blockStart(long total, int r) {
        if (total < 0) {
            throw new IllegalArgumentException("element count must not be negative: " + total);
        }
        // floor(total * r / size) without overflow: total = q * size + m, and m * r < 2^62
        return total / size * r + total % size * r / size;
    }
}
