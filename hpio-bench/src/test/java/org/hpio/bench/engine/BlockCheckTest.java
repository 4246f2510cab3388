package org.hpio.bench.engine;

import org.hpio.bench.report.Progress;
import org.hpio.testing.DirectIo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The suite's own checks catch wrong data: a figure is never reported for a read of the wrong block. */
class BlockCheckTest {
    private static final long SIZE = 4L << 20;

    @TempDir
    Path dir;

    @Test
    void theBlockCheckTellsBlocksApart() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(3 * BlockPattern.BLOCK, BlockPattern.BLOCK);
            BlockPattern.fill(buffer, 5 * BlockPattern.BLOCK);
            assertEquals(0, BlockPattern.mismatches(buffer, 5 * BlockPattern.BLOCK));
            assertEquals(3, BlockPattern.mismatches(buffer, 6 * BlockPattern.BLOCK), "read from the next block");
            assertEquals(3, BlockPattern.mismatches(arena.allocate(3 * BlockPattern.BLOCK), 0), "zeros, even for block 0");
            BlockPattern.poison(buffer);
            assertEquals(3, BlockPattern.mismatches(buffer, 5 * BlockPattern.BLOCK), "a read that moved nothing");
        }
    }

    /** A file whose block b holds block b+1's pattern: every reader is pointed one block off. */
    private Path shifted() throws IOException {
        Path right = dir.resolve("right.bin");
        PatternFile.create(right, SIZE + (1 << 20), Progress.silent());
        Path wrong = dir.resolve("shifted.bin");
        try (FileChannel in = FileChannel.open(right); FileChannel out = FileChannel.open(wrong,
                StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            in.transferTo(BlockPattern.BLOCK, SIZE, out);
        }
        return wrong;
    }

    @Test
    void aReaderPointedAtTheWrongOffsetFails() throws Exception {
        Path file = shifted();
        EngineSettings settings = new EngineSettings(List.of(1), List.of(1), List.of(1), 0.05, 0, 1);
        for (Mechanism m : new Mechanism[]{Mechanism.FILECHANNEL, Mechanism.THREADS, Mechanism.AFC_POOL}) {
            int depth = m == Mechanism.FILECHANNEL ? 1 : 4;
            List<Workload> workloads = DirectIo.supportedIn(dir) ? List.of(Workload.warm(SIZE), Workload.sequentialRead(SIZE))
                    : List.of(Workload.warm(SIZE)); // buffered only where the file system refuses O_DIRECT
            for (Workload w : workloads) {
                EngineSuiteConfig run = new EngineSuiteConfig(w, m, depth);
                IOException e = assertThrows(IOException.class, () -> run.measure(file, settings, Optional.empty()));
                assertTrue(e.getMessage().contains("read wrong data"), e.getMessage());
            }
        }
    }

    @Test
    void aRightFilePassesAndAWrongWriteIsCaught() throws Exception {
        Path file = dir.resolve("data.bin");
        PatternFile.create(file, SIZE, Progress.silent());
        EngineSettings settings = new EngineSettings(List.of(1), List.of(1), List.of(1), 0.05, 0, 1);
        Figures f = new EngineSuiteConfig(Workload.warm(SIZE), Mechanism.THREADS, 4).measure(file, settings, Optional.empty());
        assertTrue(f.ios() > 0);
        PatternFile.verify("whole file", file, SIZE);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
            out.write(ByteBuffer.allocate(8), 3 * BlockPattern.BLOCK);
        }
        IOException e = assertThrows(IOException.class, () -> PatternFile.verify("spoiled", file, SIZE));
        assertTrue(e.getMessage().contains("wrote wrong data: 1 blocks"), e.getMessage());
    }
}
