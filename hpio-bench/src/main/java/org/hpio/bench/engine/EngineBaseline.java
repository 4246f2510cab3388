package org.hpio.bench.engine;

import org.hpio.bench.report.Progress;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The engine suite's data file and its io_uring driver, for suites that compare with the engine in their own
 * run (the nio suite's {@code uring-qd32} row): the same pattern, the same checks, the same figures.
 */
public final class EngineBaseline {
    /** The block size of the pattern and of the random reads. */
    public static final int BLOCK = BlockPattern.BLOCK;

    private EngineBaseline() {
    }

    /** One configuration's checked figures: I/Os per second, CPU µs per I/O, latency percentiles in µs. */
    public record Figures(String configuration, long ios, double seconds, double iops, double cpuMicrosPerIo,
                          double switchesPerIo, double p50, double p99) {
    }

    /** Writes {@code size} bytes (a multiple of 1 MiB) of the engine suite's pattern to {@code file}, forced. */
    public static void createPatternFile(Path file, long size, Progress progress) throws IOException {
        PatternFile.create(file, size, progress);
    }

    /** Spoils {@code buffer}'s blocks before a read, so that a read that moved nothing cannot pass. */
    public static void poison(MemorySegment buffer) {
        BlockPattern.poison(buffer);
    }

    /** How many 4 KiB blocks of {@code buffer} do not hold the pattern of file offset {@code position}. */
    public static int wrongBlocks(MemorySegment buffer, long position) {
        return BlockPattern.mismatches(buffer, position);
    }

    /**
     * The engine suite's {@code uring-qdN} configuration on {@code file} (a pattern file of {@code fileSize}
     * bytes): 4 KiB random O_DIRECT reads at {@code depth} for {@code seconds} after a checked warm-up, every
     * block checked; throws when any read was wrong.
     */
    public static Figures uringRandomReads(Path file, long fileSize, int depth, double seconds, double warmupSeconds)
            throws IOException, InterruptedException {
        EngineSettings settings = new EngineSettings(List.of(depth), List.of(1), List.of(1), seconds, warmupSeconds, 1);
        EngineSuiteConfig run = new EngineSuiteConfig(Workload.random(fileSize), Mechanism.URING, depth);
        // qualified: the engine suite's Figures, not this class's own record of that name
        org.hpio.bench.engine.Figures f = run.measure(file, settings, Optional.empty());
        return new Figures(f.configuration(), f.ios(), f.seconds(), f.iops(), f.cpuMicrosPerIo(), f.switchesPerIo(),
                f.p50(), f.p99());
    }
}
